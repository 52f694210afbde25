/* test_schedule.c: the schedule language: statements, streams, parameters, loops and every error's position. */
#include <glib.h>
#include <string.h>

#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"

#define SCHED_DIR SRCDIR "/tests/schedules/"

static Schedule *
parse_with (const char *text, const char *const *defines)
{
  ScheduleParseOptions options = { defines, 0 };
  GError *error = NULL;
  Schedule *sched;

  sched = schedule_parse_text ("t.sched", text, strlen (text), &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sched);
  return sched;
}

static Schedule *
parse (const char *text)
{
  return parse_with (text, NULL);
}

/* Parsing must fail with `code` and a message starting with `prefix`
 * ("file:line:column: ...") and containing `phrase` (what is allowed). */
static void
check_error (const char *text, gsize length, const char *const *defines, guint64 max_ops,
             ScheduleError code, const char *prefix, const char *phrase)
{
  ScheduleParseOptions options = { defines, max_ops };
  GError *error = NULL;
  Schedule *sched;
  char *start;

  sched = schedule_parse_text ("t.sched", text, length, &options, &error);
  g_assert_null (sched);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, SCHEDULE_ERROR, (gint) code);
  start = g_strndup (error->message, strlen (prefix));
  g_assert_cmpstr (start, ==, prefix);
  if (phrase != NULL && strstr (error->message, phrase) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, phrase);
  g_free (start);
  g_error_free (error);
}

static const SchedOp *
op_at (const Schedule *sched, gsize i)
{
  g_assert_cmpuint (i, <, schedule_n_ops (sched));
  return schedule_op (sched, i);
}

static void
test_empty (void)
{
  Schedule *sched = parse ("# nothing but a comment\n\n   \n");

  g_assert_cmpstr (schedule_path (sched), ==, "t.sched");
  g_assert_null (schedule_device (sched));
  g_assert_cmpuint (schedule_connections (sched), ==, 0);
  g_assert_cmpuint (schedule_n_streams (sched), ==, 1);
  g_assert_cmpstr (schedule_stream (sched, 0)->name, ==, "default");
  g_assert_cmpuint (schedule_stream (sched, 0)->line, ==, 0);
  g_assert_cmpuint (schedule_n_events (sched), ==, 0);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 0);
  schedule_free (sched);

  sched = schedule_parse_text ("t.sched", NULL, 0, NULL, NULL);
  g_assert_nonnull (sched);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 0);
  schedule_free (sched);
}

/* One of every statement; ops are numbered in file order, declarations make none. */
static void
test_statements (void)
{
  static const char text[] =
    "device k20\n"                                  /* 1 */
    "connections 8\n"                               /* 2 */
    "stream s1\n"                                   /* 3 */
    "h2d s1 4MiB\n"                                 /* 4  op 0 */
    "d2h s1 1.5MB pageable\n"                       /* 5  op 1 */
    "d2d s1 512\n"                                  /* 6  op 2 */
    "memcpy h2d 16MiB\n"                            /* 7  op 3 */
    "memcpy d2h 1KB pageable\n"                     /* 8  op 4 */
    "h2d s1 1KiB pinned\n"                          /* 9  op 5 */
    "kernel s1 grid=4096 block=256 time=1.08ms\n"   /* 10 op 6 */
    "record e1 s1\n"                                /* 11 op 7 */
    "wait default e1\n"                             /* 12 op 8 */
    "sync s1\n"                                     /* 13 op 9 */
    "sync e1\n"                                     /* 14 op 10 */
    "sync device\n"                                 /* 15 op 11 */
    "sync default\n"                                /* 16 op 12 */
    "host 2ms\n"                                    /* 17 op 13 */
    "  host 0\n"                                    /* 18 op 14 */
    "memset s1 64MiB\n"                             /* 19 op 15 */
    "hostfn s1 250us\n"                             /* 20 op 16 */
    "kernel s1 grid=1 block=32 block_time=1us loads\n" /* 21 op 17 */
    "thread w1\n"                                   /* 22 op 18 */
    "end\n"
    "join w1\n"                                     /* 24 op 19 */
    "malloc s1 1MiB\n"                              /* 25 op 20 */
    "free s1 1MiB\n";                               /* 26 op 21 */
  static const char *const kinds[] = {
    "h2d", "d2h", "d2d", "memcpy", "memcpy", "h2d", "kernel", "record", "wait",
    "sync", "sync", "sync", "sync", "host", "host", "memset", "hostfn", "kernel",
    "thread", "join", "malloc", "free",
  };
  Schedule *sched = parse (text);
  const SchedOp *op;

  g_assert_cmpstr (schedule_device (sched), ==, "k20");
  g_assert_cmpuint (schedule_connections (sched), ==, 8);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 22);
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_assert_cmpstr (schedule_op_kind_name (op_at (sched, i)), ==, kinds[i]);
      g_assert_cmpuint (op_at (sched, i)->line, ==, i < 19 ? i + 4 : i + 5);
      g_assert_null (op_at (sched, i)->label);
    }
  /* Every kind of op is here, so the names a timeline may hold
   * (schedule_kind_names) are exactly the ones these ops give. */
  const char *const *names = schedule_kind_names ();
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_assert_true (g_strv_contains (names, kinds[i]));
  for (gsize n = 0; names[n] != NULL; n++)
    {
      gboolean given = FALSE;
      for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
        given = given || strcmp (names[n], kinds[i]) == 0;
      g_assert_true (given);
    }

  op = op_at (sched, 0);
  g_assert_cmpint (op->kind, ==, SCHED_OP_COPY);
  g_assert_cmpint (op->u.copy.dir, ==, SCHED_DIR_H2D);
  g_assert_cmpuint (op->u.copy.bytes, ==, 4194304);
  g_assert_false (op->u.copy.pageable);
  g_assert_cmpuint (op->stream, ==, 1);
  g_assert_cmpuint (op->event, ==, SCHED_NONE);
  g_assert_cmpuint (op->column, ==, 1);

  op = op_at (sched, 1);
  g_assert_cmpint (op->u.copy.dir, ==, SCHED_DIR_D2H);
  g_assert_cmpuint (op->u.copy.bytes, ==, 1500000);
  g_assert_true (op->u.copy.pageable);

  op = op_at (sched, 2);
  g_assert_cmpint (op->u.copy.dir, ==, SCHED_DIR_D2D);
  g_assert_cmpuint (op->u.copy.bytes, ==, 512);

  op = op_at (sched, 3);
  g_assert_cmpint (op->kind, ==, SCHED_OP_MEMCPY);
  g_assert_cmpint (op->u.copy.dir, ==, SCHED_DIR_H2D);
  g_assert_cmpuint (op->u.copy.bytes, ==, 16777216);
  g_assert_cmpuint (op->stream, ==, SCHED_STREAM_DEFAULT);
  g_assert_false (op->u.copy.pageable);

  op = op_at (sched, 4);
  g_assert_cmpint (op->kind, ==, SCHED_OP_MEMCPY);
  g_assert_cmpint (op->u.copy.dir, ==, SCHED_DIR_D2H);
  g_assert_cmpuint (op->u.copy.bytes, ==, 1000);
  g_assert_true (op->u.copy.pageable);

  op = op_at (sched, 5);
  g_assert_false (op->u.copy.pageable);
  g_assert_cmpuint (op->u.copy.bytes, ==, 1024);

  op = op_at (sched, 6);
  g_assert_cmpint (op->kind, ==, SCHED_OP_KERNEL);
  g_assert_cmpuint (op->stream, ==, 1);
  g_assert_cmpuint (op->u.kernel.grid, ==, 4096);
  g_assert_cmpuint (op->u.kernel.block, ==, 256);
  g_assert_cmpint (op->u.kernel.block_time, ==, -1);
  g_assert_cmpuint (op->u.kernel.times, !=, SCHED_NONE);

  op = op_at (sched, 7);
  g_assert_cmpint (op->kind, ==, SCHED_OP_RECORD);
  g_assert_cmpuint (op->event, ==, 0);
  g_assert_cmpuint (op->stream, ==, 1);
  g_assert_cmpuint (schedule_n_events (sched), ==, 1);
  g_assert_cmpstr (schedule_event_name (sched, 0), ==, "e1");

  op = op_at (sched, 8);
  g_assert_cmpint (op->kind, ==, SCHED_OP_WAIT);
  g_assert_cmpuint (op->stream, ==, SCHED_STREAM_DEFAULT);
  g_assert_cmpuint (op->event, ==, 0);

  op = op_at (sched, 9);
  g_assert_cmpint (op->kind, ==, SCHED_OP_SYNC_STREAM);
  g_assert_cmpuint (op->stream, ==, 1);
  op = op_at (sched, 10);
  g_assert_cmpint (op->kind, ==, SCHED_OP_SYNC_EVENT);
  g_assert_cmpuint (op->event, ==, 0);
  g_assert_cmpuint (op->stream, ==, SCHED_NONE);
  op = op_at (sched, 11);
  g_assert_cmpint (op->kind, ==, SCHED_OP_SYNC_DEVICE);
  g_assert_cmpuint (op->stream, ==, SCHED_NONE);
  op = op_at (sched, 12);
  g_assert_cmpint (op->kind, ==, SCHED_OP_SYNC_STREAM);
  g_assert_cmpuint (op->stream, ==, SCHED_STREAM_DEFAULT);

  op = op_at (sched, 13);
  g_assert_cmpint (op->kind, ==, SCHED_OP_HOST);
  g_assert_cmpint (op->u.duration, ==, 2000000);
  op = op_at (sched, 14);
  g_assert_cmpint (op->u.duration, ==, 0);
  g_assert_cmpuint (op->column, ==, 3); /* indented by two blanks */

  op = op_at (sched, 15);
  g_assert_cmpint (op->kind, ==, SCHED_OP_MEMSET);
  g_assert_cmpuint (op->stream, ==, 1);
  g_assert_cmpuint (op->u.bytes, ==, 64u << 20);
  op = op_at (sched, 16);
  g_assert_cmpint (op->kind, ==, SCHED_OP_HOSTFN);
  g_assert_cmpuint (op->stream, ==, 1);
  g_assert_cmpint (op->u.duration, ==, 250000);
  g_assert_false (op_at (sched, 6)->u.kernel.loads);
  g_assert_true (op_at (sched, 17)->u.kernel.loads);

  g_assert_cmpstr (schedule_copy_dir_name (SCHED_DIR_H2D), ==, "h2d");
  g_assert_cmpstr (schedule_copy_dir_name (SCHED_DIR_D2H), ==, "d2h");
  g_assert_cmpstr (schedule_copy_dir_name (SCHED_DIR_D2D), ==, "d2d");
  schedule_free (sched);
}

