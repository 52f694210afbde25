/* import_nsys.c: Nsight Systems' SQLite export read as a trace (import_nsys.h). */
#include <string.h>
#include <sqlite3.h>
#include "import_nsys.h"
#include "sim/core/printable.h"

/* CUPTI's "not applicable" stream or event (CUPTI_SYNCHRONIZATION_INVALID_VALUE). */
#define CUPTI_INVALID G_GINT64_CONSTANT (4294967295)

typedef struct
{
  const char *path;
  sqlite3 *db;
  ImportTrace *t;
  GHashTable *strings;   /* StringIds id -> value (NULL: not there) */
  sqlite3_stmt *string_stmt;
  GHashTable *threads;   /* globalTid -> thread number */
  GHashTable *opers, *kinds, *sync_types; /* the ENUM tables read so far (read_enum) */
  GError **error;
} Db;

static gboolean G_GNUC_PRINTF (2, 3)
fail (Db *d, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  /* SQLite's messages quote the file's schema, which may hold any byte */
  g_autofree char *message = g_strdup_printf ("%s: %s", d->path, what);
  g_autofree char *shown = printable_text (message, FALSE);
  g_set_error_literal (d->error, IMPORT_ERROR, IMPORT_ERROR_PARSE, shown);
  return FALSE;
}

static gboolean
has_table (Db *d, const char *table)
{
  sqlite3_stmt *s = NULL;
  gboolean found = FALSE;
  /* tables only: a view could run a query without end */
  if (sqlite3_prepare_v2 (d->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                          -1, &s, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (s, 1, table, -1, SQLITE_STATIC);
      found = sqlite3_step (s) == SQLITE_ROW;
    }
  sqlite3_finalize (s);
  return found;
}

/* A query over `table`'s rows: rowid, then `columns` (n of them), NULL for
 * those it lacks; a missing one of the first `required` is an error. */
static sqlite3_stmt *
select_rows (Db *d, const char *table, const char *const *columns, guint n, guint required,
             gboolean *present)
{
  g_autofree char *pragma = g_strdup_printf ("PRAGMA table_info(\"%s\")", table);
  sqlite3_stmt *s = NULL;
  g_autoptr (GHashTable) have = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (sqlite3_prepare_v2 (d->db, pragma, -1, &s, NULL) != SQLITE_OK)
    {
      fail (d, "table %s cannot be read: %s", table, sqlite3_errmsg (d->db));
      sqlite3_finalize (s);
      return NULL;
    }
  int rc;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    if (sqlite3_column_text (s, 1) != NULL)
      g_hash_table_add (have, g_strdup ((const char *) sqlite3_column_text (s, 1)));
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      fail (d, "table %s cannot be read: %s", table, sqlite3_errmsg (d->db));
      return NULL;
    }
  g_autoptr (GString) sql = g_string_new ("SELECT rowid");
  for (guint i = 0; i < n; i++)
    {
      present[i] = g_hash_table_contains (have, columns[i]);
      if (!present[i] && i < required)
        {
          fail (d, "table %s has no column %s (Nsight Systems' export schema has it)", table,
                columns[i]);
          return NULL;
        }
      if (present[i])
        g_string_append_printf (sql, ", \"%s\"", columns[i]);
      else
        g_string_append (sql, ", NULL");
    }
  g_string_append_printf (sql, " FROM \"%s\"", table);
  if (sqlite3_prepare_v2 (d->db, sql->str, -1, &s, NULL) != SQLITE_OK)
    {
      fail (d, "table %s cannot be read: %s", table, sqlite3_errmsg (d->db));
      sqlite3_finalize (s);
      return NULL;
    }
  return s;
}

/* Column `i` (counting rowid as 0) of the current row: a whole number in
 * [min, max]; `fallback` where it is NULL and not required. */
static gboolean
int_at (Db *d, sqlite3_stmt *s, int i, const char *table, const char *column, gboolean required,
        gint64 min, gint64 max, gint64 fallback, gint64 *out)
{
  gint64 row = sqlite3_column_int64 (s, 0);
  int type = sqlite3_column_type (s, i);
  if (type == SQLITE_NULL)
    {
      if (required)
        return fail (d, "table %s row %" G_GINT64_FORMAT ": %s is NULL", table, row, column);
      *out = fallback;
      return TRUE;
    }
  if (type != SQLITE_INTEGER)
    return fail (d, "table %s row %" G_GINT64_FORMAT ": %s is not a whole number", table, row,
                 column);
  gint64 v = sqlite3_column_int64 (s, i);
  if (v < min || v > max)
    return fail (d, "table %s row %" G_GINT64_FORMAT ": %s is %" G_GINT64_FORMAT ", not from %"
                 G_GINT64_FORMAT " to %" G_GINT64_FORMAT, table, row, column, v, min, max);
  *out = v;
  return TRUE;
}

