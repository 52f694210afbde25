/* import_kineto.c: Kineto's Chrome JSON read as a trace (import_kineto.h). */
#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "import_kineto.h"
#include "sim/core/located_error.h"

/* What an event of a category becomes. */
typedef enum
{
  CAT_SKIP,
  CAT_CALL,
  CAT_KERNEL,
  CAT_MEMCPY,
  CAT_MEMSET,
  CAT_SYNC,
  CAT_EVENT,
  CAT_ANNOTATION,
} Category;

/* The categories Kineto writes: ActivityType's names (libkineto's
 * ActivityType.h), "Trace" for its spans, and the capitalized names of
 * older releases. */
static const struct
{
  const char *name;
  Category what;
} categories[] = {
  { "cuda_runtime", CAT_CALL },
  { "cuda_driver", CAT_CALL },
  { "kernel", CAT_KERNEL },
  { "gpu_memcpy", CAT_MEMCPY },
  { "gpu_memset", CAT_MEMSET },
  { "cuda_sync", CAT_SYNC },
  { "cuda_event", CAT_EVENT },
  { "user_annotation", CAT_ANNOTATION },
  { "Runtime", CAT_CALL },
  { "Kernel", CAT_KERNEL },
  { "Memcpy", CAT_MEMCPY },
  { "Memset", CAT_MEMSET },
  { "cpu_op", CAT_SKIP },
  { "gpu_user_annotation", CAT_SKIP },
  { "external_correlation", CAT_SKIP },
  { "cpu_instant_event", CAT_SKIP },
  { "python_function", CAT_SKIP },
  { "overhead", CAT_SKIP },
  { "mtia_runtime", CAT_SKIP },
  { "mtia_ccp_events", CAT_SKIP },
  { "mtia_insight", CAT_SKIP },
  { "mtia_counters", CAT_SKIP },
  { "glow_runtime", CAT_SKIP },
  { "cuda_profiler_range", CAT_SKIP },
  { "hpu_op", CAT_SKIP },
  { "xpu_runtime", CAT_SKIP },
  { "xpu_driver", CAT_SKIP },
  { "collective_comm", CAT_SKIP },
  { "privateuse1_runtime", CAT_SKIP },
  { "privateuse1_driver", CAT_SKIP },
  { "xpu_scope_profiler", CAT_SKIP },
  { "xpu_sync", CAT_SKIP },
  { "hardware_counters", CAT_SKIP },
  { "Trace", CAT_SKIP },
  { "Operator", CAT_SKIP },
  { "Python", CAT_SKIP },
};

/* The Chrome trace event format's phases. */
static const char phases[] = "BEXiICMstfPONDbneRc";

/* CUPTI's copy and memory kinds as Kineto names them (cupti_strings.cpp),
 * in CUpti_ActivityMemcpyKind and CUpti_ActivityMemoryKind order. */