/* Stream 0 is "default"; then creation order, loops included. */
static void
test_streams (void)
{
  static const char text[] =
    "stream a\n"                                /* 1 */
    "stream hi priority=-1 nonblocking\n"       /* 2 */
    "stream lo nonblocking priority=0\n"        /* 3 */
    "repeat i 2..4\n"                           /* 4 */
    "  stream s$i\n"                            /* 5 */
    "end\n"                                     /* 6 */
    "stream z priority=-5\n";                   /* 7 */
  static const char *const names[] = { "default", "a", "hi", "lo", "s2", "s3", "s4", "z" };
  static const guint lines[] = { 0, 1, 2, 3, 5, 5, 5, 7 };
  static const gint priorities[] = { 0, 0, -1, 0, 0, 0, 0, -5 };
  static const gboolean nonblocking[] = { FALSE, FALSE, TRUE, TRUE, FALSE, FALSE, FALSE, FALSE };
  Schedule *sched = parse (text);

  g_assert_cmpuint (schedule_n_streams (sched), ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const SchedStream *s = schedule_stream (sched, i);
      g_assert_cmpstr (s->name, ==, names[i]);
      g_assert_cmpuint (s->line, ==, lines[i]);
      g_assert_cmpint (s->priority, ==, priorities[i]);
      g_assert_cmpint (s->nonblocking, ==, nonblocking[i]);
      g_assert_cmpuint (schedule_find_stream (sched, names[i]), ==, i);
    }
  g_assert_cmpuint (schedule_find_stream (sched, "nope"), ==, SCHED_NONE);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 0);
  schedule_free (sched);
}

static void
test_kernel_attributes (void)
{
  static const char text[] =
    "stream s1\n"
    "kernel s1 grid=264 block=1024 block_time=200us smem=48KiB regs=64 label=k1\n"
    "kernel default block=32 grid=2147483647 time=0\n"
    "kernel s1 grid=1 block=1 regs=255 smem=4294967295 block_time=0\n";
  Schedule *sched = parse (text);
  const SchedDeviceTime *list;
  const SchedOp *op;
  guint n = 0;

  op = op_at (sched, 0);
  g_assert_cmpuint (op->stream, ==, 1);
  g_assert_cmpuint (op->u.kernel.grid, ==, 264);
  g_assert_cmpuint (op->u.kernel.block, ==, 1024);
  g_assert_cmpuint (op->u.kernel.smem, ==, 49152);
  g_assert_cmpuint (op->u.kernel.regs, ==, 64);
  g_assert_cmpint (op->u.kernel.block_time, ==, 200000);
  g_assert_cmpuint (op->u.kernel.times, ==, SCHED_NONE);
  g_assert_cmpstr (op->label, ==, "k1");

  op = op_at (sched, 1);
  g_assert_cmpuint (op->stream, ==, 0);
  g_assert_cmpuint (op->u.kernel.grid, ==, 2147483647);
  g_assert_cmpuint (op->u.kernel.block, ==, 32);
  g_assert_cmpuint (op->u.kernel.smem, ==, 0);
  g_assert_cmpuint (op->u.kernel.regs, ==, 0);
  g_assert_cmpint (op->u.kernel.block_time, ==, -1);
  list = schedule_time_list (sched, op->u.kernel.times, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_null (list[0].device);
  g_assert_cmpint (list[0].time, ==, 0);

  op = op_at (sched, 2);
  g_assert_cmpuint (op->u.kernel.regs, ==, 255);
  g_assert_cmpuint (op->u.kernel.smem, ==, G_MAXUINT32);
  g_assert_cmpint (op->u.kernel.block_time, ==, 0);
  schedule_free (sched);
}

/* Per-device lists and schedule_kernel_time: the earliest name of the
 * inheritance chain with an entry wins, then the bare fallback entry. */
static void
test_kernel_time (void)
{
  static const char text[] =
    "kernel default grid=64 block=256 time=c1060:4.3ms,c2050:1.1ms,k20:0.4ms\n" /* op 0 */
    "kernel default grid=64 block=256 time=h100:1ms,2ms\n"                     /* op 1 */
    "kernel default grid=64 block=256 time=h100:1ms,2ms\n"                     /* op 2 */
    "kernel default grid=64 block=256 time=3ms\n"                              /* op 3 */
    "kernel default grid=64 block=256 time=h100:1ms,h200:2ms\n";               /* op 4 */
  static const char *const k20[] = { "k20", NULL };
  static const char *const c2050[] = { "c2050", NULL };
  static const char *const h200_h100[] = { "h200", "h100", NULL };
  static const char *const h200[] = { "h200", NULL };
  static const char *const gh200_h200_h100[] = { "gh200", "h200", "h100", NULL };
  Schedule *sched = parse (text);
  const SchedDeviceTime *list;
  GError *error = NULL;
  SimTime t = -7;
  guint n = 0;

  list = schedule_time_list (sched, op_at (sched, 0)->u.kernel.times, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (list[0].device, ==, "c1060");
  g_assert_cmpint (list[0].time, ==, 4300000);
  g_assert_cmpstr (list[1].device, ==, "c2050");
  g_assert_cmpint (list[1].time, ==, 1100000);
  g_assert_cmpstr (list[2].device, ==, "k20");
  g_assert_cmpint (list[2].time, ==, 400000);

  g_assert_true (schedule_kernel_time (sched, op_at (sched, 0), k20, &t, &error));
  g_assert_no_error (error);
  g_assert_cmpint (t, ==, 400000);
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 0), c2050, &t, NULL));
  g_assert_cmpint (t, ==, 1100000);
  /* h200 has no entry, its parent h100 has. */
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 1), h200_h100, &t, NULL));
  g_assert_cmpint (t, ==, 1000000);
  /* Without the parent, the fallback. */
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 1), h200, &t, NULL));
  g_assert_cmpint (t, ==, 2000000);
  /* Identical time= texts share a list. */
  g_assert_cmpuint (op_at (sched, 2)->u.kernel.times, ==, op_at (sched, 1)->u.kernel.times);
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 3), k20, &t, NULL));
  g_assert_cmpint (t, ==, 3000000);
  /* The device's own entry beats its parent's even when listed later. */
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 4), h200_h100, &t, NULL));
  g_assert_cmpint (t, ==, 2000000);
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 4), gh200_h200_h100, &t, NULL));
  g_assert_cmpint (t, ==, 2000000);

  t = -7;
  g_assert_false (schedule_kernel_time (sched, op_at (sched, 0), h200, &t, &error));
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_UNDEFINED);
  g_assert_cmpstr (error->message, ==,
                   "t.sched:1:1: kernel has no time= for device 'h200' (the list has: c1060, c2050, k20); "
                   "add h200:TIME or a bare TIME as a fallback");
  g_assert_cmpint (t, ==, -7);
  g_clear_error (&error);
  schedule_free (sched);
}