/* The end of a table's rows: FALSE, with SQLite's reason, where stepping failed. */
static gboolean
rows_done (Db *d, int rc, const char *table, gint64 last_row)
{
  if (rc == SQLITE_DONE)
    return TRUE;
  if (last_row > 0)
    return fail (d, "table %s after row %" G_GINT64_FORMAT ": %s", table, last_row,
                 sqlite3_errmsg (d->db));
  return fail (d, "table %s: %s", table, sqlite3_errmsg (d->db));
}

/* The row of a table that each_row gives its function. */
typedef struct
{
  const char *table;
  sqlite3_stmt *s;      /* column 0 the rowid, then the columns asked for */
  gint64 row;           /* the rowid */
  gboolean present[16]; /* per column asked for: the table has it */
} Row;

typedef gboolean (*RowFunc) (Db *d, const Row *r, gpointer data);

/* Each row of `table` given to `func`, with `columns` (n of them, at most
 * 16; the first `required` must be there) as select_rows selects them;
 * FALSE, said, at the first row `func` refuses or where SQLite fails. A
 * table the database lacks has no rows. */
static gboolean
each_row (Db *d, const char *table, const char *const *columns, guint n, guint required,
          RowFunc func, gpointer data)
{
  Row r = { .table = table };
  g_return_val_if_fail (n <= G_N_ELEMENTS (r.present), FALSE);
  if (!has_table (d, table))
    return TRUE;
  r.s = select_rows (d, table, columns, n, required, r.present);
  if (r.s == NULL)
    return FALSE;
  int rc;
  gboolean ok = TRUE;
  while (ok && (rc = sqlite3_step (r.s)) == SQLITE_ROW)
    {
      r.row = sqlite3_column_int64 (r.s, 0);
      ok = func (d, &r, data);
    }
  if (ok)
    ok = rows_done (d, rc, table, r.row);
  sqlite3_finalize (r.s);
  return ok;
}

/* StringIds' value for `id`; NULL (an error said) where it has none. */
static const char *
string_of (Db *d, const char *table, gint64 row, const char *column, gint64 id)
{
  gpointer found;
  if (g_hash_table_lookup_extended (d->strings, &id, NULL, &found))
    return found;
  const char *value = NULL;
  if (d->string_stmt == NULL
      && sqlite3_prepare_v2 (d->db, "SELECT value FROM StringIds WHERE id = ?", -1,
                             &d->string_stmt, NULL) != SQLITE_OK)
    {
      fail (d, "table %s row %" G_GINT64_FORMAT ": %s names a string, and table StringIds cannot "
            "be read: %s", table, row, column, sqlite3_errmsg (d->db));
      return NULL;
    }
  sqlite3_reset (d->string_stmt);
  sqlite3_bind_int64 (d->string_stmt, 1, id);
  int rc = sqlite3_step (d->string_stmt);
  if (rc == SQLITE_ROW && sqlite3_column_text (d->string_stmt, 0) != NULL)
    value = g_string_chunk_insert_const (d->t->strings,
                                         (const char *) sqlite3_column_text (d->string_stmt, 0));
  else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
    fail (d, "table %s row %" G_GINT64_FORMAT ": %s is %" G_GINT64_FORMAT ", which table StringIds "
          "does not have", table, row, column, id);
  else
    fail (d, "table StringIds: %s", sqlite3_errmsg (d->db));
  if (value != NULL)
    g_hash_table_insert (d->strings, g_memdup2 (&id, sizeof id), (gpointer) value);
  return value;
}

/* Lower-case letters and digits of `text` only: "Host-to-Device" -> "hosttodevice". */
static char *
normalized (const char *text)
{
  GString *s = g_string_new (NULL);
  for (const char *c = text; *c != '\0'; c++)
    if (g_ascii_isalnum (*c))
      g_string_append_c (s, g_ascii_tolower (*c));
  return g_string_free (s, FALSE);
}

typedef struct
{
  const char *const *words;   /* normalized endings, NULL-ended */
  gint value;
} EnumWord;