static const char *const copy_kinds[] = { "<unknown>", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                          "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };
static const char *const memory_kinds[] = { "Unknown", "Pageable", "Pinned", "Device", "Array",
                                            "Managed", "Device Static", "Managed Static" };

typedef struct
{
  const char *path;
  ImportTrace *t;
  GHashTable *where;    /* JsonObject -> its opening brace: line << 32 | column */
  GArray *open;         /* positions of the objects being parsed */
  GHashTable *threads;  /* a "tid" as text -> thread number */
  JsonObject *root;
  GError **error;
} Reader;

static void
object_start (JsonParser *parser, gpointer data)
{
  Reader *r = data;
  guint64 at = (guint64) json_parser_get_current_line (parser) << 32
               | json_parser_get_current_pos (parser);
  g_array_append_val (r->open, at);
}

static void
object_end (JsonParser *parser, JsonObject *object, gpointer data)
{
  Reader *r = data;
  (void) parser;
  if (r->open->len == 0)
    return;
  guint64 at = g_array_index (r->open, guint64, r->open->len - 1);
  g_array_set_size (r->open, r->open->len - 1);
  g_hash_table_insert (r->where, object, g_memdup2 (&at, sizeof at));
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader *r, JsonObject *o, const char *format, ...)
{
  const guint64 *at = o != NULL ? g_hash_table_lookup (r->where, o) : NULL;
  guint line = at != NULL ? (guint) (*at >> 32) : 1, column = at != NULL ? (guint) *at : 1;
  va_list args;
  va_start (args, format);
  located_error_setv (r->error, IMPORT_ERROR, IMPORT_ERROR_PARSE, r->path, MAX (line, 1),
                      MAX (column, 1), format, args);
  va_end (args);
  return FALSE;
}

static const char *
type_name (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  GType type = json_node_get_value_type (node);
  return type == G_TYPE_STRING ? "a string" : type == G_TYPE_BOOLEAN ? "a boolean" : "a number";
}

/* `o`'s member `name`, which must be there. */
static JsonNode *
need (Reader *r, JsonObject *o, const char *what, const char *name)
{
  JsonNode *node = json_object_get_member (o, name);
  if (node == NULL)
    fail (r, o, "%s needs \"%s\"", what, name);
  return node;
}

static gboolean
is_number (JsonNode *node)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

/* A whole number in [min, max]. */
static gboolean
get_int (Reader *r, JsonObject *o, const char *what, const char *name, gint64 min, gint64 max,
         gint64 *out)
{
  JsonNode *node = need (r, o, what, name);
  if (node == NULL)
    return FALSE;
  if (!is_number (node))
    return fail (r, o, "%s's \"%s\" is %s, not a number", what, name, type_name (node));
  double d = json_node_get_double (node);
  /* (double) max + 1 is exact where max is not: G_MAXINT64 rounds up to 2^63 */
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE
      && !(isfinite (d) && d == floor (d) && d >= (double) min && d < (double) max + 1.0))
    return fail (r, o, "%s's \"%s\" is %g, not a whole number from %" G_GINT64_FORMAT " to %"
                 G_GINT64_FORMAT, what, name, d, min, max);
  gint64 v = json_node_get_value_type (node) == G_TYPE_INT64 ? json_node_get_int (node)
                                                             : (gint64) d;
  if (v < min || v > max)
    return fail (r, o, "%s's \"%s\" is %" G_GINT64_FORMAT ", not a number from %" G_GINT64_FORMAT
                 " to %" G_GINT64_FORMAT, what, name, v, min, max);
  *out = v;
  return TRUE;
}

/* An optional whole number: `fallback` where it is missing. */
static gboolean
get_int_or (Reader *r, JsonObject *o, const char *what, const char *name, gint64 min, gint64 max,
            gint64 fallback, gint64 *out)
{
  if (!json_object_has_member (o, name))
    {
      *out = fallback;
      return TRUE;
    }
  return get_int (r, o, what, name, min, max, out);
}

/* A time in microseconds ("ts", "dur") as nanoseconds. */
static gboolean
get_time (Reader *r, JsonObject *o, const char *what, const char *name, guint64 *ns)
{
  JsonNode *node = need (r, o, what, name);
  if (node == NULL)
    return FALSE;
  if (!is_number (node))
    return fail (r, o, "%s's \"%s\" is %s, not a time in microseconds", what, name,
                 type_name (node));
  double us = json_node_get_double (node);
  /* past 2^62 ns the model's times would overflow */
  if (!isfinite (us) || us < 0 || us > 4.6e15)
    return fail (r, o, "%s's \"%s\" is %g microseconds, not a time from 0 to 4.6e15", what,
                 name, us);
  *ns = json_node_get_value_type (node) == G_TYPE_INT64 ? (guint64) json_node_get_int (node) * 1000
                                                        : (guint64) llround (us * 1000.0);
  return TRUE;
}

static const char *
get_string (Reader *r, JsonObject *o, const char *what, const char *name)
{
  JsonNode *node = need (r, o, what, name);
  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      fail (r, o, "%s's \"%s\" is %s, not a string", what, name, type_name (node));
      return NULL;
    }
  return json_node_get_string (node);
}

