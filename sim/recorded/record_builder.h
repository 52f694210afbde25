/* record_builder.h: a recorder log being written as a schedule (record_schedule.h), the state the writing shares.
 *
 * record_schedule.c builds one: record_find.c first finds, from the log,
 * each call's GPU work (record_call_work.c), its host time inside, which
 * calls a capture took, which launches load code, host functions' times
 * and kernels' times alone; then every call, in the order the calls
 * began, is written: record_write_call.c the host time before it and its
 * statement (record_write_kernel.c for kernels and graph launches),
 * record_write_threads.c the `thread` blocks of calls from other host
 * threads, all through record_builder.c's text, names and times.
 * Never included outside sim/recorded/. */
#ifndef RECORD_BUILDER_H
#define RECORD_BUILDER_H

#include <glib.h>
#include "record_alone.h"
#include "record_call.h"
#include "record_hostfn.h"
#include "record_inside.h"
#include "record_log.h"
#include "record_schedule.h"
#include "record_threads.h"
#include "sim/core/schedule.h"
#include "sim/core/sim_time.h"

/* A call's GPU work: the kernel, copies or memset CUPTI reported for it, joined. */
typedef struct
{
  gboolean timed;
  guint64 start, end;
  gboolean pageable;
  guint copy_kind;
  guint64 copy_bytes;   /* the copy records' bytes, added up */
  const RecordWork *kernel;
  const RecordWork *memset;
  /* A query that begins a loop of queries until its work was done, written
   * as `poll` (record_polls.c): the last query's return, and the median host
   * time between two queries; 0: none. */
  guint64 poll_end, poll_every;
  guint poll_queries;   /* ... and how many queries the loop made */
  gboolean polled;      /* a later query of such a loop: inside the poll */
} CallWork;

/* Where a host thread stands while its calls are written. */
typedef struct
{
  guint64 last_exit;    /* the latest return of its op calls, or where it began (CUPTI clock) */
  guint64 short_gaps;   /* host gaps under the minimum not written yet (builder_write_gap) */
  guint64 boundaries;   /* calls entered since its last op call returned (RecordOptions' call_gap_ns) */
} HostPlace;

typedef struct
{
  const RecordLog *log;
  const RecordOptions *opt;
  GString *text;
  GArray *origin;       /* per text line, the log line of the call it came from (0: none) */
  /* While a thread block is written: the top level's text and origins,
   * which declarations go to (a block may hold none); NULL otherwise. */
  GString *top_text;
  GArray *top_origin;
  guint top_thread;     /* the log's number of the thread at the top level */
  guint n_blocks;       /* threads written as `thread` blocks (record_threads.h) */
  guint n_spawned;      /* blocks opened so far */
  guint thread;         /* ... of the thread whose calls are written */
  HostPlace *place;     /* ... and where it stands */
  gsize block_ops;      /* the ops before the open block's first */
  guint call_line;      /* the log line of the call being written */
  GArray *issue, *start, *end;
  GHashTable *streams;  /* handle -> name (owned strings in `names`) */
  GHashTable *events;
  GPtrArray *event_names; /* the events' names in the order they were named */
  GHashTable *recorded;   /* the names of the events a `record` was written for */
  GPtrArray *names;
  GPtrArray *lanes;     /* the names of the streams graphs' branches use, declared (in `names`) */
  guint n_streams, n_events;
  GHashTable *per_thread; /* thread number -> the name of its per-thread default stream,
                             once declared */
  GHashTable *by_correlation; /* runtime correlation -> call index + 1 */
  CallWork *work;       /* per call */
  guint *call_of_work;  /* per work record of the log: its call + 1; 0: none */
  gboolean log_has_memsets; /* the log has memset records (record_memset.h) */
  /* how the program had its host wait (record_flags.h): the schedule, the
   * call that set it (NULL: none), the event handles made blocking_sync */
  SchedDeviceSchedule schedule;
  const char *schedule_set_by;
  GHashTable *sleeping_events;
  AloneTime *alone;     /* per call: its kernel's time alone (record_alone.h); zeroed for the rest */
  gboolean *loads;      /* per call: a launch that loads its kernel's code (record_loads.h) */
  gboolean *cached;     /* per call: a pageable H2D of a buffer in the CPU's caches (record_cached.c) */
  HostfnTime *hostfn;   /* per call: a host function's time (record_hostfn.h) */
  guint *elapsed_from;  /* per record call: the record call a cudaEventElapsedTime measured
                           from to it, + 1; 0 if none */
  guint *op_of_call;    /* per call: the op it became, + 1; 0 if none */
  gboolean *captured;   /* per call: a stream capture took it into a graph */
  GPtrArray **graph_nodes; /* per graph launch call: its records (record_graph.h); else NULL */
  const char **graph_why;  /* ... and why `graph` cannot write them, or NULL */
  InsideHost *inside;   /* per call: the host time inside it (record_inside.h) */
  RecordSchedule *rec;
  const char *times_of; /* the device kernel times are tagged with (time=h100:...), or NULL */
  guint64 t0;
  gboolean started;     /* some call is an op: t0 is its call's, or options' origin */
  GError **error;
} Builder;

