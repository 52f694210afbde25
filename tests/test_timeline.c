/* test_timeline.c: the timeline CSV: round trips, any column order, malformed files with positions, safe writing. */
#define _POSIX_C_SOURCE 200809L /* write, close */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/formats/output_file.h"
#include "sim/formats/timeline_writer.h"
#include "support/temp_dir.h"

#define HEADER "op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause"

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  (void) data;
  f->dir = temp_dir_new ("test_timeline");
}

/* The folder must be empty again: every test removes what it wrote, so a
 * leftover temporary file fails the test. */
static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  (void) data;
  temp_dir_remove_empty (f->dir);
  g_free (f->dir);
}

static guint
count_files (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  g_dir_close (d);
  return n;
}

static char *
write_text (const Fixture *f, const char *name, const char *text, gssize len)
{
  char *path = g_build_filename (f->dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, len, NULL));
  return path;
}

static void
assert_rows_equal (const TimelineRow *a, const TimelineRow *b)
{
  g_assert_cmpuint (a->op, ==, b->op);
  g_assert_cmpuint (a->line, ==, b->line);
  g_assert_cmpstr (a->stream, ==, b->stream);
  g_assert_cmpstr (a->kind, ==, b->kind);
  g_assert_cmpstr (a->engine, ==, b->engine);
  g_assert_cmpint (a->conn, ==, b->conn);
  g_assert_cmpint (a->issue, ==, b->issue);
  g_assert_cmpint (a->start, ==, b->start);
  g_assert_cmpint (a->end, ==, b->end);
  g_assert_cmpuint (a->bytes, ==, b->bytes);
  g_assert_cmpuint (a->grid, ==, b->grid);
  g_assert_cmpuint (a->block, ==, b->block);
  g_assert_cmpstr (a->label, ==, b->label);
  g_assert_cmpstr (a->cause, ==, b->cause);
}

/* Rows whose strings need RFC 4180 quoting: a comma, quotes, a line break,
 * CRLF, and a stream name with a comma. */
static const TimelineRow sample_rows[] = {
  { 0, 7, "s1", "h2d", "h2d", 0, 0, 1000, 5000, 4194304, 0, 0, "chunk 1", NULL, NULL, NULL },
  { 1, 8, "s,2", "kernel", "compute", 3, 1200, 5000, 9000, 0, 4096, 256,
    "k \"inc\", v2", "queue conn0/compute behind op 0", NULL, NULL },
  { 2, 9, "s1", "d2h", "d2h", -1, 2000, 9000, 12000, 4194304, 0, 0, NULL,
    "waited for op 1\nthen\r\nfor the engine", NULL, NULL },
  { 3, 12, "default", "sync", "host", -1, 2500, 2500, 12000, 0, 0, 0, "", "", NULL, NULL },
};

/* The writer's text for sample_rows[1], written out by hand: conn 3, empty
 * bytes (0), the label quoted with its quotes doubled. */
#define SAMPLE_ROW_1 "1,8,\"s,2\",kernel,compute,3,1200,5000,9000,,4096,256,\"k \"\"inc\"\", v2\",queue conn0/compute behind op 0\n"

