/* test_check.c: the invariant checker catches each kind of broken result, and passes correct ones.
 *
 * Each test runs a tiny schedule through the model on a test profile
 * (tests/profiles: zero latencies and host costs; a 4 MiB copy takes 1 ms;
 * schematic-k20 has one SM holding one block, so a grid=1 kernel of
 * block_time=1ms takes 1 ms), checks that the run breaks no rule, then
 * breaks one thing in a copy of the results by hand and checks that exactly
 * the rule about that thing reports it. Times are in ms. */
#include <glib.h>
#include <string.h>
#include "engines/eng_check.h"
#include "engines/eng_sim.h"
#include "sim/core/schedule.h"
#include "support/model_run.h"

#define MS 1000000

/* A model run, and a copy of its results that a test may break. */
typedef struct
{
  ModelRun *m;
  EngOpResult *r;
} Run;

static Run *
run_text (const char *device, const char *text)
{
  Run *run = g_new0 (Run, 1);
  run->m = model_run_text (device, "t.sched", text);
  gsize n = schedule_n_ops (run->m->sched);
  run->r = g_memdup2 (eng_sim_results (run->m->sim), MAX (n, 1) * sizeof (EngOpResult));
  return run;
}

static void
run_free (Run *run)
{
  model_run_free (run->m);
  g_free (run->r);
  g_free (run);
}

static EngCheck *
check (const Run *run)
{
  return eng_check_results (&run->m->profile, run->m->sched, eng_sim_connections (run->m->sim),
                            eng_sim_copy_connections (run->m->sim), run->r);
}

/* The run as the model made it breaks nothing. */
static void
assert_clean (const Run *run)
{
  g_autoptr (EngCheck) c = eng_check_results (&run->m->profile, run->m->sched,
                                              eng_sim_connections (run->m->sim),
                                              eng_sim_copy_connections (run->m->sim),
                                              eng_sim_results (run->m->sim));
  for (gsize i = 0; i < eng_check_n_kept (c); i++)
    g_printerr ("unexpected: op %u [%s] %s\n", eng_check_violation (c, i)->op,
                eng_check_rule_name (eng_check_violation (c, i)->rule),
                eng_check_violation (c, i)->message);
  g_assert_cmpuint (eng_check_n_violations (c), ==, 0);
}

/* The broken results break `rule`, at op `op`, and no other rule. */
static void
assert_only (const Run *run, EngCheckRule rule, guint32 op)
{
  g_autoptr (EngCheck) c = check (run);
  for (gsize i = 0; i < eng_check_n_kept (c); i++)
    g_test_message ("op %u [%s] %s", eng_check_violation (c, i)->op,
                    eng_check_rule_name (eng_check_violation (c, i)->rule),
                    eng_check_violation (c, i)->message);
  g_assert_cmpuint (eng_check_count (c, rule), >=, 1);
  g_assert_cmpuint (eng_check_n_violations (c), ==, eng_check_count (c, rule));
  g_assert_cmpuint (eng_check_violation (c, 0)->op, ==, op);
  g_assert_cmpuint (eng_check_violation (c, 0)->rule, ==, rule);
}

static void
shift (Run *run, guint op, SimTime by)
{
  run->r[op].start += by;
  run->r[op].end += by;
}

/* The seed schematic (MODEL.md section 2) on all three schematic devices. */
static void
test_check_seed_clean (void)
{
  static const char *const files[] = { "schematic-v1.sched", "schematic-v2.sched",
                                       "schematic-sequential.sched" };
  static const char *const devices[] = { "schematic-c1060", "schematic-c2050", "schematic-k20" };
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    for (guint d = 0; d < G_N_ELEMENTS (devices); d++)
      {
        g_autofree char *path = g_build_filename (SRCDIR, "tests", "schedules", files[f], NULL);
        g_autofree char *text = NULL;
        g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
        Run *run = run_text (devices[d], text);
        assert_clean (run);
        run_free (run);
      }
}

