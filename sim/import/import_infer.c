/* import_infer.c: records', waits' and synchronizes' streams and events, from the trace or inferred (import_infer.h). */
#include "import_infer.h"

#define MAX_CANDIDATES 1024

/* A record as later calls see it. */
typedef struct
{
  guint call;
  guint thread;
  gint64 stream;
  guint64 event;
  guint64 completes;    /* when the work before it on its stream had ended */
} Seen;

/* Stream-keyed tables: the profiler's ids are small integers, -1 none. */
static gpointer
key (gint64 stream)
{
  return GINT_TO_POINTER ((gint) stream + 2);
}

/* The stream its thread issued to last before each call, and next after
 * it; IMPORT_NONE where there is none. */
static void
thread_streams (const InferCall *calls, guint n, gint64 *prev, gint64 *next)
{
  g_autoptr (GHashTable) last = g_hash_table_new (NULL, NULL);
  for (guint k = 0; k < n; k++)
    {
      gpointer found;
      prev[k] = g_hash_table_lookup_extended (last, GUINT_TO_POINTER (calls[k].thread), NULL, &found)
                ? (gint64) GPOINTER_TO_INT (found) - 2 : IMPORT_NONE;
      if (calls[k].stream != IMPORT_NONE)
        g_hash_table_insert (last, GUINT_TO_POINTER (calls[k].thread), key (calls[k].stream));
    }
  g_hash_table_remove_all (last);
  for (guint k = n; k > 0; k--)
    {
      gpointer found;
      next[k - 1] = g_hash_table_lookup_extended (last, GUINT_TO_POINTER (calls[k - 1].thread),
                                                  NULL, &found)
                    ? (gint64) GPOINTER_TO_INT (found) - 2 : IMPORT_NONE;
      if (calls[k - 1].stream != IMPORT_NONE)
        g_hash_table_insert (last, GUINT_TO_POINTER (calls[k - 1].thread), key (calls[k - 1].stream));
    }
}

static gint64
first_of (gint64 a, gint64 b, gint64 c)
{
  return a != IMPORT_NONE ? a : b != IMPORT_NONE ? b : c;
}

/* A record's stream and event as the trace gives them: its event record,
 * else what a sync that waited for it says. */
static gboolean
traced_record (GHashTable *records, GHashTable *waited, guint32 corr, gint64 *stream,
               gint64 *event)
{
  const ImportRecord *r = g_hash_table_lookup (records, GUINT_TO_POINTER (corr));
  if (r != NULL && r->stream != IMPORT_NONE)
    {
      *stream = r->stream;
      *event = r->event;
      return TRUE;
    }
  const ImportSync *s = g_hash_table_lookup (waited, GUINT_TO_POINTER (corr));
  if (s != NULL && s->record_stream != IMPORT_NONE)
    {
      *stream = s->record_stream;
      *event = s->event;
      return TRUE;
    }
  return FALSE;
}

/* A wait's or an event sync's event as the trace gives it: the record it
 * names (one outside the trace: an event not recorded here), else its
 * event id where a record before it had that id; FALSE where the trace
 * gives neither. */
static gboolean
traced_event (const ImportSync *s, GHashTable *record_keys, GHashTable *ids, guint k,
              guint64 *event)
{
  if (s->record != 0)
    {
      gpointer found = g_hash_table_lookup (record_keys, GUINT_TO_POINTER (s->record));
      *event = found != NULL ? *(const guint64 *) found : IMPORT_EVENT_UNRECORDED (k);
      return TRUE;
    }
  if (s->event != IMPORT_NONE && g_hash_table_contains (ids, GUINT_TO_POINTER ((guint) s->event)))
    {
      *event = IMPORT_EVENT_ID (s->event);
      return TRUE;
    }
  return FALSE;
}

/* The latest-completing record of `seen[0..n)` not on `stream`, among those
 * that completed within (after, by]; or where none did, and `latest` is
 * set, the one issued last (of `thread` when it is not 0). NULL: none. */
static const Seen *
pick (const Seen *seen, guint n, gint64 stream, guint64 after, guint64 by, gboolean latest,
      guint thread)
{
  const Seen *best = NULL, *last = NULL;
  for (guint i = n; i > 0 && n - i < MAX_CANDIDATES; i--)
    {
      const Seen *s = &seen[i - 1];
      if (stream != IMPORT_NONE && s->stream == stream)
        continue;
      if (last == NULL && (thread == 0 || s->thread == thread))
        last = s;
      if (s->completes > after && s->completes <= by
          && (best == NULL || s->completes > best->completes))
        best = s;
    }
  return best != NULL ? best : latest ? last : NULL;
}