static void
test_round_trip (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = g_build_filename (f->dir, "t.csv", NULL);
  const char *const meta[] = { "schedule", "traces/seed/async-v1.sched", "device", "k20",
                               "source", "line one\nline two", NULL };
  GError *error = NULL;

  TimelineWriter *w = timeline_writer_new (path, meta, FALSE, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (sample_rows); i++)
    g_assert_true (timeline_writer_add (w, &sample_rows[i], &error));
  /* Nothing at the path before finish: rows go to a temporary file. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (timeline_writer_finish (w, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_files (f->dir), ==, 1);

  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# schedule: traces/seed/async-v1.sched\n"
                                         "# device: k20\n"
                                         "# source: line one line two\n" HEADER "\n"
                                         "0,7,s1,h2d,h2d,0,0,1000,5000,4194304,,,chunk 1,\n"
                                         SAMPLE_ROW_1));
  g_free (text);

  Timeline *t = timeline_read (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (timeline_path (t), ==, path);
  g_assert_cmpuint (timeline_n_rows (t), ==, G_N_ELEMENTS (sample_rows));
  for (guint i = 0; i < 3; i++)
    assert_rows_equal (timeline_row (t, i), &sample_rows[i]);
  /* Empty label and cause read back as NULL: CSV cannot tell "" from none. */
  TimelineRow last = sample_rows[3];
  last.label = last.cause = NULL;
  assert_rows_equal (timeline_row (t, 3), &last);
  g_assert_cmpstr (timeline_meta (t, "schedule"), ==, "traces/seed/async-v1.sched");
  g_assert_cmpstr (timeline_meta (t, "device"), ==, "k20");
  g_assert_cmpstr (timeline_meta (t, "source"), ==, "line one line two");
  g_assert_null (timeline_meta (t, "missing"));
  /* Largest end_ns: max (5000, 9000, 12000, 12000). */
  g_assert_cmpint (timeline_makespan (t), ==, 12000);
  timeline_free (t);

  g_remove (path);
  g_free (path);
}

/* The text the writer makes of `rows`, with no metadata. */
static char *
written_text (Fixture *f, const TimelineRow *rows, guint n)
{
  char *path = g_build_filename (f->dir, "rows.csv", NULL);
  GError *error = NULL;
  TimelineWriter *w = timeline_writer_new (path, NULL, FALSE, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    g_assert_true (timeline_writer_add (w, &rows[i], &error));
  g_assert_true (timeline_writer_finish (w, &error));
  g_assert_no_error (error);
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_remove (path);
  g_free (path);
  return text;
}

/* Numbers as the writer's fast path formats them (in 32-bit pieces of 8
 * digits): zeros inside a piece, exactly 10^8, the largest 64-bit values,
 * a negative time. Expected text written out by hand. */
static void
test_numbers (Fixture *f, gconstpointer data)
{
  (void) data;
  const TimelineRow rows[] = {
    { 100000000, 99, "s1", "h2d", "h2d", 31, 100000000, 1000000007, 123456789012345,
      G_MAXUINT64, G_MAXUINT32, 1, NULL, NULL, NULL, NULL },
    { 0, 1, "s1", "kernel", "compute", 0, G_MININT64 + 1, -5, G_MAXINT64, 10, 9, 100,
      NULL, NULL, NULL, NULL },
  };
  char *text = written_text (f, rows, G_N_ELEMENTS (rows));
  g_assert_cmpstr (text, ==,
                   HEADER "\n"
                   "100000000,99,s1,h2d,h2d,31,100000000,1000000007,123456789012345,"
                   "18446744073709551615,4294967295,1,,\n"
                   "0,1,s1,kernel,compute,0,-9223372036854775807,-5,9223372036854775807,"
                   "10,9,100,,\n");
  g_free (text);
}

/* Fields that need quotes because of a byte on either side of the 16th,
 * where the writer's scan of a field changes method (timeline_writer.c,
 * plain_len), and plain fields of 15, 16 and 17 bytes. The expected text is
 * written out by hand from RFC 4180. */
static void
test_quote_boundaries (Fixture *f, gconstpointer data)
{
  (void) data;
  const TimelineRow rows[] = {
    /* a quote as byte 16 (index 15), a comma as byte 2 and as byte 17, a line
     * break as byte 41 */
    { 0, 1, "abcdefghijklmno\"", "a,b", "h2d", 0, 0, 1, 2, 8, 0, 0,
      "abcdefghijklmnop,q", "waited for op 0 on the engine of op 0 and\nmore", NULL, NULL },
    /* plain: 15, 16 and 17 bytes, and a 40-byte cause */
    { 1, 2, "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", -1, 0, 1, 2, 0, 0, 0,
      "", "slots held by op 0 (SMs full or any more)", NULL, NULL },
  };
  char *text = written_text (f, rows, G_N_ELEMENTS (rows));
  g_assert_cmpstr (text, ==,
                   HEADER "\n"
                   "0,1,\"abcdefghijklmno\"\"\",\"a,b\",h2d,0,0,1,2,8,,,\"abcdefghijklmnop,q\","
                   "\"waited for op 0 on the engine of op 0 and\nmore\"\n"
                   "1,2,abcdefghijklmno,abcdefghijklmnop,abcdefghijklmnopq,,0,1,2,,,,,"
                   "slots held by op 0 (SMs full or any more)\n");
  g_free (text);
}

/* Every length of number, on both sides of each power of ten and of two
 * (the writer counts a number's digits from its bit length before it
 * writes them): in the bytes column, as unsigned, and their negatives as
 * start times. The expected text is printf's. */
static void
test_numbers_every_length (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = g_build_filename (f->dir, "len.csv", NULL);
  GError *error = NULL;
  TimelineWriter *w = timeline_writer_new (path, NULL, FALSE, &error);
  g_assert_no_error (error);
  /* 10^k - 1 and 10^k, then 2^b - 1 and 2^b, then 2^64 - 1 */
  guint64 values[2 * 20 + 2 * 64 + 1], power = 1;
  guint n = 0;
  for (guint k = 0; k <= 19; k++, power *= 10)
    {
      values[n++] = power - 1;
      values[n++] = power;
    }
  for (guint bit = 0; bit < 64; bit++)
    {
      values[n++] = ((guint64) 1 << bit) - 1;
      values[n++] = (guint64) 1 << bit;
    }
  values[n++] = G_MAXUINT64;
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (values));
  GString *expect = g_string_new (HEADER "\n");
  for (guint i = 0; i < n; i++)
    {
      guint64 v = values[i];
      if (v == 0)
        continue; /* bytes 0 is written as empty */
      gint64 start = v <= G_MAXINT64 ? -(gint64) v : G_MININT64 + 1;
      TimelineRow row = { i, 1, "s", "h2d", "h2d", 0, start, start, 0, v, 0, 0, NULL, NULL, NULL, NULL };
      g_assert_true (timeline_writer_add (w, &row, &error));
      g_string_append_printf (expect,
                              "%u,1,s,h2d,h2d,0,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                              ",0,%" G_GUINT64_FORMAT ",,,,\n",
                              i, start, start, v);
    }
  g_assert_true (timeline_writer_finish (w, &error));
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, expect->str);
  g_free (text);
  g_string_free (expect, TRUE);
  g_remove (path);
  g_free (path);
}