/* The value whose words end `text` (normalized), or -1. */
static gint
enum_value (const char *text, const EnumWord *words, guint n)
{
  g_autofree char *norm = normalized (text);
  for (guint i = 0; i < n; i++)
    for (const char *const *w = words[i].words; *w != NULL; w++)
      if (g_str_has_suffix (norm, *w))
        return words[i].value;
  return -1;
}

static const EnumWord copy_words[] = {
  { (const char *const[]) { "htod", "hosttodevice", NULL }, RECORD_COPY_HTOD },
  { (const char *const[]) { "dtoh", "devicetohost", NULL }, RECORD_COPY_DTOH },
  { (const char *const[]) { "dtod", "devicetodevice", NULL }, RECORD_COPY_DTOD },
  { (const char *const[]) { "htoh", "hosttohost", NULL }, RECORD_COPY_HTOH },
  { (const char *const[]) { "ptop", "peertopeer", NULL }, RECORD_COPY_PTOP },
  { (const char *const[]) { "htoa", "hosttoarray", NULL }, RECORD_COPY_HTOA },
  { (const char *const[]) { "atoh", "arraytohost", NULL }, RECORD_COPY_ATOH },
  { (const char *const[]) { "atoa", "arraytoarray", NULL }, RECORD_COPY_ATOA },
  { (const char *const[]) { "atod", "arraytodevice", NULL }, RECORD_COPY_ATOD },
  { (const char *const[]) { "dtoa", "devicetoarray", NULL }, RECORD_COPY_DTOA },
};

/* Longer endings first: "devicestatic" before "device". */
static const EnumWord memory_words[] = {
  { (const char *const[]) { "devicestatic", NULL }, RECORD_MEMORY_DEVICE_STATIC },
  { (const char *const[]) { "managedstatic", NULL }, RECORD_MEMORY_MANAGED_STATIC },
  { (const char *const[]) { "pageable", NULL }, RECORD_MEMORY_PAGEABLE },
  { (const char *const[]) { "pinned", NULL }, RECORD_MEMORY_PINNED },
  { (const char *const[]) { "device", NULL }, RECORD_MEMORY_DEVICE },
  { (const char *const[]) { "array", NULL }, RECORD_MEMORY_ARRAY },
  { (const char *const[]) { "managed", NULL }, RECORD_MEMORY_MANAGED },
};

static const EnumWord sync_words[] = {
  { (const char *const[]) { "streamwaitevent", "waitevent", NULL }, IMPORT_SYNC_WAIT },
  { (const char *const[]) { "eventsync", "eventsynchronize", NULL }, IMPORT_SYNC_EVENT },
  { (const char *const[]) { "streamsync", "streamsynchronize", NULL }, IMPORT_SYNC_STREAM },
  { (const char *const[]) { "contextsync", "contextsynchronize", NULL }, IMPORT_SYNC_DEVICE },
};

typedef struct
{
  const EnumWord *words;
  guint n;
  GHashTable *values;
} EnumRead;

static gboolean
enum_row (Db *d, const Row *r, gpointer data)
{
  EnumRead *e = data;
  gint64 id;
  if (!int_at (d, r->s, 1, r->table, "id", TRUE, G_MININT64, G_MAXINT64, 0, &id))
    return FALSE;
  if (!r->present[1] && !r->present[2])
    return fail (d, "table %s has neither a label nor a name column", r->table);
  gint value = -1;
  for (int c = 2; c <= 3 && value < 0; c++)
    if (sqlite3_column_text (r->s, c) != NULL)
      value = enum_value ((const char *) sqlite3_column_text (r->s, c), e->words, e->n);
  g_hash_table_insert (e->values, g_memdup2 (&id, sizeof id), GINT_TO_POINTER (value + 2));
  return TRUE;
}

/* An ENUM table as id -> value (GINT_TO_POINTER (value + 2); value -1 for
 * an id whose names match none of `words`), read once into *values;
 * FALSE, said, where the table or both its name columns are missing. */
static gboolean
read_enum (Db *d, const char *table, const EnumWord *words, guint n, GHashTable **values)
{
  if (*values != NULL)
    return TRUE;
  if (!has_table (d, table))
    return fail (d, "no table %s, which names the kinds of what the report holds", table);
  const char *columns[] = { "id", "label", "name" };
  EnumRead e = { words, n, g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL) };
  if (!each_row (d, table, columns, 3, 1, enum_row, &e))
    {
      g_hash_table_unref (e.values);
      return FALSE;
    }
  *values = e.values;
  return TRUE;
}