/* `let`, then -D overriding it, defining a new name, and the last -D winning. */
static void
test_let_and_define (void)
{
  static const char text[] =
    "let chunk = 4MiB\n"
    "let n = 2\n"
    "let half = ${n/2}KiB\n"
    "let kargs = grid=4 block=256   # a value with blanks, comment stripped\n"
    "stream s1\n"
    "h2d s1 $chunk\n"           /* op 0 */
    "d2h s1 ${chunk}\n"         /* op 1 */
    "h2d s1 $half\n"            /* op 2 */
    "kernel s1 $kargs time=1ms\n"; /* op 3 */
  static const char *const d_chunk[] = { "chunk=8MiB", NULL };
  static const char *const d_n[] = { "n=6", NULL };
  static const char *const d_last[] = { "n=2", "n=4", NULL };
  static const char *const d_extra[] = { "extra=3", NULL };
  Schedule *sched;

  sched = parse (text);
  g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 4194304);
  g_assert_cmpuint (op_at (sched, 1)->u.copy.bytes, ==, 4194304);
  g_assert_cmpuint (op_at (sched, 2)->u.copy.bytes, ==, 1024);      /* 2/2 = 1 KiB */
  g_assert_cmpuint (op_at (sched, 3)->u.kernel.grid, ==, 4);
  g_assert_cmpuint (op_at (sched, 3)->u.kernel.block, ==, 256);
  schedule_free (sched);

  sched = parse_with (text, d_chunk);
  g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 8388608);
  g_assert_cmpuint (op_at (sched, 1)->u.copy.bytes, ==, 8388608);
  schedule_free (sched);

  sched = parse_with (text, d_n); /* lets computed from n see the -D: 6/2 = 3 KiB */
  g_assert_cmpuint (op_at (sched, 2)->u.copy.bytes, ==, 3072);
  schedule_free (sched);

  sched = parse_with (text, d_last); /* 4/2 = 2 KiB */
  g_assert_cmpuint (op_at (sched, 2)->u.copy.bytes, ==, 2048);
  schedule_free (sched);

  sched = parse_with ("host ${extra}us\n", d_extra);
  g_assert_cmpint (op_at (sched, 0)->u.duration, ==, 3000);
  schedule_free (sched);
  /* "$extra" alone is "3": a time without a unit. */
  check_error ("host 1us\nhost $extra\n", strlen ("host 1us\nhost $extra\n"), d_extra, 0, SCHEDULE_ERROR_SYNTAX,
               "t.sched:2:6: bad time '3'", "ns, us, ms or s");
}

/* A nested loop, expanded by hand: i = 1, 2; for each i one h2d, three
 * kernels (j = 1..n with n = 3) and one d2h; then the host op after the loop:
 * 2 * (1 + 3 + 1) + 1 = 11 ops. grid=$i$j concatenates the two digits. */
static void
test_repeat_nested (void)
{
  static const char text[] =
    "let n = 3\n"                                 /* 1 */
    "stream a\n"                                  /* 2 */
    "stream b\n"                                  /* 3 */
    "repeat i 1..2\n"                             /* 4 */
    "  h2d a ${i}KiB label=up$i\n"                /* 5 */
    "  repeat j 1..$n\n"                          /* 6 */
    "    kernel b grid=$i$j block=32 time=1us\n"  /* 7 */
    "  end\n"                                     /* 8 */
    "  d2h a ${i}KiB\n"                           /* 9 */
    "end\n"                                       /* 10 */
    "host 1ms\n";                                 /* 11 */
  static const struct
  {
    const char *kind;
    guint line;
    guint column;
    guint64 value; /* bytes or grid */
    const char *label;
  } expected[] = {
    { "h2d", 5, 3, 1024, "up1" },
    { "kernel", 7, 5, 11, NULL },
    { "kernel", 7, 5, 12, NULL },
    { "kernel", 7, 5, 13, NULL },
    { "d2h", 9, 3, 1024, NULL },
    { "h2d", 5, 3, 2048, "up2" },
    { "kernel", 7, 5, 21, NULL },
    { "kernel", 7, 5, 22, NULL },
    { "kernel", 7, 5, 23, NULL },
    { "d2h", 9, 3, 2048, NULL },
    { "host", 11, 1, 0, NULL },
  };
  Schedule *sched = parse (text);

  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (expected));
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const SchedOp *op = op_at (sched, i);
      g_assert_cmpstr (schedule_op_kind_name (op), ==, expected[i].kind);
      g_assert_cmpuint (op->line, ==, expected[i].line);
      g_assert_cmpuint (op->column, ==, expected[i].column);
      g_assert_cmpstr (op->label, ==, expected[i].label);
      if (op->kind == SCHED_OP_COPY)
        g_assert_cmpuint (op->u.copy.bytes, ==, expected[i].value);
      else if (op->kind == SCHED_OP_KERNEL)
        {
          g_assert_cmpuint (op->u.kernel.grid, ==, expected[i].value);
          g_assert_cmpuint (op->stream, ==, 2);
        }
    }
  schedule_free (sched);
}

/* Inner bounds that read the outer variable: 1 + 2 + 3 + 4 = 10 ops, each
 * lasting i us: 1, 2, 2, 3, 3, 3, 4, 4, 4, 4. Then j from i to 2 for i in
 * 0..2: 3 + 2 + 1 = 6 more. */
static void
test_repeat_dependent (void)
{
  static const char text[] =
    "repeat i 1..4\n"
    "  repeat j 1..$i\n"
    "    host ${i}us\n"
    "  end\n"
    "end\n"
    "repeat i 0..2\n"
    "  repeat j $i..2\n"
    "    host 1ns\n"
    "  end\n"
    "end\n";
  static const SimTime us[] = { 1, 2, 2, 3, 3, 3, 4, 4, 4, 4 };
  Schedule *sched = parse (text);

  g_assert_cmpuint (schedule_n_ops (sched), ==, 16);
  for (gsize i = 0; i < G_N_ELEMENTS (us); i++)
    g_assert_cmpint (op_at (sched, i)->u.duration, ==, us[i] * 1000);
  for (gsize i = 10; i < 16; i++)
    g_assert_cmpint (op_at (sched, i)->u.duration, ==, 1);
  schedule_free (sched);
}

/* ${a op b}: i = 1..3 with n = 8. */
static void
test_arithmetic (void)
{
  static const char text[] =
    "let n = 8\n"
    "repeat i 1..3\n"
    "  host ${i+1}us\n"        /* 2 3 4 */
    "  host ${i-1}us\n"        /* 0 1 2 */
    "  host ${i*2}us\n"        /* 2 4 6 */
    "  host ${i%2}us\n"        /* 1 0 1 */
    "  host ${n/2}us\n"        /* 4 4 4 */
    "  host ${ i * 10 }ns\n"   /* 10 20 30 ns */
    "  host ${7}us\n"          /* 7 7 7 */
    "end\n";
  static const SimTime ns[] = {
    2000, 0, 2000, 1000, 4000, 10, 7000,
    3000, 1000, 4000, 0, 4000, 20, 7000,
    4000, 2000, 6000, 1000, 4000, 30, 7000,
  };
  Schedule *sched = parse (text);

  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (ns));
  for (gsize i = 0; i < G_N_ELEMENTS (ns); i++)
    g_assert_cmpint (op_at (sched, i)->u.duration, ==, ns[i]);
  schedule_free (sched);

  /* The chain of the brief: each stream waits for the previous one's event. */
  sched = parse ("repeat i 1..3\n  stream s$i\nend\n"
                 "repeat i 1..3\n  record e$i s$i\nend\n"
                 "repeat i 2..3\n  wait s$i e${i-1}\nend\n");
  g_assert_cmpuint (schedule_n_ops (sched), ==, 5);
  g_assert_cmpuint (schedule_n_events (sched), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const SchedOp *op = op_at (sched, i);
      g_assert_cmpint (op->kind, ==, SCHED_OP_RECORD);
      g_assert_cmpuint (op->stream, ==, i + 1);
      g_assert_cmpuint (op->event, ==, i);
    }
  g_assert_cmpint (op_at (sched, 3)->kind, ==, SCHED_OP_WAIT);
  g_assert_cmpuint (op_at (sched, 3)->stream, ==, 2); /* s2 */
  g_assert_cmpuint (op_at (sched, 3)->event, ==, 0);  /* e1 */
  g_assert_cmpuint (op_at (sched, 4)->stream, ==, 3); /* s3 */
  g_assert_cmpuint (op_at (sched, 4)->event, ==, 1);  /* e2 */
  schedule_free (sched);
}