static void
test_in_memory (Fixture *f, gconstpointer data)
{
  (void) data;
  Timeline *t = timeline_new ("built");
  g_assert_cmpint (timeline_makespan (t), ==, 0);
  g_assert_cmpuint (timeline_n_rows (t), ==, 0);

  /* Rows are copied: the caller's strings may go away. */
  char *label = g_strdup ("k \"inc\", v2");
  TimelineRow row = sample_rows[1];
  row.label = label;
  timeline_append (t, &sample_rows[0]);
  timeline_append (t, &row);
  g_free (label);
  timeline_append (t, &sample_rows[2]);

  timeline_set_meta (t, "device", "c2050");
  timeline_set_meta (t, "schedule", "x.sched");
  timeline_set_meta (t, "device", "k20"); /* replaces */
  g_assert_cmpstr (timeline_meta (t, "device"), ==, "k20");
  g_assert_cmpstr (timeline_row (t, 1)->label, ==, "k \"inc\", v2");
  /* max (5000, 9000, 12000) */
  g_assert_cmpint (timeline_makespan (t), ==, 12000);

  char *path = g_build_filename (f->dir, "m.csv", NULL);
  GError *error = NULL;
  g_assert_true (timeline_write (t, path, &error));
  g_assert_no_error (error);
  timeline_free (t);

  t = timeline_read (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (timeline_n_rows (t), ==, 3);
  for (guint i = 0; i < 3; i++)
    assert_rows_equal (timeline_row (t, i), &sample_rows[i]);
  g_assert_cmpstr (timeline_meta (t, "device"), ==, "k20");
  g_assert_cmpstr (timeline_meta (t, "schedule"), ==, "x.sched");
  timeline_free (t);
  g_remove (path);
  g_free (path);
}

/* Columns in another order, optional ones left out, an unknown one ignored,
 * CRLF line ends, a comment that is not metadata, a blank line, and no
 * newline at the end. */
static void
test_column_order (Fixture *f, gconstpointer data)
{
  (void) data;
  const char *text =
    "# a note, not metadata\r\n"
    "# device: c1060\r\n"
    "\r\n"
    "end_ns,start_ns,issue_ns,engine,kind,stream,line,op,extra,cause\r\n"
    "30,20,10,copy,h2d,s1,4,0,whatever,\"behind op 9,\r\nthen more\"\r\n"
    "60,30,15,compute,kernel,s2,5,1,,";
  char *path = write_text (f, "o.csv", text, -1);
  GError *error = NULL;
  Timeline *t = timeline_read (path, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (timeline_n_rows (t), ==, 2);
  const TimelineRow *r = timeline_row (t, 0);
  g_assert_cmpuint (r->op, ==, 0);
  g_assert_cmpuint (r->line, ==, 4);
  g_assert_cmpstr (r->stream, ==, "s1");
  g_assert_cmpstr (r->kind, ==, "h2d");
  g_assert_cmpstr (r->engine, ==, "copy");
  g_assert_cmpint (r->issue, ==, 10);
  g_assert_cmpint (r->start, ==, 20);
  g_assert_cmpint (r->end, ==, 30);
  /* Absent columns: conn -1, the numbers 0, label NULL. */
  g_assert_cmpint (r->conn, ==, -1);
  g_assert_cmpuint (r->bytes, ==, 0);
  g_assert_cmpuint (r->grid, ==, 0);
  g_assert_null (r->label);
  /* Inside quotes a CRLF is data. */
  g_assert_cmpstr (r->cause, ==, "behind op 9,\r\nthen more");
  r = timeline_row (t, 1);
  g_assert_cmpuint (r->op, ==, 1);
  g_assert_cmpint (r->end, ==, 60);
  g_assert_null (r->cause);
  g_assert_cmpstr (timeline_meta (t, "device"), ==, "c1060");
  g_assert_null (timeline_meta (t, "a note, not metadata"));
  g_assert_cmpint (timeline_makespan (t), ==, 60);
  timeline_free (t);
  g_remove (path);
  g_free (path);
}

/* Rows with an issuing thread are written with the thread column last and
 * read back with it; a timeline of rows without one has no such column. */
static void
test_thread_column (Fixture *f, gconstpointer data)
{
  (void) data;
  Timeline *t = timeline_new ("threads");
  TimelineRow a = sample_rows[0], b = sample_rows[3];
  a.issuer = "main";
  b.issuer = "worker, 2";
  timeline_append (t, &a);
  timeline_append (t, &b);
  char *path = g_build_filename (f->dir, "t.csv", NULL);
  GError *error = NULL;
  g_assert_true (timeline_write (t, path, &error));
  g_assert_no_error (error);
  timeline_free (t);
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "label,cause,thread\n"));
  g_assert_nonnull (strstr (text, ",\"worker, 2\"\n"));
  g_free (text);
  t = timeline_read (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (timeline_row (t, 0)->issuer, ==, "main");
  g_assert_cmpstr (timeline_row (t, 1)->issuer, ==, "worker, 2");
  timeline_free (t);

  t = timeline_new ("one thread");
  timeline_append (t, &sample_rows[0]);
  g_assert_true (timeline_write (t, path, &error));
  timeline_free (t);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_null (strstr (text, "thread"));
  g_free (text);
  g_remove (path);
  g_free (path);
}

static void
test_header_only (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = write_text (f, "h.csv", "# device: k20\n" HEADER "\n", -1);
  GError *error = NULL;
  Timeline *t = timeline_read (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (timeline_n_rows (t), ==, 0);
  g_assert_cmpint (timeline_makespan (t), ==, 0);
  g_assert_cmpstr (timeline_meta (t, "device"), ==, "k20");
  timeline_free (t);
  g_remove (path);
  g_free (path);
}

/* Host work and device syncs belong to no stream: predict writes an empty
 * stream field for them, and it reads back as "". */
static void
test_empty_stream (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = write_text (f, "e.csv", HEADER "\n0,3,,sync,host,,0,0,500,,,,,sync until op 2 finished\n", -1);
  GError *error = NULL;
  Timeline *t = timeline_read (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (timeline_n_rows (t), ==, 1);
  g_assert_cmpstr (timeline_row (t, 0)->stream, ==, "");
  g_assert_cmpstr (timeline_row (t, 0)->kind, ==, "sync");
  g_assert_cmpint (timeline_row (t, 0)->end, ==, 500);
  timeline_free (t);
  g_remove (path);
  g_free (path);
}

typedef struct
{
  const char *name;
  const char *text;
  gssize len;              /* -1: NUL-terminated */
  const char *position;    /* "line:column: " */
  const char *message;     /* a part of the message */
} BadCase;

/* Positions counted by hand. In the row
 *   0,3,s1,h2d,h2d,0,100,200,300,...
 * the fields start in columns 1 (op), 3 (line), 5 (stream), 8 (kind),
 * 12 (engine), 16 (conn), 18 (issue_ns), 22 (start_ns), 26 (end_ns),
 * 30 (bytes), and with bytes, grid and block empty: 31 (grid), 32 (block),
 * 33 (label), 34 (cause). */
static const BadCase bad_cases[] = {
  { "empty", "", -1, "1:1: ", "no header row" },
  { "only-comments", "# device: k20\n", -1, "1:1: ", "no header row" },
  { "missing-column", "op,line,stream,kind,engine,issue_ns,start_ns\n", -1, "1:1: ",
    "the header has no column 'end_ns'" },
  /* "op,line,stream,kind,engine,issue_ns,start_ns,end_ns," is 52 characters. */
  { "duplicate-column", "op,line,stream,kind,engine,issue_ns,start_ns,end_ns,op\n", -1,
    "1:53: ", "column 'op' appears twice" },
  { "bad-integer", HEADER "\n0,3,s1,h2d,h2d,0,100,2x0,300,,,,,\n", -1, "2:22: ",
    "bad start_ns '2x0': expected a non-negative integer" },
  /* "é" is one character: columns count characters, not bytes. */
  { "bad-integer-utf8", HEADER "\n0,3,\xc3\xa9" "1,h2d,h2d,0,100,2x0,300,,,,,\n", -1, "2:22: ",
    "bad start_ns" },
  { "overflow-int64", HEADER "\n0,3,s1,h2d,h2d,0,100,9223372036854775808,9223372036854775808,,,,,\n",
    -1, "2:22: ", "start_ns '9223372036854775808' is too large; at most 9223372036854775807" },
  { "overflow-op", HEADER "\n4294967296,3,s1,h2d,h2d,0,100,200,300,,,,,\n", -1, "2:1: ",
    "op '4294967296' is too large; at most 4294967295" },
  { "overflow-huge", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,99999999999999999999999,,,,\n",
    -1, "2:30: ", "bytes '99999999999999999999999' is too large" },
  { "negative", HEADER "\n0,3,s1,h2d,h2d,0,-5,200,300,,,,,\n", -1, "2:18: ",
    "bad issue_ns '-5'" },
  { "bad-conn", HEADER "\n0,3,s1,h2d,h2d,-2,100,200,300,,,,,\n", -1, "2:16: ",
    "bad conn '-2'" },
  { "end-before-start", HEADER "\n0,3,s1,h2d,h2d,0,100,300,200,,,,,\n", -1, "2:26: ",
    "end_ns 200 is before start_ns 300" },
  { "duplicate-op", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,,,,,\n0,4,s1,h2d,h2d,0,100,200,300,,,,,\n",
    -1, "3:1: ", "op 0 appears twice (first on line 2)" },
  { "too-many-fields", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,,,,,,x\n", -1, "2:35: ",
    "this row has 15 fields, the header has 14" },
  /* The row is 28 characters long: the missing fields would start at 29. */
  { "too-few-fields", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300\n", -1, "2:29: ",
    "this row has 9 fields, the header has 14" },
  { "unterminated-quote", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,,,,\"oops,\n", -1, "2:33: ",
    "a quoted field is not closed" },
  { "after-closing-quote", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,,,,\"a\"b,\n", -1, "2:36: ",
    "text after the closing quote" },
  { "quote-in-field", HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,,,,a\"b,\n", -1, "2:34: ",
    "a quote inside an unquoted field" },
  { "nul-byte", HEADER "\n0,3,s\0,h2d,h2d,0,100,200,300,,,,,\n", sizeof (HEADER) + 34, "2:6: ",
    "a NUL byte" },
  { "invalid-utf8", HEADER "\n0,3,\xc3\xa9\xff,h2d,h2d,0,100,200,300,,,,,\n", -1, "2:6: ",
    "invalid UTF-8" },
  { "comment-after-header", HEADER "\n# device: k20\n", -1, "2:1: ",
    "a comment after the header" },
  /* (an empty stream is allowed: host work and syncs have none) */
  { "empty-kind", HEADER "\n0,3,s1,,h2d,0,100,200,300,,,,,\n", -1, "2:8: ",
    "empty kind; it is required" },
  { "empty-op", HEADER "\n,3,s1,h2d,h2d,0,100,200,300,,,,,\n", -1, "2:1: ",
    "empty op; it is required" },
  /* Metadata on line 1, the header on 2, a cause spanning lines 3 and 4:
   * the second row is on line 5 and its end_ns in column 26. */
  { "lines-after-multiline-field",
    "# device: k20\n" HEADER "\n0,3,s1,h2d,h2d,0,100,200,300,,,,,\"a\nb\"\n"
    "1,3,s1,h2d,h2d,0,100,300,200,,,,,\n", -1, "5:26: ", "end_ns 200 is before start_ns 300" },
};

static void
test_malformed (Fixture *f, gconstpointer data)
{
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      char *name = g_strconcat (c->name, ".csv", NULL);
      char *path = write_text (f, name, c->text, c->len);
      char *prefix = g_strconcat (path, ":", c->position, NULL);
      GError *error = NULL;

      Timeline *t = timeline_read (path, &error);
      g_assert_null (t);
      g_assert_error (error, TIMELINE_ERROR, TIMELINE_ERROR_PARSE);
      g_test_message ("%s: %s", c->name, error->message);
      if (!g_str_has_prefix (error->message, prefix) || strstr (error->message, c->message) == NULL)
        g_error ("case %s: message '%s' does not start with '%s' and contain '%s'",
                 c->name, error->message, prefix, c->message);

      g_error_free (error);
      g_remove (path);
      g_free (prefix);
      g_free (path);
      g_free (name);
    }
}

static void
test_read_missing (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = g_build_filename (f->dir, "none.csv", NULL);
  GError *error = NULL;
  g_assert_null (timeline_read (path, &error));
  g_assert_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO);
  g_error_free (error);
  g_free (path);
}

/* An aborted writer leaves no file, and leaves an existing file as it was. */
static void
test_abort (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = g_build_filename (f->dir, "a.csv", NULL);
  GError *error = NULL;

  TimelineWriter *w = timeline_writer_new (path, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (timeline_writer_add (w, &sample_rows[0], &error));
  g_assert_cmpuint (count_files (f->dir), ==, 1); /* the temporary file */
  timeline_writer_abort (w);
  g_assert_cmpuint (count_files (f->dir), ==, 0);

  /* An existing file survives an aborted rewrite. */
  w = timeline_writer_new (path, NULL, FALSE, &error);
  g_assert_true (timeline_writer_add (w, &sample_rows[0], &error));
  g_assert_true (timeline_writer_finish (w, &error));
  char *before = NULL;
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));

  w = timeline_writer_new (path, NULL, FALSE, &error);
  g_assert_true (timeline_writer_add (w, &sample_rows[1], &error));
  g_assert_true (timeline_writer_add (w, &sample_rows[2], &error));
  timeline_writer_abort (w);

  char *after = NULL;
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpstr (after, ==, HEADER "\n0,7,s1,h2d,h2d,0,0,1000,5000,4194304,,,chunk 1,\n");
  g_assert_cmpuint (count_files (f->dir), ==, 1);

  g_free (before);
  g_free (after);
  g_remove (path);
  g_free (path);
}