static JsonObject *
get_args (Reader *r, JsonObject *o, const char *what)
{
  JsonNode *node = need (r, o, what, "args");
  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (r, o, "%s's \"args\" is %s, not an object", what, type_name (node));
      return NULL;
    }
  return json_node_get_object (node);
}

/* A kernel's "grid" or "block": three dimensions, multiplied. */
static gboolean
get_dims (Reader *r, JsonObject *args, const char *name, guint64 *product)
{
  JsonNode *node = need (r, args, "a kernel", name);
  if (node == NULL)
    return FALSE;
  JsonArray *dims = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (dims == NULL || json_array_get_length (dims) != 3)
    return fail (r, args, "a kernel's \"%s\" is three numbers, [x, y, z]", name);
  *product = 1;
  for (guint i = 0; i < 3; i++)
    {
      JsonNode *d = json_array_get_element (dims, i);
      if (!is_number (d) || json_node_get_double (d) < 1 || json_node_get_double (d) > G_MAXINT32
          || json_node_get_double (d) != floor (json_node_get_double (d)))
        return fail (r, args, "a kernel's \"%s\" is three whole numbers from 1 to 2147483647",
                     name);
      *product *= (guint64) json_node_get_double (d);
      /* past it a product of three could wrap; no GPU runs so many */
      if (*product > G_GUINT64_CONSTANT (1) << 50)
        return fail (r, args, "a kernel's \"%s\" is larger than a GPU runs", name);
    }
  return TRUE;
}

/* A stream id: small, or -1 for none, which Kineto of 2023 wrote as
 * 4294967295 (CUPTI's 32-bit -1 printed unsigned) for a context's sync. */
static gboolean
get_stream (Reader *r, JsonObject *args, const char *what, const char *name, gint64 *stream)
{
  JsonNode *node = json_object_get_member (args, name);
  if (node != NULL && is_number (node) && json_node_get_value_type (node) == G_TYPE_INT64
      && json_node_get_int (node) == G_MAXUINT32)
    {
      *stream = IMPORT_NONE;
      return TRUE;
    }
  if (!get_int (r, args, what, name, -1, G_MAXINT32 / 2, stream))
    return FALSE;
  if (*stream < 0)
    *stream = IMPORT_NONE;
  return TRUE;
}

static gboolean
get_correlation (Reader *r, JsonObject *args, const char *what, const char *name, guint32 *corr)
{
  gint64 v;
  if (!get_int (r, args, what, name, 0, G_MAXUINT32, &v))
    return FALSE;
  *corr = (guint32) v;
  return TRUE;
}

static guint
thread_of (Reader *r, JsonNode *tid)
{
  g_autofree char *text = tid == NULL ? g_strdup ("")
                          : is_number (tid) ? g_strdup_printf ("%.0f", json_node_get_double (tid))
                          : JSON_NODE_HOLDS_VALUE (tid)
                              && json_node_get_value_type (tid) == G_TYPE_STRING
                            ? g_strdup (json_node_get_string (tid)) : g_strdup ("?");
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (r->threads, text));
  if (n == 0)
    {
      n = g_hash_table_size (r->threads) + 1;
      g_hash_table_insert (r->threads, g_steal_pointer (&text), GUINT_TO_POINTER (n));
    }
  return n;
}

/* The index of `word` in `names` (n of them), or -1. */
static gint
index_of (const char *word, gsize len, const char *const *names, guint n)
{
  for (guint i = 0; i < n; i++)
    if (strlen (names[i]) == len && strncmp (names[i], word, len) == 0)
      return (gint) i;
  return -1;
}

/* "Memcpy HtoD (Pinned -> Device)": CUPTI's copy, source and destination
 * memory kinds; a name Kineto does not know is the unknown kind. */
