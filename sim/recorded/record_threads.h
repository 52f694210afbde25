/* record_threads.h: the order a recording's calls are written in, each host thread's in a block of its own.
 *
 * The calls of the log's first thread (the lowest thread number: 1 in the
 * recorder's logs) stand at the top level, in the order they began, and so do
 * those of every thread that never made a call while another thread's call
 * was under way: such threads took turns (PyTorch's autograd thread issues
 * the backward pass while the main thread waits for it outside CUDA), and the
 * order they began in is the order the program imposed, which the recorder
 * has no join to express. Each other thread, one that did call while another
 * thread's call was under way, has its calls, all of them in the order they
 * began, form a `thread` block, placed among the first thread's calls where the thread's
 * own first call began on the wall clock: after the first thread's calls
 * that began before it; but where that instant fell inside one of them
 * that becomes an op (a synchronize, say), before that call, which then
 * had not returned yet. Blocks placed at the same point keep the order
 * their threads began in. The recorder sees no joins (pthread_join is no
 * CUDA call): nothing says where a thread was waited for. */
#ifndef RECORD_THREADS_H
#define RECORD_THREADS_H

#include <glib.h>
#include "record_log.h"

typedef enum
{
  THREAD_STEP_CALL,  /* write one call */
  THREAD_STEP_OPEN,  /* open a thread's block */
  THREAD_STEP_CLOSE, /* close it, after its last call */
} ThreadStepKind;

typedef struct
{
  ThreadStepKind kind;
  guint call;    /* CALL: the call, an index into the log's calls; OPEN: the
                    thread's first call */
  guint thread;  /* the log's number of the call's thread, or of the block's */
  guint inside;  /* OPEN: the first thread's call whose time its first call began
                    in, + 1 (that call comes right after the block); 0 where it
                    began between two of them */
} ThreadStep;

/* The first thread's number: the lowest in the log (1 when it has no calls). */
guint record_threads_first (const RecordLog *log);

/* How many threads get a block of their own: those other than the first
 * that made a call while another thread's call was under way (`order`: the
 * calls in the order they began). */
guint record_threads_n_blocks (const RecordLog *log, const guint *order);
/* Those threads' numbers, as a set (g_hash_table_unref it). */
GHashTable *record_threads_in_blocks (const RecordLog *log, const guint *order);

/* The steps that write the log's calls: `order` lists them in the order
 * they began, `is_op` says per call whether it becomes an op. One CALL
 * step per call (g_array_unref it). */
GArray *record_threads_plan (const RecordLog *log, const guint *order, const gboolean *is_op);

#endif /* RECORD_THREADS_H */