/* A temporary file is synced before it replaces a file that holds
 * something, and only then (output_file_needs_sync): not for a new or an
 * empty file, a device or a folder. Rewriting a file that exists (the
 * synced path) replaces it whole. */
static void
test_sync_only_to_replace (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = g_build_filename (f->dir, "r.csv", NULL);
  g_assert_false (output_file_needs_sync (path));
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  g_assert_false (output_file_needs_sync (path));
  g_assert_true (g_file_set_contents (path, "x\n", -1, NULL));
  g_assert_true (output_file_needs_sync (path));
  g_assert_false (output_file_needs_sync ("/dev/null"));
  g_assert_false (output_file_needs_sync (f->dir));

  GError *error = NULL;
  TimelineWriter *w = timeline_writer_new (path, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (timeline_writer_add (w, &sample_rows[0], &error));
  g_assert_true (timeline_writer_finish (w, &error));
  g_assert_no_error (error);
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, HEADER "\n0,7,s1,h2d,h2d,0,0,1000,5000,4194304,,,chunk 1,\n");
  g_assert_cmpuint (count_files (f->dir), ==, 1);

  g_free (text);
  g_remove (path);
  g_free (path);
}

/* A folder that does not exist: the writer fails at once, with an I/O
 * error, and creates nothing. */