/* `id`'s value in an ENUM table (read_enum); -1 for one it names but does
 * not match; FALSE, said, for one it does not have. */
static gboolean
enum_at (Db *d, GHashTable *values, const char *enum_table, const char *table, gint64 row,
         const char *column, gint64 id, gint *value)
{
  gpointer found = g_hash_table_lookup (values, &id);
  if (found == NULL)
    return fail (d, "table %s row %" G_GINT64_FORMAT ": %s is %" G_GINT64_FORMAT ", which table "
                 "%s does not have", table, row, column, id, enum_table);
  *value = GPOINTER_TO_INT (found) - 2;
  return TRUE;
}

static guint
thread_of (Db *d, gint64 tid)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (d->threads, &tid));
  if (n == 0)
    {
      n = g_hash_table_size (d->threads) + 1;
      g_hash_table_insert (d->threads, g_memdup2 (&tid, sizeof tid), GUINT_TO_POINTER (n));
    }
  return n;
}

/* Times are ns; past 2^62 the model's would overflow. */
#define MAX_TIME (G_GINT64_CONSTANT (1) << 62)

static gboolean
read_times (Db *d, sqlite3_stmt *s, const char *table, guint64 *start, guint64 *end)
{
  gint64 a, b;
  if (!int_at (d, s, 1, table, "start", TRUE, 0, MAX_TIME, 0, &a)
      || !int_at (d, s, 2, table, "end", TRUE, 0, MAX_TIME, 0, &b))
    return FALSE;
  if (b < a)
    return fail (d, "table %s row %" G_GINT64_FORMAT ": it ends (%" G_GINT64_FORMAT ") before it "
                 "starts (%" G_GINT64_FORMAT ")", table, (gint64) sqlite3_column_int64 (s, 0), b, a);
  *start = (guint64) a;
  *end = (guint64) b;
  return TRUE;
}

static gboolean
call_row (Db *d, const Row *r, gpointer data)
{
  (void) data;
  ImportCall c = { .table = r->table, .line = (guint) MIN (r->row, G_MAXUINT) };
  gint64 corr, name_id, tid;
  const char *name;
  if (!read_times (d, r->s, r->table, &c.enter, &c.exit)
      || !int_at (d, r->s, 3, r->table, "correlationId", TRUE, 0, G_MAXUINT32, 0, &corr)
      || !int_at (d, r->s, 4, r->table, "nameId", TRUE, G_MININT64, G_MAXINT64, 0, &name_id)
      || !int_at (d, r->s, 5, r->table, "globalTid", FALSE, G_MININT64, G_MAXINT64, 0, &tid)
      || (name = string_of (d, r->table, r->row, "nameId", name_id)) == NULL)
    return FALSE;
  c.correlation = (guint32) corr;
  c.name = import_trace_name (d->t, name);
  c.thread = thread_of (d, tid);
  g_array_append_val (d->t->calls, c);
  return TRUE;
}

static gboolean
read_calls (Db *d, const char *table)
{
  const char *columns[] = { "start", "end", "correlationId", "nameId", "globalTid" };
  return each_row (d, table, columns, 5, 4, call_row, NULL);
}

/* A stream or event id: CUPTI's "not applicable" and negatives are none. */
static gint64
id_or_none (gint64 v)
{
  return v < 0 || v == CUPTI_INVALID ? IMPORT_NONE : v;
}

/* A streamId column: IMPORT_NONE for none (NULL where not required);
 * stream ids are small (the importers key tables by them as ints), as
 * Kineto's are. */
static gboolean
stream_at (Db *d, sqlite3_stmt *s, int i, const char *table, gboolean required, gint64 *stream)
{
  gint64 v;
  if (!int_at (d, s, i, table, "streamId", required, -1, CUPTI_INVALID, -1, &v))
    return FALSE;
  if (v > G_MAXINT32 / 2 && v != CUPTI_INVALID)
    return fail (d, "table %s row %" G_GINT64_FORMAT ": streamId is %" G_GINT64_FORMAT ", not a "
                 "stream id from 0 to %d", table, (gint64) sqlite3_column_int64 (s, 0), v,
                 G_MAXINT32 / 2);
  *stream = id_or_none (v);
  return TRUE;
}