/* h2d 0-1, then the kernel of the same stream 1-2. Moved to 0.5-1.5 it
 * starts before the copy ended. */
static void
test_check_stream (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nh2d s 4MiB\nkernel s grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].start, ==, 1 * MS);
  shift (run, 1, -MS / 2);
  assert_only (run, ENG_CHECK_STREAM, 1);
  run_free (run);
}

/* s1: h2d 0-1, record e at 1; s2: wait for e at 1, kernel 1-2. A wait
 * resolved at 0.5 (and the kernel moved with it, so stream order holds)
 * went on before the record completed. */
static void
test_check_event (void)
{
  Run *run = run_text ("schematic-k20", "stream s1\nstream s2\nh2d s1 4MiB\nrecord e s1\n"
                                        "wait s2 e\nkernel s2 grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[2].start, ==, 1 * MS);
  run->r[2].start = run->r[2].end = MS / 2;
  shift (run, 3, -MS / 2);
  assert_only (run, ENG_CHECK_EVENT, 2);
  run_free (run);
}

/* A blocking stream's copy 0-1, then a default-stream kernel 1-2; moved to
 * 0.5-1.5 it did not wait for the blocking stream. */
static void
test_check_legacy (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nh2d s 4MiB\nkernel default grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].start, ==, 1 * MS);
  shift (run, 1, -MS / 2);
  assert_only (run, ENG_CHECK_LEGACY, 1);
  run_free (run);

  /* And the other way: a default-stream copy 0-1, then a blocking stream's
   * kernel 1-2, moved to 0.5-1.5. */
  run = run_text ("schematic-k20", "stream s\nh2d default 4MiB\nkernel s grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  shift (run, 1, -MS / 2);
  assert_only (run, ENG_CHECK_LEGACY, 1);
  run_free (run);
}

/* Two h2d copies of two streams on two connections share the one h2d
 * engine: 0-1 and 1-2. Moved to 0.5-1.5 the second overlaps the first. */
