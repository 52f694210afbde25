/* test_advise.c: the advisor (advise.h) finds the orders worked out by hand and the seed's lesson, the same for any number of threads, and writes what it predicts. */
#include <glib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "support/cli_run.h"
#include "sim/front/advise.h"
#include "sim/front/prediction.h"
#include "sim/formats/schedule_parse.h"
#include "sim/formats/schedule_write.h"

#define MS G_GINT64_CONSTANT (1000000)
#define US G_GINT64_CONSTANT (1000)

static Advice *
advise (const char *path, const char *device, guint jobs)
{
  AdviseOptions options = { 0 };
  options.device = device;
  options.jobs = jobs;
  options.seed = 1;
  GError *error = NULL;
  Advice *advice = advise_run (path, &options, &error);
  g_assert_no_error (error);
  return advice;
}

/* Advice on `text`, written to a file of its own, with `options`. */
static Advice *
advise_text_with (const char *text, const AdviseOptions *options)
{
  g_autofree char *dir = g_dir_make_tmp ("advise-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.sched", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  GError *error = NULL;
  Advice *advice = advise_run (path, options, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return advice;
}

static Advice *
advise_text (const char *text, const char *device, gboolean fixed_order,
             gboolean fixed_connections)
{
  AdviseOptions options = { 0 };
  options.device = device;
  options.jobs = 1;
  options.seed = 1;
  options.fixed_order = fixed_order;
  options.fixed_connections = fixed_connections;
  return advise_text_with (text, &options);
}

static SimTime
predict (const char *path, const char *device)
{
  PredictionOptions options = { device, 0, NULL, 0, PREDICTION_HOST_OWN };
  GError *error = NULL;
  g_autoptr (Prediction) p = prediction_run (path, &options, &error);
  g_assert_no_error (error);
  return prediction_makespan (p);
}

/* MODEL.md's schematic table (test_model.c), by hand: every chunk's copy
 * and kernel takes 1 ms. On the C2050-like device the breadth-first order
 * (V2) takes 9 ms; no order can beat 6 ms, as the last of the four D2H
 * copies, which share one engine, cannot start before 2 ms + 3 ms; the
 * depth-first order (V1) takes 6. On the C1060-like device, with one copy
 * engine for eight copies, 8 ms is the floor, and V2 reaches it where V1
 * takes 12. */
static void
test_schematic (void)
{
  g_autoptr (Advice) a = advise (SRCDIR "/tests/schedules/schematic-v2.sched", "schematic-c2050", 1);
  g_assert_cmpint (advice_original (a), ==, 9 * MS);
  g_assert_cmpint (advice_best (a), ==, 6 * MS);
  g_assert_cmpuint (advice_n_changes (a), >=, 1);
  g_assert_cmpint (advice_change (a, 0)->kind, ==, ADVISE_ORDER);
  g_assert_cmpint (advice_change (a, 0)->before, ==, 9 * MS);

  g_autoptr (Advice) b = advise (SRCDIR "/tests/schedules/schematic-v1.sched", "schematic-c1060", 1);
  g_assert_cmpint (advice_original (b), ==, 12 * MS);
  g_assert_cmpint (advice_best (b), ==, 8 * MS);
}

/* A pageable H2D that holds the host, then a launch into another stream, on
 * tests/profiles/spread.ini (every latency free; a launch holds the host 1,
 * 0.5 and 2 ms, the 4 MiB copy takes 2, 1 and 4 ms, at the profile's own
 * host, its fast one and its slow one). A pageable copy returns only once
 * the host has staged its data, so no op moves past it and the advice keeps
 * the program (schedule_order.h). By hand: the copy from 0, the launch after
 * it returns, the 3 ms kernel from the launch's end: 6 ms (fast: 1 + 0.5 +
 * 3 = 4.5; slow: 4 + 2 + 3 = 9), as given and as advised. */
static const char pageable_first[] = "stream s1\n"
                                     "stream s2\n"
                                     "h2d s1 4MiB pageable\n"
                                     "kernel s2 grid=1 block=32 time=3ms\n";

static void
test_host_spread (void)
{
  g_autoptr (Advice) a = advise_text (pageable_first, "spread", FALSE, TRUE);
  g_assert_cmpint (advice_original (a), ==, 6 * MS);
  g_assert_cmpint (advice_best (a), ==, 6 * MS);
  SimTime given[2], best[2];
  g_assert_true (advice_host_spread (a, given, best));
  g_assert_cmpint (given[GPU_HOST_FAST], ==, 4500000);
  g_assert_cmpint (given[GPU_HOST_SLOW], ==, 9 * MS);
  g_assert_cmpint (best[GPU_HOST_FAST], ==, 4500000);
  g_assert_cmpint (best[GPU_HOST_SLOW], ==, 9 * MS);

  /* a profile without [spread] has none */
  g_autoptr (Advice) b = advise_text (pageable_first, "schematic-k20", FALSE, TRUE);
  g_assert_false (advice_host_spread (b, given, best));
}

/* The seed's lesson (issue 40): each version wants the other's order on
 * the other Tesla. The bound is the other version's prediction. */
static void
test_seed (void)
{
  SimTime v1_c2050 = predict (SRCDIR "/traces/seed/async-v1.sched", "c2050");
  g_autoptr (Advice) a = advise (SRCDIR "/traces/seed/async-v2.sched", "c2050", 0);
  g_test_message ("async-v2 on c2050: %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT
                  " ns (async-v1: %" G_GINT64_FORMAT ")",
                  advice_original (a), advice_best (a), v1_c2050);
  g_assert_cmpint (advice_best (a), <=, v1_c2050);

  SimTime v2_c1060 = predict (SRCDIR "/traces/seed/async-v2.sched", "c1060");
  g_autoptr (Advice) b = advise (SRCDIR "/traces/seed/async-v1.sched", "c1060", 0);
  g_test_message ("async-v1 on c1060: %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT
                  " ns (async-v2: %" G_GINT64_FORMAT ")",
                  advice_original (b), advice_best (b), v2_c1060);
  g_assert_cmpint (advice_best (b), <=, v2_c1060);
}

/* The advised schedule, written and parsed back, predicts what the advice
 * says; one thread and three give the same advice. */
static void
test_written_and_threads (void)
{
  const char *path = SRCDIR "/traces/examples/false-dependency.sched";
  g_autoptr (Advice) one = advise (path, "k20", 1);
  g_autoptr (Advice) three = advise (path, "k20", 3);
  g_assert_cmpint (advice_best (one), ==, advice_best (three));
  g_autofree char *text1 = schedule_write_text (advice_schedule (one), NULL);
  g_autofree char *text3 = schedule_write_text (advice_schedule (three), NULL);
  g_assert_cmpstr (text1, ==, text3);

  g_autofree char *dir = g_dir_make_tmp ("advise-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "advised.sched", NULL);
  GError *error = NULL;
  g_assert_true (g_file_set_contents (out, text1, -1, &error));
  SimTime back = predict (out, "k20");
  g_assert_cmpint (back, ==, advice_best (one));
  g_assert_cmpint (advice_best (one), <=, advice_original (one));
  g_unlink (out);
  g_rmdir (dir);
}

/* By hand, on the schematic K20 (one SM that holds one block; a 4 MiB copy
 * and each kernel here 1 ms, no latencies): with one connection, b's kernel
 * queues behind a's, which waits for a's copy: copy 0-1, a's kernel 1-2,
 * b's 2-3, 3 ms. With two connections or more, b's kernel runs 0-1 and a's
 * 1-2: 2 ms. With the order kept, the first count tried that gives 2 ms is
 * 2; with the order free, issuing b's kernel first gives the 2 ms, and no
 * count does better. */
static const char one_connection[] =
  "connections 1\n"
  "stream a\n"
  "stream b\n"
  "h2d a 4MiB\n"
  "kernel a grid=1 block=1024 time=1ms\n"
  "kernel b grid=1 block=1024 time=1ms\n";

static void
test_connections (void)
{
  g_autoptr (Advice) kept = advise_text (one_connection, "schematic-k20", TRUE, FALSE);
  g_assert_cmpint (advice_original (kept), ==, 3 * MS);
  g_assert_cmpint (advice_best (kept), ==, 2 * MS);
  g_assert_cmpuint (advice_n_changes (kept), ==, 1);
  g_assert_cmpint (advice_change (kept, 0)->kind, ==, ADVISE_CONNECTIONS);
  g_assert_cmpstr (advice_change (kept, 0)->text, ==, "CUDA_DEVICE_MAX_CONNECTIONS=2 (was 1)");
  g_assert_cmpuint (advice_connections (kept), ==, 2);

  g_autoptr (Advice) free_order = advise_text (one_connection, "schematic-k20", FALSE, FALSE);
  g_assert_cmpint (advice_best (free_order), ==, 2 * MS);
  g_assert_cmpuint (advice_n_changes (free_order), ==, 1);
  g_assert_cmpint (advice_change (free_order, 0)->kind, ==, ADVISE_ORDER);
}

/* The same from two host threads, b's kernel issued 1 us after a's (no
 * thread costs on the schematic device). By hand: one connection, copy
 * 0-1, a's kernel 1-2, b's behind it 2-3: 3 ms. Two connections: b's kernel
 * 0.001-1.001, a's when the SM is free, 1.001-2.001: 2.001 ms. A schedule of
 * several threads keeps its order, so the connections are the change, and
 * the advice says why the order was not searched. */
static void
test_host_threads (void)
{
  g_autoptr (Advice) a = advise_text ("connections 1\n"
                                      "stream a\n"
                                      "stream b\n"
                                      "thread t1\n"
                                      "  h2d a 4MiB\n"
                                      "  kernel a grid=1 block=1024 time=1ms\n"
                                      "end\n"
                                      "thread t2\n"
                                      "  host 1us\n"
                                      "  kernel b grid=1 block=1024 time=1ms\n"
                                      "end\n"
                                      "join t1\n"
                                      "join t2\n",
                                      "schematic-k20", FALSE, FALSE);
  g_assert_cmpint (advice_original (a), ==, 3 * MS);
  g_assert_cmpint (advice_best (a), ==, 2 * MS + 1000);
  g_assert_cmpuint (advice_n_changes (a), ==, 1);
  g_assert_cmpint (advice_change (a, 0)->kind, ==, ADVISE_CONNECTIONS);
  g_assert_cmpstr (advice_change (a, 0)->text, ==, "CUDA_DEVICE_MAX_CONNECTIONS=2 (was 1)");
  g_assert_nonnull (strstr (advice_order_kept (a), "3 host threads"));
  g_autoptr (Advice) one = advise_text (one_connection, "schematic-k20", FALSE, FALSE);
  g_assert_null (advice_order_kept (one));
}

/* Profile pool (tests/profiles/pool.ini: malloc and free 1 us, growth 10 us
 * + 1 us a MiB, a synchronize giving memory back 5 us + 0.5 us a MiB), by
 * hand: as given, each iteration's malloc grows the pool, 15 us, the 100 us
 * kernel follows, and the sync gives the 4 MiB back, 7 us: 0-15, 15-115,
 * 122; then 122-137, 137-237, 244. With the release threshold at the most
 * the schedule holds at once, 4 MiB, the second malloc finds the memory:
 * 0-15, 15-115, sync at 115; 115-116, 116-216, 216. */
static const char pool_loop[] = "stream s\n"
                                "repeat i 1..2\n"
                                "  malloc s 4MiB\n"
                                "  kernel s grid=1 block=32 block_time=100us\n"
                                "  free s 4MiB\n"
                                "  sync s\n"
                                "end\n";

static void
test_pool (void)
{
  g_autoptr (Advice) a = advise_text (pool_loop, "pool", FALSE, FALSE);
  g_assert_cmpint (advice_original (a), ==, 244 * MS / 1000);
  g_assert_cmpint (advice_best (a), ==, 216 * MS / 1000);
  g_assert_cmpuint (advice_n_changes (a), ==, 1);
  g_assert_cmpint (advice_change (a, 0)->kind, ==, ADVISE_POOL);
  g_assert_nonnull (strstr (advice_change (a, 0)->text, "4 MiB (was 0 B)"));
  g_assert_cmpuint (schedule_pool_threshold (advice_schedule (a)), ==, 4u << 20);
  g_assert_cmpuint (schedule_pool_threshold (advice_original_schedule (a)), ==, 0);
}

/* With the pool kept as given, the hints: the loop's `sync s` (line 6) left
 * out the first time, the second malloc finds the memory freed (16-17) and
 * its kernel follows the first, 115-215, and the last sync gives 4 MiB
 * back: 222 us; left out the second time, the run ends with the kernel at
 * 237. One line, so one hint, with the time that gains most. */
static void
test_sync_hint_per_line (void)
{
  AdviseOptions options = { 0 };
  options.device = "pool";
  options.jobs = 1;
  options.seed = 1;
  options.fixed_pool = TRUE;
  g_autoptr (Advice) a = advise_text_with (pool_loop, &options);
  g_assert_cmpint (advice_best (a), ==, 244 * MS / 1000);
  g_assert_cmpuint (advice_n_hints (a), ==, 1);
  g_assert_nonnull (strstr (advice_hint (a, 0)->text, "`sync s` (line 6)"));
  g_assert_cmpint (advice_hint (a, 0)->after, ==, 222 * MS / 1000);
}

/* A poll's hint names it as written. By hand on schematic-sync (a query
 * 0.5 us, the work seen 2 us after it ends): the kernel 0-2 ms; `poll s
 * every=1.5ms` queries at 0, 1500.5 and 3001 us and returns at 3001.5;
 * the second kernel 3001.5-4001.5, the last poll (no work between
 * queries) sees it at 4003.5 and returns at 4004. Leaving the first poll
 * out, the second kernel follows the first, 2000-3000, and the last poll
 * returns at 3002.5 (told); leaving the last out gains 2.5 us (not told). */
static void
test_poll_hint (void)
{
  static const char text[] = "stream s\n"
                             "kernel s grid=1 block=32 time=2ms\n"
                             "poll s every=1.5ms\n"
                             "kernel s grid=1 block=32 time=1ms\n"
                             "poll s\n";
  g_autoptr (Advice) a = advise_text (text, "schematic-sync", TRUE, TRUE);
  g_assert_cmpint (advice_original (a), ==, 4004 * US);
  g_assert_cmpuint (advice_n_hints (a), ==, 1);
  g_assert_nonnull (strstr (advice_hint (a, 0)->text, "leave out `poll s` (line 3)"));
  g_assert_cmpint (advice_hint (a, 0)->after, ==, 3002 * US + US / 2);
}

/* A host that sleeps in its waits: the hint to spin instead. By hand on
 * schematic-sleep (sync 2 us; the wake 0.1 ms up to a wait of 1 ms, 0.3 ms
 * from 3 ms, straight between): the kernel 0-2, its sync waited 2 ms, woken
 * 0.2 after: 2.202; the second kernel 2.202-3.202, its sync waited 1 ms:
 * 3.304. Spinning: the first sync returns 2.002, the second kernel runs
 * 2.002-3.002, its sync returns 3.004. Leaving the last sync out ends the run with its kernel, 3.202 (3.1%
 * faster: told); leaving the first out makes the second wait 3 ms, 0.3 ms
 * woken: 3.302, 2 us (not told). */
static void
test_spin_hint (void)
{
  static const char text[] = "device_schedule blocking_sync\n"
                             "stream s\n"
                             "kernel s grid=1 block=32 time=2ms\n"
                             "sync s\n"
                             "kernel s grid=1 block=32 time=1ms\n"
                             "sync s\n";
  g_autoptr (Advice) a = advise_text (text, "schematic-sleep", TRUE, TRUE);
  g_assert_cmpint (advice_original (a), ==, 3304 * US);
  g_assert_cmpuint (advice_n_hints (a), ==, 1);
  g_assert_nonnull (strstr (advice_hint (a, 0)->text, "spin instead of sleeping "
                                                      "(no cudaDeviceScheduleBlockingSync)"));
  g_assert_cmpint (advice_hint (a, 0)->after, ==, 3004 * US);
}

/* Untouched host memory: the hint of huge pages, for the whole 2 MiB frames
 * the buffer holds whatever its alignment. By hand on schematic-huge
 * (untouched H2D 0.5 ms + 1 MiB a ms, on huge pages 0.1 ms + 4 MiB a ms;
 * untouched D2H 2 MiB a ms), the copies one after the other: a 5 MiB H2D
 * 0.5 + 5 = 5.5 ms, a 1 MiB D2H 2 ms: 7.5. A 5 MiB buffer holds at least
 * (5 - 2) / 2 = 1 whole frame: 2 MiB on huge pages, 0.1 + 0.5, and 3 MiB
 * as before, 3: 3.6 ms, 5.6 in all; the 1 MiB buffer holds none, so one
 * copy is counted. Pinned: told too, before it. */
static void
test_huge_hint (void)
{
  static const char text[] = "stream s1\n"
                             "h2d s1 5MiB pageable untouched\n"
                             "d2h s1 1MiB pageable untouched\n";
  g_autoptr (Advice) a = advise_text (text, "schematic-huge", TRUE, TRUE);
  g_assert_cmpint (advice_original (a), ==, 7500 * US);
  g_assert_cmpuint (advice_n_hints (a), ==, 2);
  g_assert_nonnull (strstr (advice_hint (a, 0)->text, "pinned host memory"));
  g_assert_nonnull (strstr (advice_hint (a, 1)->text, "transparent huge pages for the 1 copy "));
  g_assert_cmpint (advice_hint (a, 1)->after, ==, 5600 * US);
}

/* By hand, on the schematic K20: a's kernel has two blocks of 1 ms, b's
 * one, then b copies 4 MiB back (1 ms). Issued a first: a's blocks 0-1 and
 * 1-2, b's kernel 2-3, its copy 3-4: 4 ms. With b more urgent, b's kernel
 * takes the SM at a's first block's end: 1-2, its copy 2-3, a's second
 * block 2-3: 3 ms. */
static void
test_priorities (void)
{
  static const char text[] =
    "stream a\n"
    "stream b\n"
    "kernel a grid=2 block=1024 block_time=1ms\n"
    "kernel b grid=1 block=1024 block_time=1ms\n"
    "d2h b 4MiB\n";
  g_autoptr (Advice) a = advise_text (text, "schematic-k20", TRUE, TRUE);
  g_assert_cmpint (advice_original (a), ==, 4 * MS);
  g_assert_cmpint (advice_best (a), ==, 3 * MS);
  g_assert_cmpuint (advice_n_changes (a), ==, 1);
  g_assert_cmpint (advice_change (a, 0)->kind, ==, ADVISE_PRIORITIES);
  g_assert_nonnull (strstr (advice_change (a, 0)->text, "b priority=-1"));
  g_assert_cmpint (schedule_stream (advice_schedule (a), 2)->priority, ==, -1);
  g_assert_cmpint (schedule_stream (advice_schedule (a), 1)->priority, ==, 0);
}

/* --pinned takes the pinned-memory hint. schematic-k20, by hand: a 4 MiB
 * pageable H2D runs at half speed, 0..2 ms, and holds the host, so the
 * kernel of the other stream is issued at 2 and ends at 3 ms. Pinned, the
 * copy takes 1 ms and the kernel runs beside it: 1 ms. That is the first
 * change, and the advised schedule has no pageable copy left. */
static void
test_pinned (void)
{
  static const char text[] =
    "stream s1\n"
    "stream s2\n"
    "h2d s1 4MiB pageable\n"
    "kernel s2 grid=1 block=256 time=1ms\n";
  g_autofree char *dir = g_dir_make_tmp ("advise-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.sched", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  AdviseOptions options = { 0 };
  options.device = "schematic-k20";
  options.jobs = 1;
  options.fixed_order = TRUE;
  options.pinned = TRUE;
  GError *error = NULL;
  g_autoptr (Advice) a = advise_run (path, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (advice_original (a), ==, 3 * MS);
  g_assert_cmpint (advice_best (a), ==, 1 * MS);
  g_assert_cmpuint (advice_n_changes (a), ==, 1);
  g_assert_cmpint (advice_change (a, 0)->kind, ==, ADVISE_PINNED);
  g_assert_cmpint (advice_change (a, 0)->before, ==, 3 * MS);
  g_assert_cmpint (advice_change (a, 0)->after, ==, 1 * MS);
  g_assert_cmpuint (advice_n_hints (a), ==, 0);
  g_assert_false (schedule_op (advice_schedule (a), 0)->u.copy.pageable);
  g_assert_true (schedule_op (advice_original_schedule (a), 0)->u.copy.pageable);
  g_unlink (path);
  g_rmdir (dir);
}

/* --vary: the advice is no slower than the best value predicted alone. */
static void
test_vary (void)
{
  const char *path = SRCDIR "/traces/seed/pipeline.sched";
  AdviseOptions options = { 0 };
  options.device = "k20";
  options.vary = "nchunks=1,2,4,8";
  options.jobs = 1;
  GError *error = NULL;
  g_autoptr (Advice) advice = advise_run (path, &options, &error);
  g_assert_no_error (error);
  static const char *const values[] = { "nchunks=1", "nchunks=2", "nchunks=4", "nchunks=8" };
  SimTime best = G_MAXINT64;
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      const char *defines[] = { values[i], NULL };
      PredictionOptions p = { "k20", 0, defines, 0, PREDICTION_HOST_OWN };
      g_autoptr (Prediction) prediction = prediction_run (path, &p, &error);
      g_assert_no_error (error);
      best = MIN (best, prediction_makespan (prediction));
    }
  g_assert_cmpint (advice_best (advice), <=, best);
  g_assert_nonnull (advice_define (advice));

  options.vary = "nchunks";
  g_assert_null (advise_run (path, &options, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_clear_error (&error);
}

/* The command: bad options are one line and exit 2 with no file written;
 * -o - sends the advised schedule alone to standard output. */
static void
test_command (void)
{
  g_autofree char *dir = g_dir_make_tmp ("advise-XXXXXX", NULL);
  const char *seed = SRCDIR "/traces/seed/async-v2.sched";
  const char *const refused[][8] = {
    { "advise", seed, "-d", "c2050", "-o", "best.png", NULL },
    { "advise", seed, "-d", "c2050,k20", "-o", "best.sched", NULL },
    { "advise", seed, "-d", "c2050", "--keep", "order,colour", "-o", "best.sched" },
    { "advise", seed, "-d", "c2050", "--vary", "nchunks", "-o", "best.sched" },
    { "advise", seed, "-d", "c2O50", "-o", "best.sched", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *args[9] = { NULL };
      memcpy (args, refused[i], sizeof refused[i]);
      g_autofree char *err = NULL;
      g_assert_cmpint (cli_run (dir, args, NULL, NULL, &err), ==, 2);
      g_test_message ("%s", err);
      g_assert_true (g_str_has_prefix (err, "streamsim"));
      g_assert_true (g_str_has_suffix (err, "\n"));
      g_assert_true (strchr (err, '\n') == err + strlen (err) - 1); /* one line */
      g_autofree char *best = g_build_filename (dir, "best.sched", NULL);
      g_assert_false (g_file_test (best, G_FILE_TEST_EXISTS));
    }

  const char *to_stdout[] = { "advise", seed, "-d", "c2050", "-o", "-", NULL };
  g_autofree char *out = NULL;
  g_assert_cmpint (cli_run (dir, to_stdout, NULL, &out, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "# advised by streamsim advise from "));
  ScheduleParseOptions parse = { NULL, 0 };
  GError *error = NULL;
  g_autoptr (Schedule) back = schedule_parse_text ("stdout", out, strlen (out), &parse, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);

  const char *help[] = { "help", "advise", NULL }, *option[] = { "advise", "--help", NULL };
  g_autofree char *a = NULL, *b = NULL;
  g_assert_cmpint (cli_run (dir, help, NULL, &a, NULL), ==, 0);
  g_assert_cmpint (cli_run (dir, option, NULL, &b, NULL), ==, 0);
  g_assert_cmpstr (a, ==, b);
  g_assert_nonnull (strstr (a, "--vary"));
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/advise/schematic", test_schematic);
  g_test_add_func ("/advise/seed", test_seed);
  g_test_add_func ("/advise/written-and-threads", test_written_and_threads);
  g_test_add_func ("/advise/connections", test_connections);
  g_test_add_func ("/advise/host-threads", test_host_threads);
  g_test_add_func ("/advise/pool", test_pool);
  g_test_add_func ("/advise/sync-hint-per-line", test_sync_hint_per_line);
  g_test_add_func ("/advise/spin-hint", test_spin_hint);
  g_test_add_func ("/advise/poll-hint", test_poll_hint);
  g_test_add_func ("/advise/huge-hint", test_huge_hint);
  g_test_add_func ("/advise/priorities", test_priorities);
  g_test_add_func ("/advise/vary", test_vary);
  g_test_add_func ("/advise/pinned", test_pinned);
  g_test_add_func ("/advise/host-spread", test_host_spread);
  g_test_add_func ("/advise/command", test_command);
  return g_test_run ();
}
