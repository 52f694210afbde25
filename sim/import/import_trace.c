/* import_trace.c: a trace's calls and GPU work as a recorded program (import_trace.h). */
#include <string.h>
#include "import_idle.h"
#include "import_infer.h"
#include "import_trace.h"
#include "sim/formats/units.h"
#include "sim/recorded/record_call.h"

G_DEFINE_QUARK (streamsim-import-error-quark, import_error)

/* Stream handles in the log: the profiler's id, above the runtime's
 * special handles (record_log.h). */
#define STREAM_HANDLE(id) (G_GUINT64_CONSTANT (0x10000) + (guint64) (id))

ImportTrace *
import_trace_new (const char *path, const char *format)
{
  ImportTrace *t = g_new0 (ImportTrace, 1);
  t->path = g_strdup (path);
  t->format = format;
  t->calls = g_array_new (FALSE, FALSE, sizeof (ImportCall));
  t->works = g_array_new (FALSE, FALSE, sizeof (ImportWork));
  t->syncs = g_array_new (FALSE, FALSE, sizeof (ImportSync));
  t->records = g_array_new (FALSE, FALSE, sizeof (ImportRecord));
  t->ranges = g_array_new (FALSE, FALSE, sizeof (ImportRange));
  t->strings = g_string_chunk_new (4096);
  return t;
}

void
import_trace_free (ImportTrace *trace)
{
  if (trace == NULL)
    return;
  g_free (trace->path);
  g_array_unref (trace->calls);
  g_array_unref (trace->works);
  g_array_unref (trace->syncs);
  g_array_unref (trace->records);
  g_array_unref (trace->ranges);
  g_string_chunk_free (trace->strings);
  g_free (trace->region_name);
  g_free (trace);
}

const char *
import_trace_name (ImportTrace *trace, const char *name)
{
  /* "_v" and four or more digits: the CUDA version that introduced it */
  const char *v = strrchr (name, '_');
  gsize n = strlen (name);
  if (v != NULL && v[1] == 'v' && strlen (v + 2) >= 4 && strspn (v + 2, "0123456789") == strlen (v + 2))
    n = (gsize) (v - name);
  return g_string_chunk_insert_len (trace->strings, name, (gssize) n);
}

gboolean
import_trace_select_region (ImportTrace *trace, const char *name)
{
  g_return_val_if_fail (trace != NULL && name != NULL, FALSE);
  guint found = 0;
  for (guint i = 0; i < trace->ranges->len; i++)
    {
      const ImportRange *r = &g_array_index (trace->ranges, ImportRange, i);
      if (strcmp (r->name, name) != 0)
        continue;
      trace->region_start = found == 0 ? r->start : MIN (trace->region_start, r->start);
      trace->region_end = found == 0 ? r->end : MAX (trace->region_end, r->end);
      found++;
    }
  if (found == 0)
    return FALSE;
  trace->region = TRUE;
  g_free (trace->region_name);
  trace->region_name = found == 1 ? g_strdup (name)
                                  : g_strdup_printf ("%s (%u of them, the first's start to the "
                                                     "last's end)", name, found);
  return TRUE;
}

void
import_counts_clear (ImportCounts *counts)
{
  if (counts->stream_ids != NULL)
    g_ptr_array_unref (counts->stream_ids);
  memset (counts, 0, sizeof *counts);
}

static int
compare_enter (gconstpointer a, gconstpointer b, gpointer calls)
{
  const ImportCall *x = &g_array_index ((GArray *) calls, ImportCall, *(const guint *) a);
  const ImportCall *y = &g_array_index ((GArray *) calls, ImportCall, *(const guint *) b);
  if (x->enter != y->enter)
    return x->enter < y->enter ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

/* The calls to import, in the order they began: those that began in the
 * region (all without one). */
static GArray *
calls_in_order (const ImportTrace *t, ImportCounts *counts)
{
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < t->calls->len; i++)
    {
      const ImportCall *c = &g_array_index (t->calls, ImportCall, i);
      if (t->region && (c->enter < t->region_start || c->enter > t->region_end))
        counts->n_outside++;
      else
        g_array_append_val (order, i);
    }
  g_array_sort_with_data (order, compare_enter, t->calls);
  return order;
}

/* Per call of `order`, the runtime call it was made inside (its index in
 * `order` + 1), for driver calls that began and ended inside a runtime
 * call of their thread; 0 for the others. */