static void
test_write_fails (Fixture *f, gconstpointer data)
{
  (void) data;
  char *path = g_build_filename (f->dir, "no-such-dir", "w.csv", NULL);
  GError *error = NULL;
  g_assert_null (timeline_writer_new (path, NULL, FALSE, &error));
  g_assert_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  Timeline *t = timeline_new (NULL);
  timeline_append (t, &sample_rows[0]);
  g_assert_false (timeline_write (t, path, &error));
  g_assert_error (error, TIMELINE_ERROR, TIMELINE_ERROR_IO);
  g_clear_error (&error);
  timeline_free (t);
  g_assert_cmpuint (count_files (f->dir), ==, 0);
  g_free (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/timeline/round-trip", test_round_trip);
  ADD ("/timeline/numbers", test_numbers);
  ADD ("/timeline/numbers-every-length", test_numbers_every_length);
  ADD ("/timeline/quote-boundaries", test_quote_boundaries);
  ADD ("/timeline/in-memory", test_in_memory);
  ADD ("/timeline/column-order", test_column_order);
  ADD ("/timeline/thread-column", test_thread_column);
  ADD ("/timeline/header-only", test_header_only);
  ADD ("/timeline/empty-stream", test_empty_stream);
  ADD ("/timeline/malformed", test_malformed);
  ADD ("/timeline/read-missing", test_read_missing);
  ADD ("/timeline/abort", test_abort);
  ADD ("/timeline/write-fails", test_write_fails);
  ADD ("/timeline/sync-only-to-replace", test_sync_only_to_replace);
#undef ADD
  return g_test_run ();
}