static const char *const kernel_columns[] = {
  "start", "end", "streamId", "correlationId", "gridX", "gridY", "gridZ", "blockX", "blockY",
  "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory", "demangledName",
  "shortName", "mangledName" };

static gboolean
kernel_row (Db *d, const Row *r, gpointer data)
{
  (void) data;
  ImportWork w = { .kind = RECORD_WORK_KERNEL, .name = "" };
  gint64 v[16];
  if (!read_times (d, r->s, r->table, &w.start, &w.end)
      || !stream_at (d, r->s, 3, r->table, TRUE, &w.stream)
      || !int_at (d, r->s, 4, r->table, "correlationId", TRUE, 0, G_MAXUINT32, 0, &v[3]))
    return FALSE;
  for (int i = 4; i < 13; i++)
    if (!int_at (d, r->s, i + 1, r->table, kernel_columns[i], i < 10, i < 10 ? 1 : 0, G_MAXINT32,
                 0, &v[i]))
      return FALSE;
  w.correlation = (guint32) v[3];
  if ((double) v[4] * (double) v[5] * (double) v[6] > 1e15
      || (double) v[7] * (double) v[8] * (double) v[9] > 1e15)
    return fail (d, "table %s row %" G_GINT64_FORMAT ": a grid or block larger than a GPU runs",
                 r->table, r->row);
  w.a[0] = (guint64) (v[4] * v[5] * v[6]);
  w.a[1] = (guint64) (v[7] * v[8] * v[9]);
  w.a[2] = (guint64) (v[11] + v[12]);
  w.a[3] = (guint64) v[10];
  /* the first name the row has, demangled before short before mangled */
  for (int i = 13; i < 16; i++)
    if (r->present[i] && sqlite3_column_type (r->s, i + 1) != SQLITE_NULL)
      {
        gint64 id;
        if (!int_at (d, r->s, i + 1, r->table, kernel_columns[i], TRUE, G_MININT64, G_MAXINT64, 0,
                     &id)
            || (w.name = string_of (d, r->table, r->row, kernel_columns[i], id)) == NULL)
          return FALSE;
        break;
      }
  g_array_append_val (d->t->works, w);
  return TRUE;
}

/* A memory kind column (ENUM_CUDA_MEM_KIND) as CUPTI's kind. */
static gboolean
memory_at (Db *d, const Row *r, int i, const char *column, guint64 *kind)
{
  *kind = RECORD_MEMORY_UNKNOWN;
  if (sqlite3_column_type (r->s, i) == SQLITE_NULL)
    return TRUE;
  gint64 id;
  gint value;
  if (!read_enum (d, "ENUM_CUDA_MEM_KIND", memory_words, G_N_ELEMENTS (memory_words), &d->kinds)
      || !int_at (d, r->s, i, r->table, column, TRUE, G_MININT64, G_MAXINT64, 0, &id)
      || !enum_at (d, d->kinds, "ENUM_CUDA_MEM_KIND", r->table, r->row, column, id, &value))
    return FALSE;
  *kind = value < 0 ? RECORD_MEMORY_UNKNOWN : (guint64) value;
  return TRUE;
}

/* A copy's or a memset's row: the columns common to both first. */
static gboolean
copy_row (Db *d, const Row *r, gpointer data)
{
  gboolean memset = GPOINTER_TO_INT (data);
  ImportWork w = { .kind = memset ? RECORD_WORK_MEMSET : RECORD_WORK_COPY, .name = "" };
  gint64 corr, bytes;
  if (!read_times (d, r->s, r->table, &w.start, &w.end)
      || !stream_at (d, r->s, 3, r->table, TRUE, &w.stream)
      || !int_at (d, r->s, 4, r->table, "correlationId", TRUE, 0, G_MAXUINT32, 0, &corr)
      || !int_at (d, r->s, 5, r->table, "bytes", TRUE, 0, G_MAXINT64, 0, &bytes))
    return FALSE;
  w.correlation = (guint32) corr;
  w.a[0] = (guint64) bytes;
  if (memset)
    {
      if (!memory_at (d, r, 6, "memKind", &w.a[2]))
        return FALSE;
    }
  else
    {
      gint64 id;
      gint value;
      if (!read_enum (d, "ENUM_CUDA_MEMCPY_OPER", copy_words, G_N_ELEMENTS (copy_words), &d->opers)
          || !int_at (d, r->s, 6, r->table, "copyKind", TRUE, G_MININT64, G_MAXINT64, 0, &id)
          || !enum_at (d, d->opers, "ENUM_CUDA_MEMCPY_OPER", r->table, r->row, "copyKind", id,
                       &value)
          || !memory_at (d, r, 7, "srcKind", &w.a[2]) || !memory_at (d, r, 8, "dstKind", &w.a[3]))
        return FALSE;
      w.a[1] = value >= 0 ? (guint64) value : RECORD_COPY_UNKNOWN;
    }
  g_array_append_val (d->t->works, w);
  return TRUE;
}