static guint *
find_links (const ImportTrace *t, const GArray *order)
{
  guint *inside = g_new0 (guint, MAX (order->len, 1));
  g_autoptr (GHashTable) open = g_hash_table_new (NULL, NULL); /* thread -> runtime call + 1 */
  for (guint k = 0; k < order->len; k++)
    {
      const ImportCall *c = &g_array_index (t->calls, ImportCall, g_array_index (order, guint, k));
      if (!record_call_is_driver (c->name))
        {
          g_hash_table_insert (open, GUINT_TO_POINTER (c->thread), GUINT_TO_POINTER (k + 1));
          continue;
        }
      guint r = GPOINTER_TO_UINT (g_hash_table_lookup (open, GUINT_TO_POINTER (c->thread)));
      if (r == 0)
        continue;
      const ImportCall *outer = &g_array_index (t->calls, ImportCall,
                                                g_array_index (order, guint, r - 1));
      if (c->enter >= outer->enter && c->exit <= outer->exit)
        inside[k] = r;
    }
  return inside;
}

/* A call's GPU work: the records of its correlation and of the driver
 * calls made inside it. */
typedef struct
{
  GArray *works;        /* indices into the trace's works */
  gint64 stream;
  gboolean timed;
  guint64 start, end, bytes;
  guint copy_kind;
} CallWork;

static void
add_work (CallWork *w, const ImportTrace *t, guint index)
{
  const ImportWork *r = &g_array_index (t->works, ImportWork, index);
  if (w->works->len == 0)
    {
      w->stream = r->stream;
      w->copy_kind = r->kind == RECORD_WORK_COPY ? (guint) r->a[1] : 0;
    }
  g_array_append_val (w->works, index);
  w->start = w->timed ? MIN (w->start, r->start) : r->start;
  w->end = w->timed ? MAX (w->end, r->end) : r->end;
  w->timed = TRUE;
  if (r->kind != RECORD_WORK_KERNEL)
    w->bytes += r->a[0];
}

/* cudaMemcpyKind for CUPTI's copy kind; FALSE for the kinds the language
 * has no copy for (arrays, peers, unknown). */
static gboolean
memcpy_kind (guint copy_kind, guint64 *kind)
{
  switch (copy_kind)
    {
    case RECORD_COPY_HTOD: *kind = RECORD_MEMCPY_H2D; return TRUE;
    case RECORD_COPY_DTOH: *kind = RECORD_MEMCPY_D2H; return TRUE;
    case RECORD_COPY_DTOD: *kind = RECORD_MEMCPY_D2D; return TRUE;
    case RECORD_COPY_HTOH: *kind = RECORD_MEMCPY_H2H; return TRUE;
    default: return FALSE;
    }
}

static const char *const copy_kind_names[] = { "an unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                               "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };

/* The legacy default stream: where the runtime ran a blocking copy or a
 * synchronous memset (the stream most of them ran in); IMPORT_NONE where
 * there is none. */
static gint64
find_legacy (const ImportTrace *t, const GArray *order, const CallWork *work)
{
  g_autoptr (GHashTable) votes = g_hash_table_new (NULL, NULL);
  gint64 best = IMPORT_NONE;
  guint most = 0;
  for (guint k = 0; k < order->len; k++)
    {
      const ImportCall *c = &g_array_index (t->calls, ImportCall, g_array_index (order, guint, k));
      gboolean per_thread;
      RecordCallKind kind = record_call_kind (c->name, &per_thread);
      gboolean blocking = kind == RECORD_CALL_MEMCPY
                          || (kind == RECORD_CALL_MEMSET && strstr (c->name, "Async") == NULL);
      if (!blocking || per_thread || work[k].works->len == 0)
        continue;
      gpointer key = GINT_TO_POINTER ((gint) work[k].stream);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (votes, key)) + 1;
      g_hash_table_insert (votes, key, GUINT_TO_POINTER (n));
      if (n > most || (n == most && work[k].stream < best))
        {
          most = n;
          best = work[k].stream;
        }
    }
  return best;
}

typedef struct
{
  const ImportTrace *t;
  RecordLog *log;
  ImportCounts *counts;
  GHashTable *declared;  /* profiler stream id -> TRUE */
  GArray *creates;       /* RecordCall: a stream declared in the order of its first use */
  guint64 first_enter;
  guint first_thread;
} Builder;

/* The stream handle of a query imported from a trace (below). */
#define IMPORT_QUERY_STREAM G_GUINT64_CONSTANT (0xfffffffffffffff0)