static gboolean
parse_memcpy_name (const char *name, guint64 *copy, guint64 *src, guint64 *dst)
{
  if (!g_str_has_prefix (name, "Memcpy "))
    return FALSE;
  const char *kind = name + 7, *open = strstr (kind, " ("), *arrow = strstr (kind, " -> ");
  gsize n = strlen (name);
  if (open == NULL || arrow == NULL || arrow < open || name[n - 1] != ')')
    return FALSE;
  gint c = index_of (kind, (gsize) (open - kind), copy_kinds, G_N_ELEMENTS (copy_kinds));
  gint s = index_of (open + 2, (gsize) (arrow - open - 2), memory_kinds, G_N_ELEMENTS (memory_kinds));
  gint d = index_of (arrow + 4, (gsize) (name + n - 1 - arrow - 4), memory_kinds,
                     G_N_ELEMENTS (memory_kinds));
  *copy = c < 0 ? RECORD_COPY_UNKNOWN : (guint64) c;
  *src = s < 0 ? RECORD_MEMORY_UNKNOWN : (guint64) s;
  *dst = d < 0 ? RECORD_MEMORY_UNKNOWN : (guint64) d;
  return TRUE;
}

static gboolean
read_call (Reader *r, JsonObject *e, const char *name, guint64 ts, guint64 dur)
{
  JsonObject *args = get_args (r, e, "a CUDA call");
  ImportCall c = { .name = import_trace_name (r->t, name), .enter = ts, .exit = ts + dur,
                   .thread = thread_of (r, json_object_get_member (e, "tid")) };
  const guint64 *at = g_hash_table_lookup (r->where, e);
  c.line = at != NULL ? (guint) (*at >> 32) : 1;
  c.column = at != NULL ? (guint) *at : 1;
  if (args == NULL || !get_correlation (r, args, "a CUDA call", "correlation", &c.correlation))
    return FALSE;
  g_array_append_val (r->t->calls, c);
  return TRUE;
}

static gboolean
read_work (Reader *r, JsonObject *e, Category cat, const char *name, guint64 ts, guint64 dur)
{
  const char *what = cat == CAT_KERNEL ? "a kernel" : cat == CAT_MEMCPY ? "a copy" : "a memset";
  JsonObject *args = get_args (r, e, what);
  ImportWork w = { .start = ts, .end = ts + dur, .name = "" };
  if (args == NULL || !get_stream (r, args, what, "stream", &w.stream)
      || !get_correlation (r, args, what, "correlation", &w.correlation))
    return FALSE;
  gint64 v;
  if (cat == CAT_KERNEL)
    {
      w.kind = RECORD_WORK_KERNEL;
      w.name = g_string_chunk_insert_const (r->t->strings, name);
      if (!get_dims (r, args, "grid", &w.a[0]) || !get_dims (r, args, "block", &w.a[1]))
        return FALSE;
      if (!get_int_or (r, args, what, "shared memory", 0, G_MAXINT32, 0, &v))
        return FALSE;
      w.a[2] = (guint64) v;
      if (!get_int_or (r, args, what, "registers per thread", 0, 65535, 0, &v))
        return FALSE;
      w.a[3] = (guint64) v;
    }
  else
    {
      if (!get_int (r, args, what, "bytes", 0, G_MAXINT64, &v))
        return FALSE;
      w.a[0] = (guint64) v;
      if (cat == CAT_MEMCPY)
        {
          w.kind = RECORD_WORK_COPY;
          if (!parse_memcpy_name (name, &w.a[1], &w.a[2], &w.a[3]))
            return fail (r, e, "a gpu_memcpy's name is \"Memcpy KIND (SOURCE -> DESTINATION)\", "
                         "not \"%s\"", name);
        }
      else
        {
          w.kind = RECORD_WORK_MEMSET;
          gsize n = strlen (name);
          if (!g_str_has_prefix (name, "Memset (") || name[n - 1] != ')')
            return fail (r, e, "a gpu_memset's name is \"Memset (MEMORY)\", not \"%s\"", name);
          gint m = index_of (name + 8, n - 9, memory_kinds, G_N_ELEMENTS (memory_kinds));
          w.a[2] = m < 0 ? RECORD_MEMORY_UNKNOWN : (guint64) m;
        }
    }
  g_array_append_val (r->t->works, w);
  return TRUE;
}