static gboolean
read_work (Db *d)
{
  const char *copy_columns[] = { "start", "end", "streamId", "correlationId", "bytes", "copyKind",
                                 "srcKind", "dstKind" };
  const char *memset_columns[] = { "start", "end", "streamId", "correlationId", "bytes", "memKind" };
  return each_row (d, "CUPTI_ACTIVITY_KIND_KERNEL", kernel_columns, 16, 10, kernel_row, NULL)
         && each_row (d, "CUPTI_ACTIVITY_KIND_MEMCPY", copy_columns, 8, 6, copy_row,
                      GINT_TO_POINTER (FALSE))
         && each_row (d, "CUPTI_ACTIVITY_KIND_MEMSET", memset_columns, 6, 5, copy_row,
                      GINT_TO_POINTER (TRUE));
}

static gboolean
sync_row (Db *d, const Row *r, gpointer data)
{
  (void) data;
  gint64 corr, type, stream, event;
  gint kind;
  if (!read_enum (d, "ENUM_CUPTI_SYNC_TYPE", sync_words, G_N_ELEMENTS (sync_words),
                  &d->sync_types)
      || !int_at (d, r->s, 1, r->table, "correlationId", TRUE, 0, G_MAXUINT32, 0, &corr)
      || !int_at (d, r->s, 2, r->table, "syncType", TRUE, G_MININT64, G_MAXINT64, 0, &type)
      || !enum_at (d, d->sync_types, "ENUM_CUPTI_SYNC_TYPE", r->table, r->row, "syncType", type,
                   &kind)
      || !stream_at (d, r->s, 3, r->table, FALSE, &stream)
      || !int_at (d, r->s, 4, r->table, "eventId", FALSE, -1, CUPTI_INVALID, -1, &event))
    return FALSE;
  if (kind < 0)
    return TRUE; /* an unknown kind says nothing */
  ImportSync sync = { .kind = (ImportSyncKind) kind, .correlation = (guint32) corr,
                      .stream = stream, .event = id_or_none (event),
                      .record_stream = IMPORT_NONE };
  g_array_append_val (d->t->syncs, sync);
  return TRUE;
}

static gboolean
event_record_row (Db *d, const Row *r, gpointer data)
{
  (void) data;
  gint64 corr, stream, event;
  if (!int_at (d, r->s, 1, r->table, "correlationId", TRUE, 0, G_MAXUINT32, 0, &corr)
      || !stream_at (d, r->s, 2, r->table, TRUE, &stream)
      || !int_at (d, r->s, 3, r->table, "eventId", TRUE, -1, CUPTI_INVALID, 0, &event))
    return FALSE;
  ImportRecord rec = { .correlation = (guint32) corr, .stream = stream,
                       .event = id_or_none (event) };
  g_array_append_val (d->t->records, rec);
  return TRUE;
}

static gboolean
range_row (Db *d, const Row *r, gpointer data)
{
  (void) data;
  gint64 start, end, text_id;
  if (!int_at (d, r->s, 1, r->table, "start", TRUE, 0, MAX_TIME, 0, &start)
      || !int_at (d, r->s, 2, r->table, "end", FALSE, 0, MAX_TIME, -1, &end))
    return FALSE;
  if (end < start)
    return TRUE; /* a mark, or a range never closed: not a region */
  const char *name = NULL;
  if (sqlite3_column_text (r->s, 3) != NULL)
    name = g_string_chunk_insert_const (d->t->strings, (const char *) sqlite3_column_text (r->s, 3));
  else if (sqlite3_column_type (r->s, 4) != SQLITE_NULL
           && (!int_at (d, r->s, 4, r->table, "textId", TRUE, G_MININT64, G_MAXINT64, 0, &text_id)
               || (name = string_of (d, r->table, r->row, "textId", text_id)) == NULL))
    return FALSE;
  if (name != NULL)
    {
      ImportRange range = { .name = name, .start = (guint64) start, .end = (guint64) end };
      g_array_append_val (d->t->ranges, range);
    }
  return TRUE;
}