static guint64
stream_handle (Builder *b, gint64 stream)
{
  if (stream == IMPORT_NONE || stream == b->counts->legacy)
    return RECORD_STREAM_LEGACY;
  if (!g_hash_table_contains (b->declared, GINT_TO_POINTER ((gint) stream)))
    {
      g_hash_table_add (b->declared, GINT_TO_POINTER ((gint) stream));
      g_ptr_array_add (b->counts->stream_ids, GINT_TO_POINTER ((gint) stream));
      RecordCall c = { .thread = b->first_thread, .name = "cudaStreamCreate",
                       .enter = b->first_enter, .exit = b->first_enter,
                       .stream = STREAM_HANDLE (stream) };
      g_array_append_val (b->creates, c);
      b->counts->n_streams++;
    }
  return STREAM_HANDLE (stream);
}

RecordLog *
import_trace_log (const ImportTrace *t, ImportCounts *counts)
{
  g_return_val_if_fail (t != NULL && counts != NULL, NULL);
  memset (counts, 0, sizeof *counts);
  counts->n_calls = t->calls->len;
  counts->legacy = IMPORT_NONE;
  counts->stream_ids = g_ptr_array_new ();
  g_autoptr (GArray) order = calls_in_order (t, counts);
  guint n = order->len;
  g_autofree guint *inside = find_links (t, order);

  /* works by correlation */
  g_autoptr (GHashTable) first = g_hash_table_new (NULL, NULL); /* corr -> work index + 1 */
  g_autofree guint *next = g_new0 (guint, MAX (t->works->len, 1));
  for (guint j = t->works->len; j > 0; j--)
    {
      const ImportWork *w = &g_array_index (t->works, ImportWork, j - 1);
      gpointer key = GUINT_TO_POINTER (w->correlation);
      next[j - 1] = GPOINTER_TO_UINT (g_hash_table_lookup (first, key));
      g_hash_table_insert (first, key, GUINT_TO_POINTER (j));
    }
  CallWork *work = g_new0 (CallWork, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      work[k].works = g_array_new (FALSE, FALSE, sizeof (guint));
      work[k].stream = IMPORT_NONE;
    }
  for (guint k = 0; k < n; k++)
    {
      const ImportCall *c = &g_array_index (t->calls, ImportCall, g_array_index (order, guint, k));
      CallWork *w = &work[inside[k] > 0 ? inside[k] - 1 : k];
      gpointer key = GUINT_TO_POINTER (c->correlation);
      for (guint j = GPOINTER_TO_UINT (g_hash_table_lookup (first, key));
           j > 0 && c->correlation != 0; j = next[j - 1])
        add_work (w, t, j - 1);
    }
  counts->legacy = find_legacy (t, order, work);

  /* the calls as the inference sees them */
  g_autofree InferCall *infer = g_new0 (InferCall, MAX (n, 1));
  gint64 fallback = IMPORT_NONE;
  for (guint k = 0; k < n; k++)
    {
      const ImportCall *c = &g_array_index (t->calls, ImportCall, g_array_index (order, guint, k));
      gboolean per_thread;
      infer[k] = (InferCall) { .kind = inside[k] > 0 ? RECORD_CALL_HOST
                                                     : record_call_kind (c->name, &per_thread),
                               .thread = c->thread, .enter = c->enter,
                               .exit = MAX (c->exit, c->enter),
                               .correlation = c->correlation, .stream = work[k].stream,
                               .timed = work[k].timed, .start = work[k].start, .end = work[k].end };
      if (fallback == IMPORT_NONE)
        fallback = work[k].stream;
    }
  g_autofree InferTarget *target = import_infer_targets (infer, n, t, fallback);
  ImportIdle idle = import_idle_find (infer, n, IMPORT_IDLE_MIN_NS);
  counts->n_idle = idle.n;
  counts->idle_ns = idle.total_ns;

  RecordLog *log = record_log_new (t->path);
  Builder b = { .t = t, .log = log, .counts = counts,
                .declared = g_hash_table_new (NULL, NULL),
                .creates = g_array_new (FALSE, FALSE, sizeof (RecordCall)) };
  if (n > 0)
    {
      const ImportCall *c0 = &g_array_index (t->calls, ImportCall, g_array_index (order, guint, 0));
      b.first_enter = c0->enter;
      b.first_thread = c0->thread;
    }
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (RecordCall));
  for (guint k = 0; k < n; k++)
    {
      const ImportCall *c = &g_array_index (t->calls, ImportCall, g_array_index (order, guint, k));
      if (inside[k] > 0)
        {
          const ImportCall *outer = &g_array_index (t->calls, ImportCall,
                                                    g_array_index (order, guint, inside[k] - 1));
          g_hash_table_insert (log->links, GUINT_TO_POINTER (c->correlation),
                               GUINT_TO_POINTER (outer->correlation));
          counts->n_linked++;
          continue;
        }
      const CallWork *w = &work[k];
      const InferTarget *x = &target[k];
      RecordCall rc = { .line = g_array_index (order, guint, k) + 1, .thread = c->thread,
                        .name = c->name, .enter = c->enter, .exit = c->exit,
                        .correlation = c->correlation };
      guint64 kind;
      switch (infer[k].kind)
        {
        case RECORD_CALL_STREAM_CREATE:
          continue; /* host time: its stream is not known */
        case RECORD_CALL_KERNEL:
        case RECORD_CALL_COPY:
        case RECORD_CALL_MEMCPY:
        case RECORD_CALL_MEMSET:
          if (w->works->len == 0)
            {
              counts->n_no_work++;
              continue;
            }
          rc.stream = stream_handle (&b, w->stream);
          if (infer[k].kind == RECORD_CALL_KERNEL)
            {
              const ImportWork *kw = &g_array_index (t->works, ImportWork,
                                                     g_array_index (w->works, guint, 0));
              memcpy (rc.a, kw->a, 3 * sizeof (guint64));
            }
          else if (infer[k].kind != RECORD_CALL_MEMSET && !memcpy_kind (w->copy_kind, &kind))
            {
              /* a copy the language has no statement for: a `not modelled` comment */
              guint named = MIN (w->copy_kind, G_N_ELEMENTS (copy_kind_names) - 1);
              g_autofree char *name = g_strdup_printf ("%s (%s copy)", c->name,
                                                       copy_kind_names[named]);
              rc.name = g_string_chunk_insert (log->strings, name);
              rc.a[0] = w->bytes;
            }
          else
            {
              rc.a[0] = w->bytes;
              rc.a[1] = infer[k].kind == RECORD_CALL_MEMSET ? 0 : kind;
            }
          break;
        case RECORD_CALL_WAIT:
          if (x->record_before != IMPORT_NONE)
            {
              /* the record the wait's event is inferred to be, right before it */
              RecordCall record = { .line = rc.line, .thread = c->thread,
                                    .name = "cudaEventRecord", .enter = c->enter,
                                    .exit = c->enter,
                                    .stream = stream_handle (&b, x->record_before),
                                    .event = x->event };
              g_array_append_val (calls, record);
              counts->n_record_added++;
            }
          G_GNUC_FALLTHROUGH;
        case RECORD_CALL_RECORD:
          rc.stream = stream_handle (&b, x->stream);
          rc.event = x->event;
          break;
        case RECORD_CALL_SYNC_STREAM:
        case RECORD_CALL_HOSTFN:
          rc.stream = stream_handle (&b, x->stream);
          break;
        case RECORD_CALL_SYNC_EVENT:
          rc.event = x->event;
          break;
        /* A 2D or 3D copy (cudaMemcpy2DAsync, ...) stays here: neither
         * Kineto's events nor nsys's CUPTI_ACTIVITY_KIND_MEMCPY rows give its
         * height, so its A2 (rows) is 0 and it is a `# not modelled` comment
         * with its GPU time (record_call.h), not a copy of the wrong shape. */
        case RECORD_CALL_NOT_MODELLED:
        case RECORD_CALL_GRAPH:
          if (w->works->len > 0)
            rc.stream = stream_handle (&b, w->stream);
          break;
        default:
          {
            /* a trace does not say which stream or event a query asked of:
             * a handle no stream has, so that no run of queries reads as a
             * loop that waited (record_polls.c) */
            gboolean event;
            if (record_call_is_query (c->name, &event))
              rc.stream = IMPORT_QUERY_STREAM;
          }
          break;
        }
      counts->n_stream_inferred += x->stream_inferred;
      counts->n_event_inferred += x->event_inferred;
      g_array_append_val (calls, rc);
      for (guint i = 0; i < w->works->len; i++)
        {
          guint index = g_array_index (w->works, guint, i);
          const ImportWork *iw = &g_array_index (t->works, ImportWork, index);
          RecordWork rw = { .kind = iw->kind, .correlation = iw->correlation, .start = iw->start,
                            .end = iw->end,
                            .name = g_string_chunk_insert_const (log->strings, iw->name) };
          memcpy (rw.a, iw->a, sizeof rw.a);
          g_array_append_val (log->works, rw);
        }
    }
  /* the streams' declarations first, as a recording's creations come first */
  g_array_append_vals (log->calls, b.creates->data, b.creates->len);
  g_array_append_vals (log->calls, calls->data, calls->len);
  for (guint k = 0; k < n; k++)
    g_array_unref (work[k].works);
  g_free (work);
  g_hash_table_unref (b.declared);
  g_array_unref (b.creates);
  return log;
}