static void
test_check_copy_engine (void)
{
  Run *run = run_text ("schematic-k20", "stream a\nstream b\nh2d a 4MiB\nh2d b 4MiB\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].start, ==, 1 * MS);
  shift (run, 1, -MS / 2);
  assert_only (run, ENG_CHECK_COPY_ENGINE, 1);
  run_free (run);
}

/* A 4 MiB copy takes 1 ms alone; 1.5 ms is wrong. With duplex-half (factor
 * 0.5), an h2d and a d2h of 4 MiB side by side each take 2 ms: 1 ms of
 * progress at half speed. */
static void
test_check_copy_time (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nh2d s 4MiB\n");
  assert_clean (run);
  run->r[0].end += MS / 2;
  assert_only (run, ENG_CHECK_COPY_TIME, 0);
  run_free (run);

  run = run_text ("duplex-half", "stream a\nstream b\nh2d a 4MiB\nd2h b 4MiB\n");
  assert_clean (run);
  g_assert_cmpint (run->r[0].end, ==, 2 * MS);
  g_assert_cmpint (run->r[1].end, ==, 2 * MS);
  run->r[1].end = 1 * MS; /* as if it had run alone although the h2d ran beside it */
  g_autoptr (EngCheck) c = check (run);
  g_assert_cmpuint (eng_check_count (c, ENG_CHECK_COPY_TIME), >=, 1);
  run_free (run);
}

/* The real C1060 runs one kernel at a time (max_concurrent_kernels 1) on
 * 30 SMs: two one-block kernels of two streams run one after the other.
 * Moved to overlap, the second breaks the limit though the SMs had room. */
static void
test_check_kernel_limit (void)
{
  Run *run = run_text (SRCDIR "/engines/profiles/c1060.ini",
                       "stream a\nstream b\nkernel a grid=1 block=32 block_time=1ms\n"
                       "kernel b grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].start, >=, run->r[0].end);
  SimTime by = run->r[0].start - run->r[1].start + MS / 2;
  shift (run, 1, by);
  assert_only (run, ENG_CHECK_KERNEL_LIMIT, 1);
  run_free (run);
}

/* grid=2 on one SM of one block: two waves of 1 ms, 0-2. Ending at 1 it is
 * faster than its waves allow (and held two blocks at once on one slot);
 * ending at 3 while alone it is slower than its isolated time. */
static void
test_check_kernel_time (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nkernel s grid=2 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[0].end - run->r[0].start, ==, 2 * MS);
  run->r[0].end = run->r[0].start + 1 * MS;
  g_autoptr (EngCheck) c = check (run);
  g_assert_cmpuint (eng_check_count (c, ENG_CHECK_KERNEL_TIME), ==, 1);
  /* two blocks in 1 ms on one slot: the SMs were over-filled too */
  g_assert_cmpuint (eng_check_count (c, ENG_CHECK_SM_CAPACITY), ==, 1);
  run->r[0].end = run->r[0].start + 3 * MS;
  assert_only (run, ENG_CHECK_KERNEL_TIME, 0);
  run_free (run);
}

/* Two one-block kernels of two streams on one SM of one block: 0-1, 1-2.
 * Both at 0-1 they held 2 block-slot-ms in 1 ms of one SM with one slot. */
static void
test_check_sm_capacity (void)
{
  Run *run = run_text ("schematic-k20", "stream a\nstream b\nkernel a grid=1 block=32 block_time=1ms\n"
                                        "kernel b grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].start, ==, 1 * MS);
  shift (run, 1, -1 * MS);
  assert_only (run, ENG_CHECK_SM_CAPACITY, 1);
  run_free (run);
}

/* One connection, 16 one-block SMs (wide): kernels of streams a and b share
 * the compute queue and both start at 0. A run where b's kernel, behind a's
 * in the queue, starts before a's broke the queue's order. */
static void
test_check_queue (void)
{
  Run *run = run_text ("wide", "connections 1\nstream a\nstream b\n"
                               "kernel a grid=1 block=32 block_time=1ms\n"
                               "kernel b grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[0].start, ==, 0);
  g_assert_cmpint (run->r[1].start, ==, 0);
  shift (run, 0, MS / 2);
  assert_only (run, ENG_CHECK_QUEUE, 1);
  run_free (run);
}

/* Results written by hand for a schedule the model once got wrong: on one
 * SM of one block with one connection, a's second kernel waits for its first
 * (0-1) at the head of the compute queue, and b's kernel waits behind it
 * (the false dependency), so: 0-1, 1-2, 2-3. The model ran b's kernel at
 * 1-2 and a's second at 2-3; the checker must call that a queue violation. */
static void
test_check_queue_admission_order (void)
{
  Run *run = run_text ("schematic-k20", "connections 1\nstream a\nstream b\n"
                                        "kernel a grid=1 block=32 block_time=1ms\n"
                                        "kernel a grid=1 block=32 block_time=1ms\n"
                                        "kernel b grid=1 block=32 block_time=1ms\n");
  const SimTime right[3][2] = { { 0, 1 * MS }, { 1 * MS, 2 * MS }, { 2 * MS, 3 * MS } };
  for (guint i = 0; i < 3; i++)
    {
      run->r[i].issue = 0;
      run->r[i].start = right[i][0];
      run->r[i].end = right[i][1];
    }
  g_autoptr (EngCheck) good = check (run);
  g_assert_cmpuint (eng_check_n_violations (good), ==, 0);
  run->r[1].start = 2 * MS, run->r[1].end = 3 * MS;
  run->r[2].start = 1 * MS, run->r[2].end = 2 * MS;
  assert_only (run, ENG_CHECK_QUEUE, 2);
  run_free (run);
}

/* host 1ms then h2d: the copy is issued at 1. Issued at 0.5 the host
 * would have made two calls at once. */
static void
test_check_host (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nhost 1ms\nh2d s 4MiB\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].issue, ==, 1 * MS);
  run->r[1].issue = MS / 2;
  assert_only (run, ENG_CHECK_HOST, 1);
  run_free (run);
}

/* Host threads, each in its own order: w1's host 1 ms runs 0..1 while main
 * issues its copy at 0 (no violation across threads), and main's `sync
 * device` at 0 waits for what was issued before it, its own copy (ends 1),
 * not w1's issued at 1, which the check follows by issue time. w1's h2d
 * issued at 0.5 instead of 1 breaks w1's own order. */
static void
test_check_host_threads (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nstream t\n"
                                        "thread w1\n  host 1ms\n  h2d t 4MiB\nend\n"
                                        "h2d s 4MiB\nsync device\njoin w1\n");
  assert_clean (run);
  g_assert_cmpint (run->r[2].issue, ==, 1 * MS);
  g_assert_cmpint (run->r[3].issue, ==, 0);
  g_assert_cmpint (run->r[4].end, ==, 1 * MS);
  run->r[2].issue = MS / 2;
  assert_only (run, ENG_CHECK_HOST, 2);
  run_free (run);
}