static void
test_labels (void)
{
  static const char text[] =
    "stream s\n"
    "h2d s 1KiB label=in pageable\n"
    "memcpy d2h 1KiB label=back\n"
    "kernel s grid=1 block=1 time=1us label=work\n"
    "record e s label=mark\n"
    "wait s e label=hold\n"
    "sync s label=x\n"
    "sync e label=x\n"
    "sync device label=all\n"
    "host 1us label=cpu\n"
    "d2d s 1 label=in\n";
  static const char *const labels[] = {
    "in", "back", "work", "mark", "hold", "x", "x", "all", "cpu", "in",
  };
  Schedule *sched = parse (text);

  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (labels));
  for (gsize i = 0; i < G_N_ELEMENTS (labels); i++)
    g_assert_cmpstr (op_at (sched, i)->label, ==, labels[i]);
  g_assert_true (op_at (sched, 0)->u.copy.pageable);
  /* Interned: equal labels are one string. */
  g_assert_true (op_at (sched, 0)->label == op_at (sched, 9)->label);
  g_assert_true (op_at (sched, 5)->label == op_at (sched, 6)->label);
  schedule_free (sched);
}

/* `sync NAME`: a stream first, then an event (created if new: a sync or
 * wait on an event never recorded is allowed once `event NAME` declares it,
 * anywhere in the file). */
static void
test_sync_resolution (void)
{
  Schedule *sched = parse ("stream x\nrecord y x\nsync x\nsync y\nsync z\nsync default\n"
                           "sync device\nwait x never\nevent z\nevent never\n");

  g_assert_cmpuint (schedule_n_ops (sched), ==, 7);
  g_assert_cmpint (op_at (sched, 1)->kind, ==, SCHED_OP_SYNC_STREAM);
  g_assert_cmpuint (op_at (sched, 1)->stream, ==, 1);
  g_assert_cmpint (op_at (sched, 2)->kind, ==, SCHED_OP_SYNC_EVENT);
  g_assert_cmpuint (op_at (sched, 2)->event, ==, 0);
  g_assert_cmpint (op_at (sched, 3)->kind, ==, SCHED_OP_SYNC_EVENT);
  g_assert_cmpuint (op_at (sched, 3)->event, ==, 1);
  g_assert_cmpint (op_at (sched, 4)->kind, ==, SCHED_OP_SYNC_STREAM);
  g_assert_cmpuint (op_at (sched, 4)->stream, ==, SCHED_STREAM_DEFAULT);
  g_assert_cmpint (op_at (sched, 5)->kind, ==, SCHED_OP_SYNC_DEVICE);
  g_assert_cmpuint (op_at (sched, 6)->event, ==, 2);
  g_assert_cmpuint (schedule_n_events (sched), ==, 3);
  g_assert_cmpstr (schedule_event_name (sched, 0), ==, "y");
  g_assert_cmpstr (schedule_event_name (sched, 1), ==, "z");
  g_assert_cmpstr (schedule_event_name (sched, 2), ==, "never");
  schedule_free (sched);
}

/* `poll NAME [every=TIME]`: a stream first, then an event, as `sync`; the
 * time between queries in u.duration (0 when left out), either order of
 * every= and label=. */
static void
test_poll (void)
{
  Schedule *sched = parse ("stream x\nrecord y x\npoll x\npoll y every=20us\n"
                           "poll x label=p every=1.5us\nsync x\n");

  g_assert_cmpuint (schedule_n_ops (sched), ==, 5);
  g_assert_cmpint (op_at (sched, 1)->kind, ==, SCHED_OP_SYNC_STREAM);
  g_assert_true (op_at (sched, 1)->poll);
  g_assert_cmpint (op_at (sched, 1)->u.duration, ==, 0);
  g_assert_cmpint (op_at (sched, 2)->kind, ==, SCHED_OP_SYNC_EVENT);
  g_assert_cmpuint (op_at (sched, 2)->event, ==, 0);
  g_assert_true (op_at (sched, 2)->poll);
  g_assert_cmpint (op_at (sched, 2)->u.duration, ==, 20000);
  g_assert_cmpint (op_at (sched, 3)->u.duration, ==, 1500);
  g_assert_cmpstr (op_at (sched, 3)->label, ==, "p");
  g_assert_false (op_at (sched, 4)->poll);
  /* a poll never sleeps, whatever the device's flags */
  Schedule *blocking = parse ("device_schedule blocking_sync\nstream x\npoll x\nsync x\n");
  g_assert_false (schedule_wait_blocks (blocking, op_at (blocking, 0)));
  g_assert_true (schedule_wait_blocks (blocking, op_at (blocking, 1)));
  schedule_free (blocking);
  schedule_free (sched);
}

/* CRLF, tabs, blank and comment-only lines, and a last line without a newline. */
static void
test_line_endings (void)
{
  Schedule *sched = parse ("device k20\r\n\r\n  # only a comment\r\n\tstream s1   # trailing\r\n"
                           "h2d s1 1KiB\r\nhost 1us");

  g_assert_cmpstr (schedule_device (sched), ==, "k20");
  g_assert_cmpuint (schedule_n_streams (sched), ==, 2);
  g_assert_cmpuint (schedule_stream (sched, 1)->line, ==, 4);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 2);
  g_assert_cmpuint (op_at (sched, 0)->line, ==, 5);
  g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 1024);
  g_assert_cmpuint (op_at (sched, 1)->line, ==, 6);
  g_assert_cmpint (op_at (sched, 1)->u.duration, ==, 1000);
  schedule_free (sched);
}

/* Words end at any blank and at nothing else, wherever they fall: every
 * word length from 1 to 17 and indent from 0 to 9, with each blank as the
 * separator, and with bytes inside a label that are not blanks but sort
 * below or above them (a control character, UTF-8). Expected: the text as
 * written. */
static void
test_word_boundaries (void)
{
  static const char blanks[] = { ' ', '\t', '\v', '\f', '\r' };
  static const char *const inside[] = { "", "\x01", "\x1f", "!", "\xc3\xa9" };

  for (gsize b = 0; b < G_N_ELEMENTS (blanks); b++)
    for (gsize name_len = 1; name_len <= 17; name_len++)
      for (gsize indent = 0; indent <= 9; indent++)
        for (gsize in = 0; in < G_N_ELEMENTS (inside); in++)
          {
            char sep = blanks[b];
            char *name = g_strnfill (name_len, 's');
            char *pad = g_strnfill (indent, sep);
            char *label = g_strdup_printf ("%.*s%s%.*s", (int) (name_len / 2), name, inside[in],
                                           (int) (name_len - name_len / 2), name);
            char *text = g_strdup_printf ("stream%c%s\n%sh2d%c%s%c%c1KiB%clabel=%s%c\n", sep, name,
                                          pad, sep, name, sep, sep, sep, label, sep);
            Schedule *sched = parse (text);

            g_assert_cmpuint (schedule_n_streams (sched), ==, 2);
            g_assert_cmpstr (schedule_stream (sched, 1)->name, ==, name);
            g_assert_cmpuint (schedule_n_ops (sched), ==, 1);
            g_assert_cmpint (op_at (sched, 0)->kind, ==, SCHED_OP_COPY);
            g_assert_cmpuint (op_at (sched, 0)->stream, ==, 1);
            g_assert_cmpuint (op_at (sched, 0)->column, ==, indent + 1);
            g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 1024);
            g_assert_cmpstr (op_at (sched, 0)->label, ==, label);
            schedule_free (sched);
            g_free (text);
            g_free (label);
            g_free (pad);
            g_free (name);
          }
}

