/* record_capture.c: the calls stream capture took into graphs (record_capture.h). */
#include "record_capture.h"

static gboolean
has (GHashTable *set, guint64 handle)
{
  return g_hash_table_contains (set, &handle);
}

static void
add (GHashTable *set, guint64 handle)
{
  if (!has (set, handle))
    g_hash_table_add (set, g_memdup2 (&handle, sizeof handle));
}

/* One capture: the calls order[first..last], from a begin to the end that
 * closes every capture open in it. */
static void
find_in_window (const RecordLog *log, const guint *order, guint first, guint last,
                const CaptureRole *role, const gboolean *timed, gboolean *captured)
{
  g_autoptr (GHashTable) streams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) events = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  /* The legacy stream cannot capture, so a handle of 0 names no stream
   * here: a log that did not keep the argument. */
  for (guint k = first; k <= last; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (log->calls, RecordCall, i);
      if (c->stream != 0
          && (role[i] == CAPTURE_ROLE_BEGIN || (role[i] == CAPTURE_ROLE_WORK && !timed[i])))
        add (streams, c->stream);
    }
  /* In the order the calls began, records and waits carry the capture to
   * other streams: the event a capturing stream records, and the stream
   * that waits for it. */
  for (guint k = first; k <= last; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (log->calls, RecordCall, i);
      switch (role[i])
        {
        case CAPTURE_ROLE_WORK:
        case CAPTURE_ROLE_OTHER_WORK:
          /* work CUPTI timed ran, whatever its stream */
          captured[i] = !timed[i] && (c->stream == 0 || has (streams, c->stream));
          break;
        case CAPTURE_ROLE_RECORD:
          captured[i] = has (streams, c->stream);
          if (captured[i])
            add (events, c->event);
          break;
        case CAPTURE_ROLE_WAIT:
          captured[i] = has (streams, c->stream) || has (events, c->event);
          if (captured[i] && c->stream != 0)
            add (streams, c->stream);
          break;
        default:
          break;
        }
    }
}

gboolean *
record_capture_find (const RecordLog *log, const guint *order, const CaptureRole *role,
                     const gboolean *timed)
{
  guint n = log->calls->len;
  gboolean *captured = g_new0 (gboolean, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      if (role[order[k]] != CAPTURE_ROLE_BEGIN)
        continue;
      guint open = 0, last = k;
      for (; last < n; last++)
        {
          CaptureRole r = role[order[last]];
          open += r == CAPTURE_ROLE_BEGIN;
          open -= r == CAPTURE_ROLE_END && open > 0;
          if (open == 0)
            break;
        }
      last = MIN (last, n - 1);
      find_in_window (log, order, k, last, role, timed, captured);
      k = last;
    }
  return captured;
}