static gboolean
read_sync (Reader *r, JsonObject *e, const char *name)
{
  static const struct
  {
    const char *name;
    ImportSyncKind kind;
  } kinds[] = { { "Stream Sync", IMPORT_SYNC_STREAM }, { "Event Sync", IMPORT_SYNC_EVENT },
                { "Stream Wait Event", IMPORT_SYNC_WAIT }, { "Context Sync", IMPORT_SYNC_DEVICE } };
  JsonObject *args = get_args (r, e, "a cuda_sync event");
  ImportSync s = { .stream = IMPORT_NONE, .event = IMPORT_NONE, .record_stream = IMPORT_NONE };
  if (args == NULL || !get_correlation (r, args, "a cuda_sync event", "correlation", &s.correlation)
      || !get_stream (r, args, "a cuda_sync event", "stream", &s.stream))
    return FALSE;
  guint i = 0;
  while (i < G_N_ELEMENTS (kinds) && strcmp (kinds[i].name, name) != 0)
    i++;
  if (i == G_N_ELEMENTS (kinds))
    return TRUE; /* "Unknown Sync": says nothing */
  s.kind = kinds[i].kind;
  if (s.kind == IMPORT_SYNC_EVENT || s.kind == IMPORT_SYNC_WAIT)
    {
      gint64 event, record;
      if (!get_int (r, args, "an event sync", "wait_on_cuda_event_id", -1, G_MAXUINT32, &event)
          || !get_int_or (r, args, "an event sync", "wait_on_cuda_event_record_corr_id", -1,
                          G_MAXUINT32, -1, &record)
          || !get_int_or (r, args, "an event sync", "wait_on_stream", -1, G_MAXINT32 / 2, -1,
                          &s.record_stream))
        return FALSE;
      s.event = event;
      s.record = record > 0 ? (guint32) record : 0;
      if (s.record_stream < 0)
        s.record_stream = IMPORT_NONE;
    }
  g_array_append_val (r->t->syncs, s);
  return TRUE;
}

static gboolean
read_event_record (Reader *r, JsonObject *e)
{
  JsonObject *args = get_args (r, e, "a cuda_event event");
  ImportRecord rec;
  gint64 event;
  if (args == NULL || !get_correlation (r, args, "a cuda_event event", "correlation",
                                        &rec.correlation)
      || !get_stream (r, args, "a cuda_event event", "stream", &rec.stream)
      || !get_int (r, args, "a cuda_event event", "event_id", 0, G_MAXUINT32, &event))
    return FALSE;
  rec.event = event;
  g_array_append_val (r->t->records, rec);
  return TRUE;
}

static gboolean
read_event (Reader *r, JsonObject *e)
{
  const char *ph = get_string (r, e, "an event", "ph");
  if (ph == NULL)
    return FALSE;
  if (ph[0] == '\0' || ph[1] != '\0' || strchr (phases, ph[0]) == NULL)
    return fail (r, e, "unknown event phase \"%s\" (the Chrome trace format's are %s)", ph,
                 "B E X i I C M s t f P O N D b n e R c");
  if (ph[0] != 'X')
    return TRUE;
  const char *cat = get_string (r, e, "a complete event", "cat");
  if (cat == NULL)
    return FALSE;
  guint i = 0;
  while (i < G_N_ELEMENTS (categories) && strcmp (categories[i].name, cat) != 0)
    i++;
  if (i == G_N_ELEMENTS (categories))
    return fail (r, e, "unknown event category \"%s\": not one Kineto writes (kernel, "
                 "gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver, cuda_sync, cpu_op, ...)", cat);
  Category what = categories[i].what;
  if (what == CAT_SKIP)
    return TRUE;
  const char *name = get_string (r, e, "an event", "name");
  guint64 ts, dur;
  if (name == NULL || !get_time (r, e, "an event", "ts", &ts)
      || !get_time (r, e, "an event", "dur", &dur))
    return FALSE;
  if (ts > G_MAXUINT64 / 2 - dur)
    return fail (r, e, "the event ends past the times streamsim can hold");
  switch (what)
    {
    case CAT_CALL:
      return read_call (r, e, name, ts, dur);
    case CAT_KERNEL:
    case CAT_MEMCPY:
    case CAT_MEMSET:
      return read_work (r, e, what, name, ts, dur);
    case CAT_SYNC:
      return read_sync (r, e, name);
    case CAT_EVENT:
      return read_event_record (r, e);
    case CAT_ANNOTATION:
      {
        ImportRange range = { .name = g_string_chunk_insert_const (r->t->strings, name),
                              .start = ts, .end = ts + dur };
        g_array_append_val (r->t->ranges, range);
        return TRUE;
      }
    default:
      return TRUE;
    }
}