/* The scan of each line (schedule_scan.c) finds its end, its comment, a
 * '$' and bytes that are not ASCII. Each of them is put at every offset
 * from 0 to 17 within its line (an indent of k blanks), with the next
 * line's '#', '$' and UTF-8 right after the '\n', where they must not
 * count, and a last line without one.
 * Expected, by hand: the statements as written, with `${n}` as 5, and errors
 * at column k + 1. */
static void
test_scan_boundaries (void)
{
  for (guint k = 0; k <= 17; k++)
    {
      char *pad = g_strnfill (k, ' ');
      char *text = g_strdup_printf ("let n = 5\n"
                                    "%sh2d default ${n}KiB#c$x\xc3\xa9\n"
                                    "%sh2d default 1KiB#\n"
                                    "#$\xc3\xa9\n"
                                    "%sh2d default 2KiB\n"
                                    "%shost ${n}us",
                                    pad, pad, pad, pad);
      Schedule *sched = parse (text);
      g_assert_cmpuint (schedule_n_ops (sched), ==, 4);
      g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 5 * 1024);
      g_assert_cmpuint (op_at (sched, 0)->column, ==, k + 1);
      g_assert_cmpuint (op_at (sched, 1)->u.copy.bytes, ==, 1024);
      g_assert_cmpuint (op_at (sched, 2)->u.copy.bytes, ==, 2048);
      g_assert_cmpuint (op_at (sched, 2)->line, ==, 5);
      g_assert_cmpint (op_at (sched, 3)->u.duration, ==, 5000);
      g_assert_cmpuint (op_at (sched, 3)->column, ==, k + 1);
      schedule_free (sched);
      g_free (text);

      g_autofree char *bad = g_strdup_printf ("host 1us\n%s\xff\n", pad);
      g_autofree char *where = g_strdup_printf ("t.sched:2:%u: invalid UTF-8", k + 1);
      check_error (bad, strlen (bad), NULL, 0, SCHEDULE_ERROR_SYNTAX, where, NULL);
      g_autofree char *nul = g_strdup_printf ("host 1us\n%sx", pad);
      gsize nul_len = strlen (nul);
      nul[nul_len - 1] = '\0';
      g_autofree char *nul_where = g_strdup_printf ("t.sched:2:%u: NUL byte", k + 1);
      check_error (nul, nul_len, NULL, 0, SCHEDULE_ERROR_SYNTAX, nul_where, NULL);
      g_free (pad);
    }
}

static void
test_file (void)
{
  static const char *const d_chunk[] = { "chunk=1MiB", NULL };
  ScheduleParseOptions options = { d_chunk, 0 };
  GError *error = NULL;
  Schedule *sched;
  SimTime t = 0;
  static const char *const k20[] = { "k20", NULL };

  /* tests/schedules/example.sched: 6 streams (default, s1, hi, s2..s4),
   * 12 ops from line 11 on. */
  sched = schedule_parse_file (SCHED_DIR "example.sched", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (schedule_path (sched), ==, SCHED_DIR "example.sched");
  g_assert_cmpstr (schedule_device (sched), ==, "k20");
  g_assert_cmpuint (schedule_connections (sched), ==, 8);
  g_assert_cmpuint (schedule_n_streams (sched), ==, 6);
  g_assert_cmpstr (schedule_stream (sched, 5)->name, ==, "s4");
  g_assert_cmpuint (schedule_n_ops (sched), ==, 12);
  g_assert_cmpuint (op_at (sched, 0)->line, ==, 11);
  g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 4194304);
  g_assert_cmpuint (op_at (sched, 11)->line, ==, 22);
  g_assert_true (schedule_kernel_time (sched, op_at (sched, 5), k20, &t, NULL));
  g_assert_cmpint (t, ==, 400000);
  schedule_free (sched);

  sched = schedule_parse_file (SCHED_DIR "example.sched", &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (op_at (sched, 0)->u.copy.bytes, ==, 1048576);
  schedule_free (sched);

  sched = schedule_parse_file (SCHED_DIR "bad-undefined-stream.sched", NULL, &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_UNDEFINED);
  g_assert_true (g_str_has_prefix (error->message, SCHED_DIR "bad-undefined-stream.sched:4:8: "));
  g_clear_error (&error);

  sched = schedule_parse_file ("/nonexistent/x.sched", NULL, &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "cannot read /nonexistent/x.sched: No such file or directory");
  g_clear_error (&error);

  sched = schedule_parse_file (SRCDIR "/tests", NULL, &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, SCHEDULE_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "cannot read " SRCDIR "/tests: it is a directory");
  g_clear_error (&error);
}

/* 200000 kernels from one loop: all ops present, one shared time list, and
 * the op stays compact (the benchmark budgets ~200 bytes per op). */
static void
test_large (void)
{
  Schedule *sched = parse ("stream s\nrepeat i 1..200000\n  kernel s grid=$i block=128 time=2us\nend\n");

  g_assert_cmpuint (sizeof (SchedOp), <=, 64);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 200000);
  g_assert_cmpuint (op_at (sched, 199999)->u.kernel.grid, ==, 200000);
  g_assert_cmpuint (op_at (sched, 199999)->u.kernel.times, ==, op_at (sched, 0)->u.kernel.times);
  schedule_free (sched);
}

/* --max-ops: exactly the limit is fine, one more is refused; a dependent
 * loop stops counting past the limit: 1 + 2 + ... + 14 = 105 > 100. */
static void
test_max_ops (void)
{
  ScheduleParseOptions options = { NULL, 10 };
  const char *ten = "repeat i 1..10\n  host 1us\nend\n";
  const char *eleven = "host 1us\nrepeat i 1..10\n  host 1us\nend\n";
  const char *triangle = "repeat i 1..1000000\n  repeat j 1..$i\n    host 1us\n  end\nend\n";
  const char *streams = "repeat i 1..100\n  stream s$i\nend\n";
  GError *error = NULL;
  Schedule *sched;

  sched = schedule_parse_text ("t.sched", ten, strlen (ten), &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 10);
  schedule_free (sched);

  check_error (eleven, strlen (eleven), NULL, 10, SCHEDULE_ERROR_LIMIT,
               "t.sched:2:1: the schedule expands to 11 ops, more than --max-ops 10", NULL);
  check_error (triangle, strlen (triangle), NULL, 100, SCHEDULE_ERROR_LIMIT,
               "t.sched:1:1: the schedule expands to more than 105 ops, more than --max-ops 100", NULL);
  check_error (streams, strlen (streams), NULL, 10, SCHEDULE_ERROR_LIMIT,
               "t.sched:1:1: the schedule expands to 100 declarations, more than --max-ops 10",
               NULL);
}

typedef struct
{
  const char *name;
  const char *text;
  const char *const *defines;
  ScheduleError code;
  const char *prefix;
  const char *phrase;
} BadCase;

static const char *const d_no_equals[] = { "chunk", NULL };
static const char *const d_bad_name[] = { "1x=3", NULL };
static const char *const d_loop_name[] = { "i=3", NULL };

/* Columns are counted by hand on the text; each is the offending token's (or
 * the `$` of a substitution's, or the statement's when something is missing). */