/* record_builder.c: the text, the names, the ops' times. */
/* Ends a line of the text, its origin the call being written. */
void builder_line_end (Builder *b);
/* A line "# ..." of the text. */
void builder_comment (Builder *b, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* A size as the language writes it, exactly (4MiB, 100B). */
void builder_append_size (GString *s, guint64 bytes);
/* Nanoseconds exactly, as microseconds with three decimals. */
void builder_append_time (GString *s, guint64 ns);
/* Sets the error at the call's log line and returns FALSE. */
gboolean builder_fail (Builder *b, const RecordCall *c, const char *format, ...) G_GNUC_PRINTF (3, 4);
/* Swaps a thread block's text and the top level's, for a declaration. */
void builder_swap_top (Builder *b);
/* Declares a stream (at the top level) and names it. */
const char *builder_new_stream (Builder *b, guint64 handle, guint64 flags, gint64 priority,
                                const char *why);
/* A stream handle's name, declared on first use. */
const char *builder_stream_name (Builder *b, guint64 handle, gboolean per_thread);
/* An event handle's name. */
const char *builder_event_name (Builder *b, guint64 handle);
/* A stream's name for a comment: declares nothing. */
char *builder_stream_label (const Builder *b, guint64 handle, gboolean per_thread);
/* A CUPTI time as ns from time 0 (negative before it). */
SimTime builder_since_t0 (const Builder *b, guint64 t);
/* Opens an op: its issue, start and end go into the per-op arrays. */
void builder_op_times (Builder *b, guint64 issue, SimTime start, SimTime end);
/* How long a call ran on the host; 0 for one with no return. */
guint64 builder_call_took (const RecordCall *c);
/* A `host` statement from `from` to `to`, `why` its comment or NULL. */
void builder_write_host (Builder *b, guint64 from, guint64 to, const char *why);
/* A call's GPU work's start and end from time 0; -1 where untimed. */
SimTime builder_work_start (const Builder *b, const CallWork *w);
SimTime builder_work_end (const Builder *b, const CallWork *w);

/* record_call_work.c: a call with its GPU work. */
gboolean builder_copy_is_pageable (const RecordWork *r);
void builder_copy_shape (const RecordCall *c, const CallWork *w, guint64 *bytes, guint *kind);
RecordCallKind builder_call_kind (const RecordCall *c, const CallWork *w, gboolean *per_thread);
gboolean builder_makes_op (const Builder *b, RecordCallKind kind, const RecordCall *c,
                           const CallWork *w);
gboolean builder_waits_for_gpu (RecordCallKind kind, const CallWork *w);
guint64 builder_stream_key (const Builder *b, const RecordCall *c, RecordCallKind kind,
                            gboolean per_thread);
/* Fills b->work, call_of_work, graph_nodes, graph_why, log_has_memsets. */
void builder_join_work (Builder *b);

/* record_find.c: what the log says of each call before it is written;
 * `order` is the calls in the order they began. */
void builder_find_alone_times (Builder *b);
void builder_find_captured (Builder *b, const guint *order);
void builder_find_elapsed_pairs (Builder *b, const guint *order);
void builder_find_hostfn (Builder *b, const guint *order);
void builder_find_inside (Builder *b, const guint *order);
gboolean *builder_find_ops (const Builder *b);
void builder_find_t0 (Builder *b, const guint *order, const gboolean *is_op);

/* record_cached.c: fills b->cached. */
void builder_find_cached (Builder *b, const guint *order);

/* record_polls.c: marks loops of queries in b->work (poll_end, polled);
 * after builder_find_inside, whose waits it reads. */
void builder_find_polls (Builder *b, const guint *order);
/* Where a call returned: a poll's last query's return. */
guint64 builder_call_exit (const RecordCall *c, const CallWork *w);

/* record_write_call.c: a call with the host time before it. */
void builder_write_gap (Builder *b, guint64 from, guint64 to, guint64 *short_gaps,
                        gboolean flush);
gboolean builder_write_step (Builder *b, guint index, gboolean op);

/* record_write_kernel.c: kernel launches and graph launches. */
gboolean builder_write_kernel (Builder *b, guint index, gboolean per_thread, guint64 issue);
void builder_write_graph (Builder *b, guint index, gboolean per_thread, guint64 issue);

/* record_write_threads.c: `thread` blocks. */
void builder_open_thread (Builder *b, const ThreadStep *step, HostPlace *place);
void builder_close_thread (Builder *b, const ThreadStep *step, HostPlace *top);

#endif /* RECORD_BUILDER_H */