/* json-glib's "<data>:LINE:COLUMN: Parse error: ..." as "PATH:LINE:COLUMN: ...". */
static void
parse_error (Reader *r, const GError *why)
{
  const char *m = why->message;
  if (g_str_has_prefix (m, "<data>:"))
    {
      char *after = NULL;
      guint64 line = g_ascii_strtoull (m + 7, &after, 10);
      guint64 column = *after == ':' ? g_ascii_strtoull (after + 1, &after, 10) : 0;
      if (line > 0 && g_str_has_prefix (after, ": "))
        {
          located_error_set (r->error, IMPORT_ERROR, IMPORT_ERROR_PARSE, r->path, (guint) line,
                             (guint) MAX (column, 1), "%s", after + 2);
          return;
        }
    }
  located_error_set (r->error, IMPORT_ERROR, IMPORT_ERROR_PARSE, r->path, 1, 1, "%s", m);
}

ImportTrace *
import_kineto_parse (const char *path, const char *text, gsize length, GError **error)
{
  g_return_val_if_fail (path != NULL && text != NULL, NULL);
  if (!located_error_check_utf8 (error, IMPORT_ERROR, IMPORT_ERROR_PARSE, path, text, length,
                                 "Chrome JSON trace"))
    return NULL;
  Reader r = { .path = path, .error = error,
               .where = g_hash_table_new_full (NULL, NULL, NULL, g_free),
               .open = g_array_new (FALSE, FALSE, sizeof (guint64)),
               .threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_signal_connect (parser, "object-start", G_CALLBACK (object_start), &r);
  g_signal_connect (parser, "object-end", G_CALLBACK (object_end), &r);
  g_autoptr (GError) why = NULL;
  ImportTrace *t = NULL;
  gboolean ok = json_parser_load_from_data (parser, text, (gssize) length, &why);
  JsonNode *root = ok ? json_parser_get_root (parser) : NULL;
  JsonArray *events = NULL;
  if (!ok)
    parse_error (&r, why);
  else if (root == NULL)
    located_error_set (error, IMPORT_ERROR, IMPORT_ERROR_PARSE, path, 1, 1,
                       "empty: a Chrome JSON trace is an object with \"traceEvents\"");
  else if (JSON_NODE_HOLDS_ARRAY (root))
    events = json_node_get_array (root);
  else if (!JSON_NODE_HOLDS_OBJECT (root))
    located_error_set (error, IMPORT_ERROR, IMPORT_ERROR_PARSE, path, 1, 1,
                       "a Chrome JSON trace is an object with \"traceEvents\", not %s",
                       type_name (root));
  else
    {
      r.root = json_node_get_object (root);
      JsonNode *list = json_object_get_member (r.root, "traceEvents");
      if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
        fail (&r, r.root, "a Chrome JSON trace has an array \"traceEvents\"%s",
              list == NULL ? "" : ", not this");
      else
        events = json_node_get_array (list);
    }
  if (events != NULL)
    {
      t = import_trace_new (path, "Kineto (PyTorch profiler) Chrome JSON");
      r.t = t;
      for (guint i = 0; i < json_array_get_length (events) && t != NULL; i++)
        {
          JsonNode *node = json_array_get_element (events, i);
          gboolean read = JSON_NODE_HOLDS_OBJECT (node)
                          ? read_event (&r, json_node_get_object (node))
                          : fail (&r, r.root, "event %u of \"traceEvents\" is %s, not an object",
                                  i + 1, type_name (node));
          if (!read)
            g_clear_pointer (&t, import_trace_free);
        }
    }
  g_hash_table_unref (r.where);
  g_array_unref (r.open);
  g_hash_table_unref (r.threads);
  return t;
}
