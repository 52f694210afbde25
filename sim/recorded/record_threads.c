/* record_threads.c: each host thread's calls in a block of its own (record_threads.h). */
#include "record_threads.h"

/* A thread other than the first: its calls, and where its block stands. */
typedef struct
{
  guint thread;
  GArray *calls;   /* indices into the log's calls, in the order they began */
  guint anchor;    /* the first thread's call the block stands by, + 1; 0: before all */
  gboolean inside; /* before that call (its first call began inside it); else after */
} OtherThread;

static const RecordCall *
call_at (const RecordLog *log, guint index)
{
  return &g_array_index (log->calls, RecordCall, index);
}

guint
record_threads_first (const RecordLog *log)
{
  guint top = G_MAXUINT;
  for (guint i = 0; i < log->calls->len; i++)
    top = MIN (top, call_at (log, i)->thread);
  return log->calls->len > 0 ? top : 1;
}

/* The threads that made a call while another thread's call was under way
 * (a set of thread numbers): in the order the calls began, each call is
 * checked against the latest return so far of every other thread. */
static GHashTable *
concurrent_threads (const RecordLog *log, const guint *order)
{
  GHashTable *concurrent = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) last_exit = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint k = 0; k < log->calls->len; k++)
    {
      const RecordCall *c = call_at (log, order[k]);
      GHashTableIter it;
      gpointer thread, exit;
      g_hash_table_iter_init (&it, last_exit);
      while (g_hash_table_iter_next (&it, &thread, &exit))
        if (GPOINTER_TO_UINT (thread) != c->thread && *(guint64 *) exit > c->enter)
          {
            g_hash_table_add (concurrent, thread);
            g_hash_table_add (concurrent, GUINT_TO_POINTER (c->thread));
          }
      guint64 *mine = g_hash_table_lookup (last_exit, GUINT_TO_POINTER (c->thread));
      if (mine == NULL)
        {
          mine = g_new0 (guint64, 1);
          g_hash_table_insert (last_exit, GUINT_TO_POINTER (c->thread), mine);
        }
      *mine = MAX (*mine, c->exit);
    }
  return concurrent;
}

/* Whether `thread`'s calls stand at the top level (record_threads.h). */
static gboolean
at_top (GHashTable *concurrent, guint top, guint thread)
{
  return thread == top || !g_hash_table_contains (concurrent, GUINT_TO_POINTER (thread));
}

guint
record_threads_n_blocks (const RecordLog *log, const guint *order)
{
  g_return_val_if_fail (log != NULL, 0);
  g_autoptr (GHashTable) concurrent = concurrent_threads (log, order);
  guint top = record_threads_first (log);
  return g_hash_table_size (concurrent) - g_hash_table_contains (concurrent, GUINT_TO_POINTER (top));
}

GHashTable *
record_threads_in_blocks (const RecordLog *log, const guint *order)
{
  GHashTable *concurrent = concurrent_threads (log, order);
  g_hash_table_remove (concurrent, GUINT_TO_POINTER (record_threads_first (log)));
  return concurrent;
}

/* The threads of blocks in the order they began, each with its calls and
 * its block's place (record_threads.h). */
static GArray *
other_threads (const RecordLog *log, const guint *order, const gboolean *is_op, guint top,
               GHashTable *concurrent)
{
  GArray *others = g_array_new (FALSE, FALSE, sizeof (OtherThread));
  g_autoptr (GHashTable) slot = g_hash_table_new (NULL, NULL); /* thread -> index + 1 */
  guint last_top = 0; /* the first thread's latest call so far, + 1 */
  for (guint k = 0; k < log->calls->len; k++)
    {
      const RecordCall *c = call_at (log, order[k]);
      if (at_top (concurrent, top, c->thread))
        {
          last_top = order[k] + 1;
          continue;
        }
      guint s = GPOINTER_TO_UINT (g_hash_table_lookup (slot, GUINT_TO_POINTER (c->thread)));
      if (s == 0)
        {
          const RecordCall *before = last_top > 0 ? call_at (log, last_top - 1) : NULL;
          OtherThread t = {
            .thread = c->thread, .calls = g_array_new (FALSE, FALSE, sizeof (guint)),
            .anchor = last_top,
            .inside = before != NULL && is_op[last_top - 1] && before->exit > c->enter,
          };
          g_array_append_val (others, t);
          s = others->len;
          g_hash_table_insert (slot, GUINT_TO_POINTER (c->thread), GUINT_TO_POINTER (s));
        }
      g_array_append_val (g_array_index (others, OtherThread, s - 1).calls, order[k]);
    }
  return others;
}

static void
add_step (GArray *steps, ThreadStepKind kind, guint call, guint thread, guint inside)
{
  ThreadStep step = { .kind = kind, .call = call, .thread = thread, .inside = inside };
  g_array_append_val (steps, step);
}

static void
add_block (GArray *steps, const OtherThread *t)
{
  guint first = g_array_index (t->calls, guint, 0);
  add_step (steps, THREAD_STEP_OPEN, first, t->thread, t->inside ? t->anchor : 0);
  for (guint i = 0; i < t->calls->len; i++)
    add_step (steps, THREAD_STEP_CALL, g_array_index (t->calls, guint, i), t->thread, 0);
  add_step (steps, THREAD_STEP_CLOSE, first, t->thread, 0);
}

GArray *
record_threads_plan (const RecordLog *log, const guint *order, const gboolean *is_op)
{
  g_return_val_if_fail (log != NULL, NULL);
  guint top = record_threads_first (log);
  GArray *steps = g_array_new (FALSE, FALSE, sizeof (ThreadStep));
  g_autoptr (GHashTable) concurrent = concurrent_threads (log, order);
  GArray *others = other_threads (log, order, is_op, top, concurrent);
  /* the threads began in the order of their places: (anchor, after) never goes back */
  guint next = 0;
  while (next < others->len && g_array_index (others, OtherThread, next).anchor == 0)
    add_block (steps, &g_array_index (others, OtherThread, next++));
  for (guint k = 0; k < log->calls->len; k++)
    {
      const RecordCall *c = call_at (log, order[k]);
      if (!at_top (concurrent, top, c->thread))
        continue;
      const OtherThread *t;
      while (next < others->len && (t = &g_array_index (others, OtherThread, next))->anchor
                                   == order[k] + 1 && t->inside)
        add_block (steps, &g_array_index (others, OtherThread, next++));
      add_step (steps, THREAD_STEP_CALL, order[k], top, 0);
      while (next < others->len && g_array_index (others, OtherThread, next).anchor == order[k] + 1)
        add_block (steps, &g_array_index (others, OtherThread, next++));
    }
  for (guint i = 0; i < others->len; i++)
    g_array_unref (g_array_index (others, OtherThread, i).calls);
  g_array_unref (others);
  return steps;
}