/* A graph's branch follows its stream's ops in the launch, not what the
 * stream was given before: s2's h2d 0-2, the graph's s1 kernel 0-1, its
 * branch in s2 (after the fork's wait) a d2h 1-2 beside the h2d, then a
 * kernel 2-3. The kernel moved to 1.5-2.5 starts before the d2h ended. */
static void
test_check_graph_branches (void)
{
  Run *run = run_text ("schematic-k20", "stream s1\nstream s2\nh2d s2 8MiB\n"
                                        "graph s1\n"
                                        "  kernel s1 grid=1 block=32 block_time=1ms\n"
                                        "  record f s1\n  wait s2 f\n"
                                        "  d2h s2 4MiB\n"
                                        "  kernel s2 grid=1 block=32 block_time=1ms\n"
                                        "  record j s2\n  wait s1 j\n"
                                        "end\n");
  assert_clean (run);
  g_assert_cmpint (run->r[0].end, ==, 2 * MS);
  g_assert_cmpint (run->r[4].start, ==, 1 * MS);
  g_assert_cmpint (run->r[5].start, ==, 2 * MS);
  shift (run, 5, -MS / 2);
  assert_only (run, ENG_CHECK_STREAM, 5);
  run_free (run);
}

/* Stream-ordered allocation (profile pool, test_model.c's /model/pool): the
 * last malloc grows the pool, so its call holds the host 121-136 and the
 * host work after it is issued at 136. Issued at 130, that host work
 * started before the malloc's call (1 us, and 14 us of growth) returned. */
static void
test_check_pool (void)
{
  Run *run = run_text ("pool", "stream s\nmalloc s 1MiB\n"
                               "kernel s grid=1 block=32 block_time=100us\n"
                               "malloc s 2MiB\nfree s 1MiB\nsync s\nmalloc s 4MiB\n"
                               "host 10us\nsync s\n");
  assert_clean (run);
  g_assert_cmpint (run->r[6].issue, ==, 136 * (MS / 1000));
  run->r[6].issue = run->r[6].start = 130 * (MS / 1000);
  run->r[6].end = 140 * (MS / 1000);
  assert_only (run, ENG_CHECK_HOST, 6);
  run_free (run);
}

/* sync s returns when the copy ends at 1; returning at 0.5 is too early. */
static void
test_check_sync (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nh2d s 4MiB\nsync s\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].end, ==, 1 * MS);
  run->r[1].end = MS / 2;
  assert_only (run, ENG_CHECK_SYNC, 1);
  run_free (run);
}