/* A stream's latest end of the work issued to it so far, as a wait saw it. */
typedef struct
{
  gint64 stream;
  guint64 end;
} StreamEnd;

/* Of `ends`' entries [from, from + n), the stream other than `stream`
 * whose work ended last no later than `by` (the lower id where two ended
 * together); IMPORT_NONE where none did. */
static gint64
latest_ended (const GArray *ends, guint from, guint n, gint64 stream, guint64 by)
{
  gint64 best = IMPORT_NONE;
  guint64 best_end = 0;
  for (guint i = from; i < from + n; i++)
    {
      const StreamEnd *e = &g_array_index (ends, StreamEnd, i);
      if (e->stream != stream && e->end <= by
          && (best == IMPORT_NONE || e->end > best_end
              || (e->end == best_end && e->stream < best)))
        {
          best = e->stream;
          best_end = e->end;
        }
    }
  return best;
}

static gboolean
sync_fits (const ImportSync *s, RecordCallKind kind)
{
  return (kind == RECORD_CALL_WAIT && s->kind == IMPORT_SYNC_WAIT)
         || (kind == RECORD_CALL_SYNC_STREAM && s->kind == IMPORT_SYNC_STREAM)
         || (kind == RECORD_CALL_SYNC_EVENT && s->kind == IMPORT_SYNC_EVENT);
}