/* The synchronization and event records, and the NVTX ranges: optional tables. */
static gboolean
read_others (Db *d)
{
  const char *sync_columns[] = { "correlationId", "syncType", "streamId", "eventId" };
  const char *event_columns[] = { "correlationId", "streamId", "eventId" };
  const char *range_columns[] = { "start", "end", "text", "textId" };
  return each_row (d, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync_columns, 4, 2, sync_row, NULL)
         && each_row (d, "CUPTI_ACTIVITY_KIND_CUDA_EVENT", event_columns, 3, 3, event_record_row,
                      NULL)
         && each_row (d, "NVTX_EVENTS", range_columns, 4, 1, range_row, NULL);
}

static ImportTrace *
read_database (const char *path, sqlite3 *db, GError **error)
{
  /* The file is not trusted: its schema runs no function that could write
   * or reach outside it (SQLite's advice for databases from elsewhere) */
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  Db d = { .path = path, .db = db, .error = error,
           .t = import_trace_new (path, "Nsight Systems SQLite export"),
           .strings = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
           .threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL) };
  /* the first statement reads the header: a file that is not a database fails here */
  sqlite3_stmt *s = NULL;
  gboolean ok = sqlite3_prepare_v2 (db, "SELECT count(*) FROM sqlite_master", -1, &s, NULL)
                  == SQLITE_OK
                && sqlite3_step (s) == SQLITE_ROW;
  if (!ok)
    fail (&d, "not a database SQLite can read: %s", sqlite3_errmsg (db));
  sqlite3_finalize (s);
  if (ok && !has_table (&d, "CUPTI_ACTIVITY_KIND_RUNTIME"))
    ok = fail (&d, "no table CUPTI_ACTIVITY_KIND_RUNTIME: the report has no CUDA API trace "
               "(nsys profile --trace=cuda)");
  ok = ok && read_calls (&d, "CUPTI_ACTIVITY_KIND_RUNTIME")
       && read_calls (&d, "CUPTI_ACTIVITY_KIND_DRIVER") && read_work (&d) && read_others (&d);
  g_clear_pointer (&d.opers, g_hash_table_unref);
  g_clear_pointer (&d.kinds, g_hash_table_unref);
  g_clear_pointer (&d.sync_types, g_hash_table_unref);
  sqlite3_finalize (d.string_stmt);
  g_hash_table_unref (d.strings);
  g_hash_table_unref (d.threads);
  if (!ok)
    g_clear_pointer (&d.t, import_trace_free);
  return d.t;
}

static gboolean
open_failed (const char *path, sqlite3 *db, int rc, GError **error)
{
  g_autofree char *message = g_strdup_printf ("%s: %s", path, db != NULL ? sqlite3_errmsg (db)
                                                                         : sqlite3_errstr (rc));
  g_autofree char *shown = printable_text (message, FALSE);
  g_set_error_literal (error, IMPORT_ERROR,
                       rc == SQLITE_CANTOPEN ? IMPORT_ERROR_IO : IMPORT_ERROR_PARSE, shown);
  sqlite3_close (db);
  return FALSE;
}

ImportTrace *
import_nsys_read (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK)
    {
      open_failed (path, db, rc, error);
      return NULL;
    }
  ImportTrace *t = read_database (path, db, error);
  sqlite3_close (db);
  return t;
}

ImportTrace *
import_nsys_parse (const char *path, const guint8 *data, gsize length, GError **error)
{
  g_return_val_if_fail (path != NULL && data != NULL, NULL);
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE, NULL);
  if (rc != SQLITE_OK)
    {
      open_failed (path, db, rc, error);
      return NULL;
    }
  /* SQLite reads the copy in place; it must outlive the connection */
  guint8 *copy = sqlite3_malloc64 (MAX (length, 1));
  if (copy == NULL)
    {
      open_failed (path, db, SQLITE_NOMEM, error);
      return NULL;
    }
  memcpy (copy, data, length);
  rc = sqlite3_deserialize (db, "main", copy, (sqlite3_int64) length, (sqlite3_int64) length,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK)
    {
      open_failed (path, db, rc, error);
      return NULL;
    }
  ImportTrace *t = read_database (path, db, error);
  sqlite3_close (db);
  return t;
}