/* An h2d on the d2h engine, a kernel on connection 5 of 8 for stream 1. */
static void
test_check_engine (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nh2d s 4MiB\nkernel s grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  run->r[0].engine = ENG_ENGINE_D2H;
  assert_only (run, ENG_CHECK_ENGINE, 0);
  run->r[0].engine = ENG_ENGINE_H2D;
  run->r[1].conn = 5;
  assert_only (run, ENG_CHECK_ENGINE, 1);
  run_free (run);
}

/* Under assign_on_submit ("wide-on-submit", 4 connections; the round robin
 * starts at conn1, after the default stream's conn0): s1's two kernels run
 * 0..1 and 1..2 on conn1, s2's 0..1 on conn2, and the default stream's 2..3
 * on conn0; a stream may take another connection only when its
 * previous op has ended. s1's second kernel moved to conn3 while its first
 * still ran breaks the rule; a connection past the last, or the default
 * stream off conn0, too. (Unused connections, so that no queue rule breaks
 * with them; s0, declared and unused, makes the check's fallback for a
 * connection past the last, creation order, put s2 on conn2, not with s1.) */
static void
test_check_connection_on_submit (void)
{
  Run *run = run_text ("wide-on-submit", "connections 4\nstream s0\nstream s1\nstream s2\n"
                                         "kernel s1 grid=1 block=32 block_time=1ms\n"
                                         "kernel s1 grid=1 block=32 block_time=1ms\n"
                                         "kernel s2 grid=1 block=32 block_time=1ms\n"
                                         "kernel default grid=1 block=32 block_time=1ms\n");
  assert_clean (run);
  g_assert_cmpint (run->r[1].conn, ==, 1);
  g_assert_cmpint (run->r[2].conn, ==, 2);
  g_assert_cmpint (run->r[3].conn, ==, 0);
  run->r[1].conn = 3;
  assert_only (run, ENG_CHECK_ENGINE, 1);
  run->r[1].conn = 1;
  run->r[2].conn = 4;
  assert_only (run, ENG_CHECK_ENGINE, 2);
  run->r[2].conn = 2;
  run->r[3].conn = 2;
  assert_only (run, ENG_CHECK_ENGINE, 3);
  run_free (run);
}

/* A copy that ends before it starts. */
static void
test_check_times (void)
{
  Run *run = run_text ("schematic-k20", "stream s\nh2d s 4MiB\n");
  run->r[0].end = run->r[0].start - 1;
  g_autoptr (EngCheck) c = check (run);
  g_assert_cmpuint (eng_check_count (c, ENG_CHECK_TIMES), ==, 1);
  g_assert_cmpstr (eng_check_rule_name (ENG_CHECK_TIMES), ==, "times");
  run_free (run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/check/seed-clean", test_check_seed_clean);
  g_test_add_func ("/check/host-threads", test_check_host_threads);
  g_test_add_func ("/check/graph-branches", test_check_graph_branches);
  g_test_add_func ("/check/pool", test_check_pool);
  g_test_add_func ("/check/stream", test_check_stream);
  g_test_add_func ("/check/event", test_check_event);
  g_test_add_func ("/check/legacy", test_check_legacy);
  g_test_add_func ("/check/copy-engine", test_check_copy_engine);
  g_test_add_func ("/check/copy-time", test_check_copy_time);
  g_test_add_func ("/check/kernel-limit", test_check_kernel_limit);
  g_test_add_func ("/check/kernel-time", test_check_kernel_time);
  g_test_add_func ("/check/sm-capacity", test_check_sm_capacity);
  g_test_add_func ("/check/queue", test_check_queue);
  g_test_add_func ("/check/queue-admission-order", test_check_queue_admission_order);
  g_test_add_func ("/check/host", test_check_host);
  g_test_add_func ("/check/sync", test_check_sync);
  g_test_add_func ("/check/connection-on-submit", test_check_connection_on_submit);
  g_test_add_func ("/check/engine", test_check_engine);
  g_test_add_func ("/check/times", test_check_times);
  return g_test_run ();
}