static const BadCase bad_cases[] = {
  { "unknown-statement", "stream s1\nlaunch s1 grid=1\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:1: unknown statement 'launch'", "expected one of device," },
  { "unknown-attribute", "stream s1\nkernel s1 grdi=4 block=256 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:11: unknown kernel attribute 'grdi'", "grid=BLOCKS" },
  { "time-and-block-time", "kernel default grid=1 block=1 time=1ms block_time=1us\n", NULL,
    SCHEDULE_ERROR_SYNTAX, "t.sched:1:40: give exactly one of time= or block_time=", NULL },
  { "no-time", "kernel default grid=1 block=1\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:1: give exactly one of time= or block_time=", NULL },
  { "missing-grid", "\n  kernel default block=256 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:3: kernel needs grid=", "1 to 2147483647" },
  { "missing-block", "kernel default grid=4 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:1: kernel needs block=", "1 to 1024" },
  { "grid-zero", "kernel default grid=0 block=1 time=1ms\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:16: grid=0 is out of range", "1 to 2147483647" },
  { "grid-too-large", "kernel default grid=2147483648 block=1 time=1ms\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:16: grid=2147483648 is out of range", NULL },
  { "grid-junk", "kernel default grid=4k block=1 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:16: grid=4k: expected a whole number", NULL },
  { "grid-twice", "kernel default grid=4 grid=5 block=1 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:23: grid= is given twice", NULL },
  { "block-1025", "kernel default grid=1 block=1025 time=1ms\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:23: block=1025 is out of range", "1 to 1024" },
  { "regs-256", "kernel default grid=1 block=1 regs=256 time=1ms\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:31: regs=256 is out of range", "1 to 255" },
  { "smem-4GiB", "kernel default grid=1 block=1 smem=4GiB time=1ms\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:31: smem=4GiB is out of range", "below 4GiB" },
  { "stray-kernel-token", "kernel default grid=1 block=1 fast time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:31: unexpected 'fast'", "grid=BLOCKS" },
  { "duplicate-device-in-time-list",
    "kernel default grid=1 block=1 time=k20:1ms,c2050:2ms,k20:3ms\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:1:54: device 'k20' appears twice in time=", NULL },
  { "two-fallbacks", "kernel default grid=1 block=1 time=1ms,2ms\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:1:40: time= has two entries without a device", NULL },
  { "bad-time-in-list", "kernel default grid=1 block=1 time=k20:fast\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:40: bad time 'fast' in time=", "ns, us, ms or s" },
  { "empty-time-entry", "kernel default grid=1 block=1 time=k20:1ms,\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:44: empty entry in time=", NULL },
  { "empty-grid", "kernel default grid= block=1 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:16: grid= has no value", "a whole number, 1 to" },
  { "empty-grid-for-device", "kernel default grid=k20: block=1 time=1ms\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:25: grid= has no value", NULL },
  { "undefined-stream", "stream s1\nh2d s2 4MiB\n", NULL, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:2:5: undefined stream 's2'", "declare it with `stream s2`" },
  { "stream-used-before-declaration", "h2d s1 4MiB\nstream s1\n", NULL, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:1:5: undefined stream 's1'", "before its first use" },
  /* no `stream device` or `stream a/b` is advised: those are refused too */
  { "reserved-stream-name", "h2d device 4MiB\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:5: 'device' is not a stream name", "`device` is reserved" },
  { "bad-stream-name", "h2d a/b 4MiB\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:5: 'a/b' is not a stream name", "letters, digits" },
  { "undefined-parameter", "stream s1\nh2d s1 $chunk\n", NULL, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:2:8: undefined parameter 'chunk'", "let chunk = VALUE" },
  { "undefined-in-braces", "host ${x+1}us\n", NULL, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:1:8: undefined parameter 'x'", NULL },
  { "parameter-before-let", "host ${t}\nlet t = 1ms\n", NULL, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:1:6: parameter 't' is used before its `let` at line 2", NULL },
  { "duplicate-stream", "stream s1\n# comment\nstream  s1 priority=-1\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:3:9: stream 's1' is declared twice; the first declaration is at line 1", NULL },
  { "duplicate-stream-in-loop", "repeat i 1..3\n  stream s${i%2}\nend\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:10: stream 's1' is declared twice; the first declaration is at line 2", NULL },
  { "stream-default", "stream default\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:1:8: 'default' is the legacy default stream", NULL },
  { "unknown-stream-attribute", "stream s1 urgent\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:11: unknown stream attribute 'urgent'", "priority=N" },
  { "priority-1", "stream s1 priority=1\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:11: priority=1 is out of range", "-5 (most urgent) to 0" },
  { "priority-minus-6", "stream s1 nonblocking priority=-6\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:23: priority=-6 is out of range", NULL },
  { "event-named-like-stream", "stream s1\nrecord s1 s1\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:8: 's1' is a stream, not an event", NULL },
  { "stream-named-like-event", "record e1 default\nstream e1\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:8: 'e1' is already an event (first used at line 1)", NULL },
  { "event-used-as-stream", "record e1 default\nwait e1 e1\n", NULL, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:2:6: 'e1' is an event (first used at line 1), not a stream", NULL },
  { "duplicate-let", "let a = 1\nlet a = 2\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:5: parameter 'a' is defined twice; the first `let` is at line 1", NULL },
  { "let-without-value", "let a =\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:8: `let a =` needs a value", NULL },
  { "let-named-as-loop-variable", "repeat i 1..2\n  let i = 3\n  host 1us\nend\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:7: parameter 'i' has the name of the variable of the enclosing loop at line 1", NULL },
  { "connections-0", "connections 0\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:13: connections 0 is out of range", "1 to 32" },
  { "connections-33", "connections 33\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:13: connections 33 is out of range", "1 to 32" },
  { "connections-twice", "connections 4\nconnections 8\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:1: `connections` is given twice; the first is at line 1", NULL },
  { "device-twice", "device k20\ndevice c2050\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:1: `device` is given twice; the first is at line 1", NULL },
  { "negative-time", "host -2ms\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:6: bad time '-2ms': negative", NULL },
  { "size-overflow", "h2d default 99999999999GiB\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:1:13: bad size '99999999999GiB': too large", NULL },
  { "stray-size-unit", "h2d default 4 MiB\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:15: unexpected 'MiB'; expected `h2d STREAM SIZE", NULL },
  { "pageable-and-pinned", "d2h default 1MiB pageable pinned\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:27: give at most one of pageable or pinned", NULL },
  { "memcpy-bad-direction", "memcpy up 4MiB\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:8: unknown copy direction 'up'", "h2d, d2h or d2d" },
  { "label-twice", "host 1us label=a label=b\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:18: label= is given twice", NULL },
  { "stray-token", "host 1us extra\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:10: unexpected 'extra'; expected `host TIME [label=NAME]`", NULL },
  { "sync-alone", "sync\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:1: expected `sync STREAM`, `sync EVENT` or `sync device`", NULL },
  { "poll-alone", "poll\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:1: expected `poll STREAM` or `poll EVENT`", NULL },
  { "poll-device", "poll device\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:6: CUDA has no query of the whole device", "sync device" },
  { "poll-every-twice", "stream s\npoll s every=1us every=2us\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:18: every= is given twice", NULL },
  { "poll-every-bad", "stream s\npoll s every=fast\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:8: bad time every=fast", NULL },
  { "poll-stray", "stream s\npoll s soon\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:8: unexpected 'soon'; expected `poll STREAM` or `poll EVENT`", NULL },
  { "poll-in-graph", "stream s\ngraph s\n  poll s\nend\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:3:3: `poll` cannot stand inside a graph", NULL },
  { "huge-loop", "repeat i 1..1000000000000000\n  h2d default 1\nend\n", NULL, SCHEDULE_ERROR_LIMIT,
    "t.sched:1:1: the schedule expands to 1000000000000000 ops, more than --max-ops 50000000", NULL },
  { "huge-nested-loops",
    "host 1us\nrepeat i 1..1000000\n  repeat j 1..1000000\n    repeat k 1..1000000\n"
    "      host 1us\n    end\n  end\nend\n", NULL, SCHEDULE_ERROR_LIMIT,
    "t.sched:2:1: the schedule expands to 1000000000000000001 ops, more than --max-ops 50000000", NULL },
  { "missing-end", "host 1us\nrepeat i 1..2\n  host 1us\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:1: `repeat` without a matching `end`", NULL },
  { "stray-end", "host 1us\nend # done\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:1: `end` without a `repeat`", NULL },
  { "end-with-text", "repeat i 1..2\nend i\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:5: unexpected text after `end`", NULL },
  /* 10^11 iterations whose `if` is never taken: refused before they run */
  { "idle-iterations", "repeat i 1..100000000000\n  if 0\n    host 1us\n  end\nend\n", NULL,
    SCHEDULE_ERROR_LIMIT, "t.sched:1:1: the schedule expands to 100000000000 loop iterations that "
    "issue nothing, more than --max-ops 50000000", NULL },
  { "range-junk", "repeat i 1...3\n  host 1us\nend\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:10: expected a range A..B", NULL },
  { "repeat-bad-variable", "repeat 1x 1..2\n  host 1us\nend\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:8: '1x' is not a loop variable name", NULL },
  { "loop-variable-is-let", "let i = 2\nrepeat i 1..2\n  host 1us\nend\n", NULL, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:8: loop variable 'i' has the name of the parameter defined at line 1", NULL },
  { "loop-variable-is-define", "repeat i 1..2\n  host 1us\nend\n", d_loop_name, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:1:8: loop variable 'i' has the name of a -D parameter", NULL },
  { "loop-variable-nested-twice", "repeat i 1..2\nrepeat i 1..2\nhost 1us\nend\nend\n", NULL,
    SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:8: loop variable 'i' is already the variable of the enclosing loop at line 1", NULL },
  { "dollar-without-name", "host $1us\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:6: '$' must be followed by a name or {expression}", NULL },
  { "unterminated-brace", "host ${i\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:6: '${' without a closing '}'", NULL },
  { "operand-missing", "repeat i 1..2\nhost ${i+}us\nend\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:10: '${i+}': expected a name, an integer or '(' at the end", NULL },
  { "division-by-zero", "repeat i 1..2\nhost ${i/0}us\nend\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:2:9: '${i/0}': division by zero", NULL },
  { "arithmetic-on-size", "let c = 4MiB\nh2d default ${c*2}\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:15: '${c*2}': 'c' is '4MiB', not an integer", NULL },
  { "negative-from-arithmetic", "repeat i 1..2\n  host ${i-5}us\nend\n", NULL, SCHEDULE_ERROR_RANGE,
    "t.sched:2:8: bad time '-4us': negative", NULL },
  { "keyword-from-substitution", "let kw = end\n$kw\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:1: `end` must be written out", NULL },
  { "invalid-utf8", "host 1us\nhost \xff" "1us\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:2:6: invalid UTF-8", NULL },
  { "invalid-utf8-in-comment", "host 1us # caf\xc3\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:15: invalid UTF-8", NULL },
  /* in the third 8-byte word of the line (byte 19, column 20) */
  { "invalid-utf8-third-word", "host 1us # abcdefgh\xffijklmnop\n", NULL, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:20: invalid UTF-8", NULL },
  { "define-without-equals", "h2d default $chunk\n", d_no_equals, SCHEDULE_ERROR_SYNTAX,
    "-D chunk: expected -D NAME=VALUE", NULL },
  { "define-bad-name", "host 1us\n", d_bad_name, SCHEDULE_ERROR_SYNTAX,
    "-D 1x=3: '1x' is not a parameter name", NULL },
};

static void
test_bad_case (gconstpointer data)
{
  const BadCase *c = data;
  check_error (c->text, strlen (c->text), c->defines, 0, c->code, c->prefix, c->phrase);
}

static void
test_bad_nul (void)
{
  static const char text[] = "host 1us\nho\0st 1us\n";
  check_error (text, sizeof text - 1, NULL, 0, SCHEDULE_ERROR_SYNTAX, "t.sched:2:3: NUL byte", NULL);
  /* in the second 8-byte word of the line: byte 10, column 11 */
  static const char late[] = "host 1us #\0 and more text\n";
  check_error (late, sizeof late - 1, NULL, 0, SCHEDULE_ERROR_SYNTAX, "t.sched:1:11: NUL byte",
               NULL);
}

/* 16 nested loops are fine; the 17th `repeat`, on line 17, is refused. */
static void
test_bad_depth (void)
{
  GString *text = g_string_new (NULL);
  Schedule *sched;

  for (int d = 0; d < 16; d++)
    g_string_append_printf (text, "repeat v%d 1..1\n", d);
  g_string_append (text, "host 1us\n");
  for (int d = 0; d < 16; d++)
    g_string_append (text, "end\n");
  sched = parse (text->str);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 1);
  schedule_free (sched);

  g_string_truncate (text, 0);
  for (int d = 0; d < 17; d++)
    g_string_append_printf (text, "repeat v%d 1..1\n", d);
  g_string_append (text, "host 1us\n");
  for (int d = 0; d < 17; d++)
    g_string_append (text, "end\n");
  check_error (text->str, text->len, NULL, 0, SCHEDULE_ERROR_LIMIT,
               "t.sched:17:1: repeat, if, graph and thread blocks nest at most 16 deep", NULL);
  g_string_free (text, TRUE);
}

/* A line of 4096 bytes is fine, 4097 is not; nor is 4097 after substitution. */
static void
test_bad_long_line (void)
{
  GString *text = g_string_new ("host 1us\n# ");
  Schedule *sched;

  for (int i = 0; i < 4094; i++)
    g_string_append_c (text, 'x');
  g_string_append_c (text, '\n');
  sched = parse (text->str);
  schedule_free (sched);

  g_string_insert_c (text, 12, 'x');
  check_error (text->str, text->len, NULL, 0, SCHEDULE_ERROR_LIMIT,
               "t.sched:2:4097: the line is 4097 bytes long", "at most 4096 bytes");

  /* "host " + 3000 bytes fit; the second $v, at column 8, does not. */
  g_string_assign (text, "let v = ");
  for (int i = 0; i < 3000; i++)
    g_string_append_c (text, 'x');
  g_string_append (text, "\nhost $v$v\n");
  check_error (text->str, text->len, NULL, 0, SCHEDULE_ERROR_LIMIT,
               "t.sched:2:8: after substitution the line is longer than 4096 bytes", NULL);
  g_string_free (text, TRUE);
}

/* Many names of 2 to 14 bytes, so that names share the parser's cache slots
 * (256 of them, names of up to 8 bytes) and some miss it: every op still
 * names the stream and event it wrote. Streams are declared in order, so
 * stream k is index k + 1 (0 is the default stream); events are numbered by
 * first use. Names are built from their number so that several share a
 * prefix; the last two ops name a stream at the very end of a full line (the
 * cache reads 8 bytes at once where the line has them). */
static void
test_many_names (void)
{
  enum { N_STREAMS = 700, N_OPS = 5000 };
  GString *text = g_string_new (NULL);
  char **names = g_new0 (char *, N_STREAMS);
  for (guint k = 0; k < N_STREAMS; k++)
    {
      /* 2 to 13 bytes, unique by the number: "a0", "b1x", "c2xx", ... */
      names[k] = g_strdup_printf ("%c%u%.*s", 'a' + k % 26, k, (int) (k % 10), "xxxxxxxxx");
      g_string_append_printf (text, "stream %s\n", names[k]);
    }
  guint *stream_of = g_new (guint, N_OPS);
  GRand *rand = g_rand_new_with_seed (7);
  for (guint i = 0; i < N_OPS; i++)
    {
      stream_of[i] = (guint) g_rand_int_range (rand, 0, N_STREAMS);
      if (i % 2 == 0)
        g_string_append_printf (text, "h2d %s 4KiB\n", names[stream_of[i]]);
      else
        /* the event named after the previous op's stream: used again and again */
        g_string_append_printf (text, "record e%s %s%*s\n", names[stream_of[i - 1]],
                                names[stream_of[i]], (int) (i % 7 == 0 ? 400 : 0), "");
    }
  g_rand_free (rand);
  /* A line of 4096 bytes, the most a line may hold, ending in the 2-byte
   * "a0": too near the buffer's end for the 8-byte load. */
  g_autofree char *long_event = g_strnfill (4085, 'x');
  g_string_append_printf (text, "record e%s a0\nh2d a0 1KiB\n", long_event);
  Schedule *sched = parse (text->str);
  g_assert_cmpuint (schedule_n_streams (sched), ==, N_STREAMS + 1);
  for (guint k = 0; k < N_STREAMS; k++)
    g_assert_cmpuint (schedule_find_stream (sched, names[k]), ==, k + 1);
  g_assert_cmpuint (schedule_n_ops (sched), ==, N_OPS + 2);
  g_assert_cmpuint (schedule_op (sched, N_OPS)->stream, ==, 1);
  g_assert_cmpuint (schedule_op (sched, N_OPS + 1)->stream, ==, 1);
  for (guint i = 0; i < N_OPS; i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      g_assert_cmpuint (op->stream, ==, stream_of[i] + 1);
      if (i % 2 == 1)
        {
          g_autofree char *event = g_strdup_printf ("e%s", names[stream_of[i - 1]]);
          g_assert_cmpstr (schedule_event_name (sched, op->event), ==, event);
        }
    }
  schedule_free (sched);
  g_free (stream_of);
  for (guint k = 0; k < N_STREAMS; k++)
    g_free (names[k]);
  g_free (names);
  g_string_free (text, TRUE);
}

/* Event names that a wait or sync uses and nothing records or declares,
 * refused after the whole file is parsed, at their first use in the file.
 * Each message is the whole message, its position read off the text by
 * hand (columns count from 1). */
typedef struct
{
  const char *name;
  const char *text;
  guint64 max_ops;
  ScheduleError code;
  const char *message;
} NameCase;

static const NameCase name_cases[] = {
  /* a swap of two letters is one edit: 'done' is near enough */
  { "wait-typo", "stream s1\nstream s2\nrecord done s1\nwait s2 dnoe\n", 0, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:4:9: event 'dnoe' is never recorded; record it, or write `event dnoe` if the wait "
    "is meant to do nothing (as in CUDA, for an event never recorded); did you mean 'done'?" },
  /* nothing near: no suggestion */
  { "sync-typo", "stream s1\nsync nothere\n", 0, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:2:6: no stream or recorded event is named 'nothere'; declare the stream with "
    "`stream nothere` before the sync, or write `event nothere` if it is an event never "
    "recorded (the sync does nothing)" },
  /* a sync may have meant a stream (default first, then in order) */
  { "sync-stream-typo", "stream s1\nh2d s1 1MiB\nsync  sl\n", 0, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:3:7: no stream or recorded event is named 'sl'; declare the stream with "
    "`stream sl` before the sync, or write `event sl` if it is an event never recorded (the "
    "sync does nothing); did you mean 's1'?" },
  { "sync-device-typo", "sync devcie\n", 0, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:1:6: no stream or recorded event is named 'devcie'; declare the stream with "
    "`stream devcie` before the sync, or write `event devcie` if it is an event never "
    "recorded (the sync does nothing); did you mean 'device'?" },
  /* a wait never means a stream: `s1` is not offered for `s2` */
  { "wait-not-a-stream", "stream s1\nwait s1 s2\n", 0, SCHEDULE_ERROR_UNDEFINED,
    "t.sched:2:9: event 's2' is never recorded; record it, or write `event s2` if the wait is "
    "meant to do nothing (as in CUDA, for an event never recorded)" },
  /* substituted: the column is that of `f${i}` in the file */
  { "typo-in-loop", "stream a\nrepeat i 1..2\n  record e$i a\n  wait a   f${i}\nend\n", 0,
    SCHEDULE_ERROR_UNDEFINED,
    "t.sched:4:12: event 'f1' is never recorded; record it, or write `event f1` if the wait is "
    "meant to do nothing (as in CUDA, for an event never recorded); did you mean 'e1'?" },
  /* In issue order `r` (line 5, first iteration) comes before `q2` (line
   * 4, second iteration); the one higher in the file is reported. */
  { "first-in-file", "stream a\nrecord q1 a\nrepeat i 1..2\n  wait a q$i\n  wait a r\nend\n", 0,
    SCHEDULE_ERROR_UNDEFINED,
    "t.sched:4:10: event 'q2' is never recorded; record it, or write `event q2` if the wait is "
    "meant to do nothing (as in CUDA, for an event never recorded); did you mean 'q1'?" },
  { "event-twice", "event e\n# again\nevent  e\n", 0, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:3:8: event 'e' is declared twice; the first declaration is at line 1" },
  { "event-alone", "event\n", 0, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:1: expected `event NAME [blocking_sync]` with one event name, for example "
    "`event done`" },
  { "event-two-names", "event a b\n", 0, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:9: unknown event attribute 'b'; `event NAME` takes blocking_sync "
    "(cudaEventBlockingSync)" },
  { "event-three-words", "event a blocking_sync b\n", 0, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:23: expected `event NAME [blocking_sync]` with one event name, for example "
    "`event done`" },
  { "event-named-like-stream", "stream s\nevent s\n", 0, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:7: 's' is a stream, not an event; streams and events need different names" },
  { "event-device", "event device\n", 0, SCHEDULE_ERROR_SYNTAX,
    "t.sched:1:7: 'device' is not an event name; names use letters, digits, '_', '.' and '-', "
    "and `device` is reserved for `sync device`" },
  { "stream-named-like-declared-event", "event e\nstream e\n", 0, SCHEDULE_ERROR_DUPLICATE,
    "t.sched:2:8: 'e' is already an event (first used at line 1); streams and events need "
    "different names" },
  /* declarations count against --max-ops, before any is made */
  { "event-max-ops", "repeat i 1..100\n  event e$i\nend\n", 10, SCHEDULE_ERROR_LIMIT,
    "t.sched:1:1: the schedule expands to 100 declarations, more than --max-ops 10" },
};

static void
test_name_case (gconstpointer data)
{
  const NameCase *c = data;
  ScheduleParseOptions options = { NULL, c->max_ops };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text ("t.sched", c->text, strlen (c->text), &options, &error);
  g_assert_null (sched);
  g_assert_error (error, SCHEDULE_ERROR, (gint) c->code);
  g_assert_cmpstr (error->message, ==, c->message);
  g_error_free (error);
}

/* What the names check lets through: an event recorded below the wait (in
 * a loop's later iteration, or further down), and an event never recorded
 * that `event NAME` declares, before or after its use. A declaration is no
 * op. */
static void
test_names_accepted (void)
{
  Schedule *sched = parse ("stream a\nstream b\nrepeat i 1..3\n  wait b e\n"
                           "  kernel b grid=1 block=1 time=1us\n  record e a\nend\n");
  g_assert_cmpuint (schedule_n_ops (sched), ==, 9);
  g_assert_cmpint (op_at (sched, 0)->kind, ==, SCHED_OP_WAIT);
  g_assert_cmpint (op_at (sched, 2)->kind, ==, SCHED_OP_RECORD);
  g_assert_cmpuint (op_at (sched, 0)->event, ==, op_at (sched, 2)->event);
  schedule_free (sched);

  sched = parse ("stream a\nstream b\nwait b later\nrecord later a\n");
  g_assert_cmpuint (schedule_n_ops (sched), ==, 2);
  schedule_free (sched);

  sched = parse ("stream a\nevent never\nwait a never\nsync never\nwait a spare\nevent spare\n");
  g_assert_cmpuint (schedule_n_ops (sched), ==, 3);
  g_assert_cmpuint (schedule_n_events (sched), ==, 2);
  g_assert_cmpint (op_at (sched, 0)->kind, ==, SCHED_OP_WAIT);
  g_assert_cmpstr (schedule_event_name (sched, op_at (sched, 0)->event), ==, "never");
  g_assert_cmpint (op_at (sched, 1)->kind, ==, SCHED_OP_SYNC_EVENT);
  g_assert_cmpstr (schedule_event_name (sched, op_at (sched, 2)->event), ==, "spare");
  schedule_free (sched);

  /* a declared event may also be recorded, and a sync on a stream with no
   * op is a stream sync, not a typo */
  sched = parse ("stream a\nevent e\nrecord e a\nwait a e\nstream idle\nsync idle\n");
  g_assert_cmpuint (schedule_n_ops (sched), ==, 3);
  g_assert_cmpint (op_at (sched, 2)->kind, ==, SCHED_OP_SYNC_STREAM);
  schedule_free (sched);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/schedule/empty", test_empty);
  g_test_add_func ("/schedule/statements", test_statements);
  g_test_add_func ("/schedule/streams", test_streams);
  g_test_add_func ("/schedule/kernel-attributes", test_kernel_attributes);
  g_test_add_func ("/schedule/kernel-time", test_kernel_time);
  g_test_add_func ("/schedule/let-and-define", test_let_and_define);
  g_test_add_func ("/schedule/repeat-nested", test_repeat_nested);
  g_test_add_func ("/schedule/repeat-dependent", test_repeat_dependent);
  g_test_add_func ("/schedule/arithmetic", test_arithmetic);
  g_test_add_func ("/schedule/labels", test_labels);
  g_test_add_func ("/schedule/sync-resolution", test_sync_resolution);
  g_test_add_func ("/schedule/poll", test_poll);
  g_test_add_func ("/schedule/line-endings", test_line_endings);
  g_test_add_func ("/schedule/word-boundaries", test_word_boundaries);
  g_test_add_func ("/schedule/scan-boundaries", test_scan_boundaries);
  g_test_add_func ("/schedule/file", test_file);
  g_test_add_func ("/schedule/large", test_large);
  g_test_add_func ("/schedule/many-names", test_many_names);
  g_test_add_func ("/schedule/max-ops", test_max_ops);
  for (gsize i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      char *path = g_strdup_printf ("/schedule/error/%s", bad_cases[i].name);
      g_test_add_data_func (path, &bad_cases[i], test_bad_case);
      g_free (path);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (name_cases); i++)
    {
      char *path = g_strdup_printf ("/schedule/names/%s", name_cases[i].name);
      g_test_add_data_func (path, &name_cases[i], test_name_case);
      g_free (path);
    }
  g_test_add_func ("/schedule/names/accepted", test_names_accepted);
  g_test_add_func ("/schedule/error/nul-byte", test_bad_nul);
  g_test_add_func ("/schedule/error/depth-17", test_bad_depth);
  g_test_add_func ("/schedule/error/long-line", test_bad_long_line);
  return g_test_run ();
}