void
import_trace_locate_error (const ImportTrace *t, GError *error)
{
  if (error == NULL || error->domain != RECORD_ERROR)
    return;
  /* "PATH:N:1: what", N a call of the trace, counted from 1 */
  gsize len = strlen (t->path);
  const char *m = error->message;
  if (strncmp (m, t->path, len) != 0 || m[len] != ':')
    return;
  char *after = NULL;
  guint64 n = g_ascii_strtoull (m + len + 1, &after, 10);
  if (after == m + len + 1 || n == 0 || n > t->calls->len || strncmp (after, ":1: ", 4) != 0)
    return;
  const ImportCall *c = &g_array_index (t->calls, ImportCall, n - 1);
  char *located = c->table != NULL
                  ? g_strdup_printf ("%s: table %s row %u: %s", t->path, c->table, c->line, after + 4)
                  : g_strdup_printf ("%s:%u:%u: %s", t->path, c->line, c->column, after + 4);
  g_free (error->message);
  error->message = located;
}

char **
import_trace_header (const ImportTrace *t, const ImportCounts *counts)
{
  GPtrArray *lines = g_ptr_array_new ();
  g_ptr_array_add (lines, g_strdup_printf ("Imported by streamsim import from %s (%s).", t->path,
                                           t->format));
  if (t->region)
    {
      g_autofree char *length = units_format_time ((SimTime) (t->region_end - t->region_start));
      g_ptr_array_add (lines, g_strdup_printf ("Region %s (%s): the %u calls that began in it, "
                                               "%u others left out; time 0 is its start.",
                                               t->region_name, length,
                                               counts->n_calls - counts->n_outside,
                                               counts->n_outside));
    }
  GString *streams = g_string_new ("Streams are the trace's:");
  for (guint i = 0; i < counts->stream_ids->len; i++)
    g_string_append_printf (streams, "%s s%u is stream %d", i > 0 ? "," : "", i + 1,
                            GPOINTER_TO_INT (g_ptr_array_index (counts->stream_ids, i)));
  if (counts->legacy != IMPORT_NONE)
    g_string_append_printf (streams, "%s default is stream %" G_GINT64_FORMAT " (blocking copies "
                            "or memsets ran there)", counts->stream_ids->len > 0 ? "," : "",
                            counts->legacy);
  g_string_append (streams, "; their flags and priorities are not in the trace.");
  g_ptr_array_add (lines, g_string_free (streams, FALSE));
  if (counts->n_stream_inferred > 0 || counts->n_event_inferred > 0)
    g_ptr_array_add (lines, g_strdup_printf ("Inferred (the trace does not say them; "
                                             "sim/import/import_infer.h): the stream of %u records, "
                                             "waits, syncs or host functions, the event of %u "
                                             "waits or event syncs.", counts->n_stream_inferred,
                                             counts->n_event_inferred));
  if (counts->n_record_added > 0)
    g_ptr_array_add (lines, g_strdup_printf ("Event records added: %u, each right before a wait "
                                             "whose record the trace does not have, on the stream "
                                             "whose work ended last before the waiting stream's "
                                             "next work started (sim/import/import_infer.h).",
                                             counts->n_record_added));
  if (counts->n_idle > 0)
    {
      g_autofree char *total = units_format_time ((SimTime) counts->idle_ns);
      g_ptr_array_add (lines, g_strdup_printf ("Held by what the trace does not show: the GPU sat idle "
                                               "%s in %u stretch%s of 1 ms or more while work "
                                               "submitted before waited (sim/import/"
                                               "import_idle.h); nothing here holds that work, so "
                                               "predictions come out short by about as much.",
                                               total, counts->n_idle,
                                               counts->n_idle == 1 ? "" : "es"));
    }
  if (counts->n_no_work > 0)
    g_ptr_array_add (lines, g_strdup_printf ("Left out: %u launches, copies or memsets whose GPU "
                                             "work is not in the trace (their stream and shape are "
                                             "unknown).", counts->n_no_work));
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}
