/* record_polls.c: a loop of cudaStreamQuery or cudaEventQuery until the work was done, read as a `poll`.
 *
 * A program that waits by polling (`while (cudaEventQuery (e) ==
 * cudaErrorNotReady) work ();`) makes a run of queries of one stream or
 * event, with no other call of its thread between them but calls that
 * neither give the GPU work nor wait for it (PyTorch asks cudaGetDevice and
 * cudaGetLastError around each of its queries). The log keeps no
 * query's result, so the run is a loop that waited for the work when the
 * work it asked of (found as for a synchronize, record_inside.h) ended
 * after the first query began and no later than the last one returned:
 * the last one found it done. Such a run is written as one `poll` at its
 * first query, ending where the last returned, with the `every` that makes
 * the model's loop go round at the recorded loop's pace (poll_every); the
 * model then decides when the loop ends.
 * A lone query, a run whose work was done before it began or was still
 * running after it, stays host time: what the program did then depended on
 * the answer, which the log does not hold. */
#include "record_builder.h"

typedef struct
{
  gboolean event;
  guint64 handle;       /* the stream key or the event */
  GArray *calls;        /* guint: the run's queries, in order; empty: no run */
  GArray *between;      /* guint: the host calls among them */
} Run;

static gint
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return (x > y) - (x < y);
}

/* The host time between two queries of the run that makes the model's
 * loop go round as fast as the recorded one did: the lower median time
 * from one query's start to the next's, less what the profile charges a
 * query (the recorder's own time at each call is in the loop's period as
 * in the queries' own). */
static guint64
poll_every (const Builder *b, const GArray *calls)
{
  g_autoptr (GArray) periods = g_array_sized_new (FALSE, FALSE, sizeof (guint64), calls->len);
  for (guint k = 1; k < calls->len; k++)
    {
      const RecordCall *prev = &g_array_index (b->log->calls, RecordCall, g_array_index (calls, guint, k - 1));
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, g_array_index (calls, guint, k));
      guint64 period = c->enter > prev->enter ? c->enter - prev->enter : 0;
      g_array_append_val (periods, period);
    }
  g_array_sort (periods, compare_u64);
  guint64 m = g_array_index (periods, guint64, (periods->len - 1) / 2);
  guint64 query = b->opt->profile != NULL ? (guint64) gpu_profile_query_cost (b->opt->profile) : 0;
  return m > query ? m - query : 0;
}

static void
close_run (Builder *b, Run *run)
{
  GArray *calls = run->calls;
  if (calls->len >= 2)
    {
      guint first_i = g_array_index (calls, guint, 0);
      const RecordCall *first = &g_array_index (b->log->calls, RecordCall, first_i);
      const RecordCall *last = &g_array_index (b->log->calls, RecordCall,
                                               g_array_index (calls, guint, calls->len - 1));
      guint64 ready = b->inside[first_i].ready;
      guint64 end = MAX (last->exit, last->enter);
      if (ready > first->enter && ready <= end)
        {
          CallWork *w = &b->work[first_i];
          w->poll_end = end;
          w->poll_every = poll_every (b, calls);
          w->poll_queries = calls->len;
          for (guint k = 1; k < calls->len; k++)
            b->work[g_array_index (calls, guint, k)].polled = TRUE;
          /* the host calls inside the loop, not those after its last query */
          for (guint k = 0; k < run->between->len; k++)
            {
              guint j = g_array_index (run->between, guint, k);
              if (g_array_index (b->log->calls, RecordCall, j).enter < last->enter)
                b->work[j].polled = TRUE;
            }
          /* the loop's time is the model's */
          b->inside[first_i].before = b->inside[first_i].after = 0;
          b->inside[first_i].idle = FALSE;
        }
    }
  g_array_set_size (calls, 0);
  g_array_set_size (run->between, 0);
}

static void
free_run (gpointer data)
{
  Run *run = data;
  g_array_unref (run->calls);
  g_array_unref (run->between);
  g_free (run);
}

void
builder_find_polls (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  g_autoptr (GHashTable) runs = g_hash_table_new_full (NULL, NULL, NULL, free_run); /* thread -> Run */
  for (guint k = 0; k < n; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      Run *run = g_hash_table_lookup (runs, GUINT_TO_POINTER (c->thread));
      if (run == NULL)
        {
          run = g_new0 (Run, 1);
          run->calls = g_array_new (FALSE, FALSE, sizeof (guint));
          run->between = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (runs, GUINT_TO_POINTER (c->thread), run);
        }
      gboolean event, per_thread;
      RecordCallKind kind = record_call_kind_of (c, &per_thread);
      if (b->captured[i] || !record_call_is_query (c->name, &event))
        {
          if (kind == RECORD_CALL_HOST && !b->captured[i] && run->calls->len > 0)
            g_array_append_val (run->between, i);
          else
            close_run (b, run);
          continue;
        }
      guint64 handle = event ? c->event : builder_stream_key (b, c, RECORD_CALL_HOST, per_thread);
      if (run->calls->len == 0 || run->event != event || run->handle != handle)
        {
          close_run (b, run);
          run->event = event;
          run->handle = handle;
        }
      g_array_append_val (run->calls, i);
    }
  GHashTableIter it;
  gpointer run;
  g_hash_table_iter_init (&it, runs);
  while (g_hash_table_iter_next (&it, NULL, &run))
    close_run (b, run);
}

guint64
builder_call_exit (const RecordCall *c, const CallWork *w)
{
  return w->poll_end > 0 ? w->poll_end : MAX (c->exit, c->enter);
}