InferTarget *
import_infer_targets (const InferCall *calls, guint n, const ImportTrace *trace, gint64 fallback)
{
  InferTarget *t = g_new0 (InferTarget, MAX (n, 1));
  g_autofree gint64 *prev = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *next = g_new (gint64, MAX (n, 1));
  thread_streams (calls, n, prev, next);

  g_autoptr (GHashTable) syncs = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) waited = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < trace->syncs->len; i++)
    {
      const ImportSync *s = &g_array_index (trace->syncs, ImportSync, i);
      g_hash_table_insert (syncs, GUINT_TO_POINTER (s->correlation), (gpointer) s);
      if (s->record != 0)
        g_hash_table_insert (waited, GUINT_TO_POINTER (s->record), (gpointer) s);
    }
  g_autoptr (GHashTable) records = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < trace->records->len; i++)
    {
      const ImportRecord *r = &g_array_index (trace->records, ImportRecord, i);
      g_hash_table_insert (records, GUINT_TO_POINTER (r->correlation), (gpointer) r);
    }

  /* Pass 1, in the order the calls began: what the trace gives, the
   * streams inferred from the calls around, and the records' completions
   * and the stream and event syncs' choices, which need only what was
   * issued before them. */
  g_autoptr (GHashTable) record_keys = g_hash_table_new (NULL, NULL); /* corr -> &t[k].event */
  g_autoptr (GHashTable) ids = g_hash_table_new (NULL, NULL);         /* event ids recorded */
  g_autoptr (GHashTable) last_end = g_hash_table_new (NULL, NULL);    /* stream -> &calls[k].end */
  g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (Seen));
  g_autofree guint *seen_before = g_new0 (guint, MAX (n, 1));
  g_autofree gboolean *pending = g_new0 (gboolean, MAX (n, 1));
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (StreamEnd)); /* per pending wait */
  g_autofree guint *ends_from = g_new0 (guint, MAX (n, 1));
  g_autofree guint *ends_n = g_new0 (guint, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      const InferCall *c = &calls[k];
      InferTarget *x = &t[k];
      const ImportSync *s = g_hash_table_lookup (syncs, GUINT_TO_POINTER (c->correlation));
      /* a sync record of another kind than the call says nothing of it */
      if (s != NULL && !sync_fits (s, c->kind))
        s = NULL;
      x->stream = c->stream;
      x->record_before = IMPORT_NONE;
      switch (c->kind)
        {
        case RECORD_CALL_RECORD:
          {
            gint64 stream, event;
            if (traced_record (records, waited, c->correlation, &stream, &event))
              {
                x->stream = stream;
                x->event = event != IMPORT_NONE ? IMPORT_EVENT_ID (event) : IMPORT_EVENT_OF_RECORD (k);
                if (event != IMPORT_NONE)
                  g_hash_table_add (ids, GUINT_TO_POINTER ((guint) event));
              }
            else
              {
                x->stream = first_of (prev[k], next[k], fallback);
                x->stream_inferred = TRUE;
                x->event = IMPORT_EVENT_OF_RECORD (k);
              }
            g_hash_table_insert (record_keys, GUINT_TO_POINTER (c->correlation), &x->event);
            const guint64 *end = g_hash_table_lookup (last_end, key (x->stream));
            Seen r = { .call = k, .thread = c->thread, .stream = x->stream, .event = x->event,
                       .completes = end != NULL ? MAX (*end, c->enter) : c->enter };
            g_array_append_val (seen, r);
            break;
          }
        case RECORD_CALL_WAIT:
          if (s != NULL && s->stream != IMPORT_NONE)
            x->stream = s->stream;
          else
            {
              x->stream = first_of (next[k], prev[k], fallback);
              x->stream_inferred = TRUE;
            }
          if (s == NULL || !traced_event (s, record_keys, ids, k, &x->event))
            {
              pending[k] = TRUE;
              seen_before[k] = seen->len;
              ends_from[k] = ends->len;
              GHashTableIter it;
              gpointer stream, end;
              g_hash_table_iter_init (&it, last_end);
              while (g_hash_table_iter_next (&it, &stream, &end))
                {
                  StreamEnd e = { (gint64) GPOINTER_TO_INT (stream) - 2, *(const guint64 *) end };
                  g_array_append_val (ends, e);
                }
              ends_n[k] = ends->len - ends_from[k];
            }
          break;
        case RECORD_CALL_SYNC_STREAM:
          if (s != NULL && s->stream != IMPORT_NONE)
            x->stream = s->stream;
          else
            {
              /* the stream whose work ended last while the call waited */
              GHashTableIter it;
              gpointer stream, end;
              guint64 best = 0;
              x->stream = IMPORT_NONE;
              g_hash_table_iter_init (&it, last_end);
              while (g_hash_table_iter_next (&it, &stream, &end))
                {
                  guint64 e = *(const guint64 *) end;
                  gint64 id = (gint64) GPOINTER_TO_INT (stream) - 2;
                  if (e > c->enter && e <= c->exit
                      && (e > best || (e == best && id < x->stream)))
                    {
                      best = e;
                      x->stream = id;
                    }
                }
              if (x->stream == IMPORT_NONE)
                x->stream = first_of (prev[k], next[k], fallback);
              x->stream_inferred = TRUE;
            }
          break;
        case RECORD_CALL_SYNC_EVENT:
          if (s == NULL || !traced_event (s, record_keys, ids, k, &x->event))
            {
              const Seen *r = pick ((const Seen *) seen->data, seen->len, IMPORT_NONE, c->enter,
                                    c->exit, TRUE, c->thread);
              x->event = r != NULL ? r->event : IMPORT_EVENT_UNRECORDED (k);
              x->event_inferred = TRUE;
            }
          break;
        case RECORD_CALL_HOSTFN:
          x->stream = first_of (prev[k], next[k], fallback);
          x->stream_inferred = TRUE;
          break;
        default:
          break;
        }
      if (c->stream != IMPORT_NONE && c->timed)
        {
          guint64 *end = g_hash_table_lookup (last_end, key (c->stream));
          if (end == NULL || c->end > *end)
            g_hash_table_insert (last_end, key (c->stream), (gpointer) &c->end);
        }
    }

  /* Pass 2, backwards: each pending wait's record, from when the next work
   * of its stream started. */
  g_autoptr (GHashTable) next_start = g_hash_table_new (NULL, NULL); /* stream -> &calls[k].start */
  for (guint k = n; k > 0; k--)
    {
      const InferCall *c = &calls[k - 1];
      InferTarget *x = &t[k - 1];
      if (pending[k - 1])
        {
          const guint64 *start = g_hash_table_lookup (next_start, key (x->stream));
          const Seen *r = start != NULL
                          ? pick ((const Seen *) seen->data, seen_before[k - 1], x->stream, 0,
                                  *start, FALSE, 0)
                          : pick ((const Seen *) seen->data, seen_before[k - 1], x->stream,
                                  G_MAXUINT64, 0, TRUE, 0);
          x->event = r != NULL ? r->event : IMPORT_EVENT_UNRECORDED (k - 1);
          x->event_inferred = TRUE;
          if (r == NULL && start != NULL)
            {
              x->record_before = latest_ended (ends, ends_from[k - 1], ends_n[k - 1], x->stream,
                                               *start);
              if (x->record_before != IMPORT_NONE)
                x->event = IMPORT_EVENT_BEFORE_WAIT (k - 1);
            }
        }
      if (c->stream != IMPORT_NONE && c->timed)
        g_hash_table_insert (next_start, key (c->stream), (gpointer) &c->start);
    }
  return t;
}
