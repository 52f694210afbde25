/* test_model.c: whole schedules through the engine model, against timelines computed by hand.
 *
 * Every expected number below was worked out on paper from MODEL.md's rules
 * and the test profiles in tests/profiles (zero latencies; a 4 MiB copy and a
 * one-block kernel of time=1ms each take 1 ms); the comment above each test
 * shows the working. Times are in milliseconds. */
#include <glib.h>
#include <glib/gstdio.h>
#include "engines/eng_check.h"
#include "engines/eng_sim.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "sim/front/cause_text.h"
#include "support/model_run.h"

#define MS 1000000
#define US 1000

typedef ModelRun Run;

static Run *
run_text (const char *device, const char *text)
{
  return model_run_text (device, "test.sched", text);
}

static Run *
run_file (const char *device, const char *name)
{
  g_autofree char *path = g_build_filename (SRCDIR, "tests", "schedules", name, NULL);
  g_autofree char *text = NULL;
  gsize length;
  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  return run_text (device, text);
}

static void
run_free (Run *run)
{
  model_run_free (run);
}

static const EngOpResult *
op (Run *run, guint i)
{
  g_assert_cmpuint (i, <, schedule_n_ops (run->sched));
  return &eng_sim_results (run->sim)[i];
}

/* Asserts an op's start and end in whole milliseconds. */
static void
assert_span (Run *run, guint i, gint64 start_ms, gint64 end_ms)
{
  const EngOpResult *r = op (run, i);
  if (r->start != start_ms * MS || r->end != end_ms * MS)
    g_error ("op %u: expected %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " ms, got %.3f-%.3f ms", i,
             start_ms, end_ms, r->start / 1e6, r->end / 1e6);
}

static void
assert_cause (Run *run, guint i, EngCause cause, guint32 ref)
{
  const EngOpResult *r = op (run, i);
  g_assert_cmpstr (eng_cause_name ((EngCause) r->cause), ==, eng_cause_name (cause));
  g_assert_cmpuint (r->cause_ref, ==, ref);
}

/* MODEL.md section 2: the schematic table, exactly.
 *                 sequential  V1   V2
 *   c1060-like        12      12    8
 *   c2050-like        12       6    9
 *   k20-like          12       6    6
 * Sequential: 4 + 4 + 4 units on any device. C1060 V1: the single copy queue
 * holds H1 D1 H2 D2 ..., each D waits for its kernel and holds the next H back:
 * fully serial. C1060 V2: H1..H4 at 0..4, kernels 1..5, D1 after H4 at 4, D4
 * ends 8. C2050 V2: kernels K1..K4 run 1..5 back to back; their completions
 * are held until 5, so D1..D4 run 5..9. K20 and C2050 V1: H at 0..4, K at
 * 1..5, D at 2..6. */
static void
test_schematic_table (void)
{
  const struct
  {
    const char *device;
    gint64 seq, v1, v2;
  } table[] = {
    { "schematic-c1060", 12, 12, 8 },
    { "schematic-c2050", 12, 6, 9 },
    { "schematic-k20", 12, 6, 6 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      Run *seq = run_file (table[i].device, "schematic-sequential.sched");
      Run *v1 = run_file (table[i].device, "schematic-v1.sched");
      Run *v2 = run_file (table[i].device, "schematic-v2.sched");
      g_test_message ("%s: %.3f %.3f %.3f", table[i].device, eng_sim_makespan (seq->sim) / 1e6,
                      eng_sim_makespan (v1->sim) / 1e6, eng_sim_makespan (v2->sim) / 1e6);
      g_assert_cmpint (eng_sim_makespan (seq->sim), ==, table[i].seq * MS);
      g_assert_cmpint (eng_sim_makespan (v1->sim), ==, table[i].v1 * MS);
      g_assert_cmpint (eng_sim_makespan (v2->sim), ==, table[i].v2 * MS);
      run_free (seq);
      run_free (v1);
      run_free (v2);
    }
}

/* C2050 V2 op by op. Ops 0..3 H2D, 4..7 kernels, 8..11 D2H (4 stream
 * declarations produce no op). H2D i: i..i+1. Kernel i waits for H2D i:
 * i+1..i+2. D2H i: its kernel ended at i+2 but the launch run (ops 4..7) ends
 * at 5, so D2H 0 runs 5..6 and the others follow in the d2h engine: 6..7,
 * 7..8, 8..9. D2H 0 waited for a deferred completion of op 4, which the
 * end of the run's last kernel (op 7, at 5) released: that is the op a
 * critical path follows from D2H 0. */
static void
test_fermi_deferred (void)
{
  Run *run = run_file ("schematic-c2050", "schematic-v2.sched");
  for (guint i = 0; i < 4; i++)
    {
      assert_span (run, i, i, i + 1);
      assert_span (run, 4 + i, i + 1, i + 2);
      assert_span (run, 8 + i, 5 + i, 6 + i);
    }
  assert_cause (run, 8, ENG_CAUSE_DEFERRED, 4);
  g_assert_cmpuint (eng_sim_waited_for (run->sim, 8), ==, 7);
  /* later D2Hs are behind the d2h engine, or their own held kernel */
  g_assert_cmpuint (op (run, 9)->cause, !=, ENG_CAUSE_NONE);
  run_free (run);
}

/* A launch run whose members two host threads issued out of their op
 * order (schematic-c2050: zero costs, one connection, one block at a time,
 * deferred completion), by hand:
 *   op 0 thread w1, op 4 thread w2: both start at 0;
 *   op 5 k2 (w2) issued at 0: runs 0-1; it opens a launch run;
 *   op 1 host 0.5 ms (w1), then op 2 k1 issued at 0.5, while k2 runs: it
 *        joins k2's run, queued behind it: runs 1-2;
 *   op 3 d2h s1 (w1) at 0.5 waits for k1, released at its end: 2-3;
 *   op 6 sync s2 (w2) at 0: k2 ended at 1 but its completion is held until
 *        the run's last member, k1, ends: returns at 2, having waited for
 *        k2, which k1's end released;
 *   op 7 join w1 (main at 0): w1 ended at 0.5; op 8 join w2 at 0.5: 2. */
static void
test_fermi_deferred_threads (void)
{
  Run *run = run_text ("schematic-c2050", "stream s1\nstream s2\n"
                                          "thread w1\n"
                                          "  host 500us\n"
                                          "  kernel s1 grid=1 block=32 block_time=1ms\n"
                                          "  d2h s1 4MiB\n"
                                          "end\n"
                                          "thread w2\n"
                                          "  kernel s2 grid=1 block=32 block_time=1ms\n"
                                          "  sync s2\n"
                                          "end\n"
                                          "join w1\njoin w2\n");
  assert_span (run, 5, 0, 1);
  g_assert_cmpint (op (run, 2)->issue, ==, 500 * US);
  assert_span (run, 2, 1, 2);
  assert_span (run, 3, 2, 3);
  g_assert_cmpint (op (run, 6)->end, ==, 2 * MS);
  assert_cause (run, 6, ENG_CAUSE_SYNC, 5);
  g_assert_cmpuint (eng_sim_waited_for (run->sim, 6), ==, 2);
  g_assert_cmpint (op (run, 8)->end, ==, 2 * MS);
  g_assert_cmpint (eng_sim_makespan (run->sim), ==, 3 * MS);
  run_free (run);
}

/* C1060 V1: the false dependency in the single copy queue. Ops per stream i
 * (0-based): H = 3i, K = 3i+1, D = 3i+2. Each chunk takes 3 units and the
 * next H2D waits in the copy queue behind the previous stream's D2H. */
static void
test_single_copy_queue (void)
{
  Run *run = run_file ("schematic-c1060", "schematic-v1.sched");
  for (guint i = 0; i < 4; i++)
    {
      assert_span (run, 3 * i, 3 * i, 3 * i + 1);
      assert_span (run, 3 * i + 1, 3 * i + 1, 3 * i + 2);
      assert_span (run, 3 * i + 2, 3 * i + 2, 3 * i + 3);
    }
  /* H2D of stream 2 (op 3) waited behind D2H of stream 1 (op 2) in conn0's
   * shared copy queue: a false dependency. */
  assert_cause (run, 3, ENG_CAUSE_QUEUE, 2);
  run_free (run);
}

/* The legacy default stream, on 16 one-block SMs (kernels may overlap).
 *   op0 kernel s1 (1 ms)        0..1
 *   op1 kernel s3, nonblocking  0..1  exempt from the legacy stream
 *   op2 kernel default (1 ms)   waits for op0 (s1): 1..2; not for op1
 *   op3 kernel s2 (1 ms)        waits for op2: 2..3
 *   op4 kernel s3 (1 ms)        nonblocking, only after op1: 1..2 */
static void
test_legacy_default_stream (void)
{
  Run *run = run_text ("wide",
                       "stream s1\nstream s2\nstream s3 nonblocking\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s3 grid=1 block=256 time=1ms\n"
                       "kernel default grid=1 block=256 time=1ms\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "kernel s3 grid=1 block=256 time=1ms\n");
  assert_span (run, 0, 0, 1);
  assert_span (run, 1, 0, 1);
  assert_span (run, 2, 1, 2);
  assert_span (run, 3, 2, 3);
  assert_span (run, 4, 1, 2);
  assert_cause (run, 2, ENG_CAUSE_LEGACY, 0);
  assert_cause (run, 3, ENG_CAUSE_LEGACY, 2);
  assert_cause (run, 4, ENG_CAUSE_STREAM, 1);
  run_free (run);
}

/* Events across streams (16 one-block SMs):
 *   op0 kernel s1 2 ms            0..2
 *   op1 record e1 s1              at 2
 *   op2 wait s2 e1                at 2
 *   op3 kernel s2 1 ms            waits for e1: 2..3
 *   op4 wait s3 never             never recorded (declared `event never`): a no-op
 *   op5 kernel s3 1 ms            0..1
 *   op6 kernel s1 3 ms            after op0: 2..5
 *   op7 record e1 s1              re-recorded: at 5
 *   op8 kernel s3 1 ms            after op5: 1..2 (not after e1) */
static void
test_event_wait (void)
{
  Run *run = run_text ("wide",
                       "stream s1\nstream s2\nstream s3\nevent never\n"
                       "kernel s1 grid=1 block=256 time=2ms\n"
                       "record e1 s1\n"
                       "wait s2 e1\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "wait s3 never\n"
                       "kernel s3 grid=1 block=256 time=1ms\n"
                       "kernel s1 grid=1 block=256 time=3ms\n"
                       "record e1 s1\n"
                       "kernel s3 grid=1 block=256 time=1ms\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 2, 2);
  assert_span (run, 3, 2, 3);
  assert_span (run, 5, 0, 1);
  assert_span (run, 6, 2, 5);
  assert_span (run, 7, 5, 5);
  assert_span (run, 8, 1, 2);
  assert_cause (run, 3, ENG_CAUSE_EVENT, 1);
  /* The markers, by hand from the same timeline: a record waits for the op
   * before it in its stream, a wait for the record it names, and the wait
   * on an event never recorded for nothing. */
  assert_cause (run, 1, ENG_CAUSE_STREAM, 0);
  assert_cause (run, 2, ENG_CAUSE_EVENT, 1);
  assert_cause (run, 4, ENG_CAUSE_NONE, ENG_NO_REF);
  assert_cause (run, 7, ENG_CAUSE_STREAM, 6);
  run_free (run);
}

/* Sixteen streams, each issuing two dependent 1 ms kernels, depth-first
 * (A1 B1 A2 B2 ... A16 B16), on 16 one-block SMs.
 * 1 connection: one compute queue. A1 runs 0..1; B1 heads the queue waiting
 * for A1 and holds A2 back; at 1 B1 and A2 both go: pairs (B_i, A_i+1) run
 * together, and B16 ends at 17.
 * 8 connections: streams i and i+8 share a queue (round-robin in creation
 * order): A_i 0..1, then B_i and A_i+8 1..2, then B_i+8 2..3: 3 ms.
 * 16 connections: every stream alone: 2 ms. */
static void
test_false_dependency_connections (void)
{
  GString *text = g_string_new ("repeat i 1..16\n  stream s$i\nend\n"
                                "repeat i 1..16\n"
                                "  kernel s$i grid=1 block=256 time=1ms\n"
                                "  kernel s$i grid=1 block=256 time=1ms\n"
                                "end\n");
  const struct
  {
    guint connections;
    gint64 makespan;
  } cases[] = { { 1, 17 }, { 8, 3 }, { 16, 2 } };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *full = g_strdup_printf ("connections %u\n%s", cases[c].connections, text->str);
      Run *run = run_text ("wide", full);
      g_assert_cmpint (eng_sim_makespan (run->sim), ==, cases[c].makespan * MS);
      if (cases[c].connections == 1)
        {
          /* A2 (op 2) waited behind B1 (op 1) of stream s1 */
          assert_span (run, 2, 1, 2);
          assert_cause (run, 2, ENG_CAUSE_QUEUE, 1);
        }
      if (cases[c].connections == 8)
        {
          /* A9 (op 16) shares conn0 with s1: behind B1 (op 1) */
          assert_span (run, 16, 1, 2);
          assert_cause (run, 16, ENG_CAUSE_QUEUE, 1);
          g_assert_cmpint (op (run, 16)->conn, ==, 0);
          g_assert_cmpint (op (run, 2)->conn, ==, 1);
        }
      run_free (run);
    }
  g_string_free (text, TRUE);
}

/* assign_on_submit on 2 connections ("wide-on-submit": 16 SMs, so one-block
 * kernels never wait for room; zero costs, so every call is at 0 unless a
 * sync holds the host). The round robin starts at conn1: the default stream
 * has conn0 (test_assign_on_submit_default_stream).
 *
 * Held connection skipped: s1 runs A (2 ms, op 0) and B (1 ms, op 1) behind
 * it, so conn1 is held by B. s2's kernel (op 2) takes conn0; s3's (op 3) finds
 * conn1 held and takes conn0 too: it runs 0..1. In creation order s3 would
 * share s1's connection and wait behind B: 2..3. */
static void
test_assign_on_submit_skips_held (void)
{
  const char *text = "connections 2\nstream s1\nstream s2\nstream s3\n"
                     "kernel s1 grid=1 block=256 time=2ms\n"
                     "kernel s1 grid=1 block=256 time=1ms\n"
                     "kernel s2 grid=1 block=256 time=1ms\n"
                     "kernel s3 grid=1 block=256 time=1ms\n";
  Run *run = run_text ("wide-on-submit", text);
  assert_span (run, 1, 2, 3);
  assert_span (run, 3, 0, 1);
  g_assert_cmpint (op (run, 1)->conn, ==, 1);
  g_assert_cmpint (op (run, 2)->conn, ==, 0);
  g_assert_cmpint (op (run, 3)->conn, ==, 0);
  run_free (run);
  run = run_text ("wide", text); /* creation order, for contrast */
  assert_span (run, 3, 2, 3);
  assert_cause (run, 3, ENG_CAUSE_QUEUE, 1);
  run_free (run);
}

/* Every connection held: s1 (A 1 ms, B behind) on conn1 and s2 (A 2 ms, B
 * behind) on conn0. s3's kernel (op 4) then takes the next connection round
 * robin all the same, conn1, and waits behind s1's B: B goes at 1, op 4 at
 * 1..2. s4's (op 5) takes conn0 and waits behind s2's B: 2..3. */
static void
test_assign_on_submit_all_held (void)
{
  Run *run = run_text ("wide-on-submit",
                       "connections 2\nrepeat i 1..4\n  stream s$i\nend\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s2 grid=1 block=256 time=2ms\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "kernel s3 grid=1 block=256 time=1ms\n"
                       "kernel s4 grid=1 block=256 time=1ms\n");
  assert_span (run, 4, 1, 2);
  assert_span (run, 5, 2, 3);
  g_assert_cmpint (op (run, 4)->conn, ==, 1);
  g_assert_cmpint (op (run, 5)->conn, ==, 0);
  assert_cause (run, 4, ENG_CAUSE_QUEUE, 1);
  assert_cause (run, 5, ENG_CAUSE_QUEUE, 3);
  run_free (run);
}

/* A connection is held by an op still on its way to it ("wide-on-submit-
 * latency": each launch call takes 10 us and arrives 25 us after it ends).
 * Issued at: s1 A (1 ms, op 0) 0, s1 B (op 1) 10, host work (op 2) 20..50,
 * s2 A (2 ms, op 3) 50, s2 B (op 4) 60, s3's kernel (op 5) 70. Arrivals:
 * op 0 35, op 1 45, op 3 85, op 4 95. s1 has conn1 and s2 conn0. At 70
 * conn1 is held by B at its head, and conn0 by s2's B, which has not arrived
 * but waits for s2's A: every connection is held, so op 5 takes the round
 * robin's next, conn1, arrives at 105 behind s1's B, and both go when s1's A
 * ends: 1035..2035 us. Counting only ops that have arrived, conn0 would look
 * free and op 5 would wait behind s2's B instead, until 2085 us. */
static void
test_assign_on_submit_held_on_the_way (void)
{
  Run *run = run_text ("wide-on-submit-latency",
                       "connections 2\nrepeat i 1..3\n  stream s$i\nend\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "host 30us\n"
                       "kernel s2 grid=1 block=256 time=2ms\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "kernel s3 grid=1 block=256 time=1ms\n");
  g_assert_cmpint (op (run, 5)->issue, ==, 70 * US);
  g_assert_cmpint (op (run, 5)->conn, ==, 1);
  g_assert_cmpint (op (run, 5)->start, ==, 1035 * US);
  g_assert_cmpint (op (run, 5)->end, ==, 2035 * US);
  assert_cause (run, 5, ENG_CAUSE_QUEUE, 1);
  run_free (run);
}

/* A connection is held until what was issued to it has arrived, whether or
 * not it waits for anything ("wide-on-submit-latency" as above). Issued at:
 * s1 A (1 ms, op 0) 0, s1 B (op 1) 10, s2's kernel (1 ms, op 2) 20, host
 * work (op 3) 30..130, s3's kernel (op 4) 130, s4's (op 5) 140. s1 takes
 * conn1 and s2 conn0 (op 2 arrives at 55 and runs 55..1055). At 130 conn1 is
 * held by B and conn0 is free, so s3 takes conn0 (arrives 165, runs
 * 165..1165). At 140 conn0 is held by s3's kernel on its way: every
 * connection is held, s4 takes conn1, the round robin's next, and waits
 * behind B until s1's A ends:
 * 1035..2035 us. (This is connections-idle, whose s4 both GPUs held in some
 * runs and started at once in others: validate/results/h100/assign-on-submit.) */
static void
test_assign_on_submit_held_until_arrived (void)
{
  Run *run = run_text ("wide-on-submit-latency",
                       "connections 2\nrepeat i 1..4\n  stream s$i\nend\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "host 100us\n"
                       "kernel s3 grid=1 block=256 time=1ms\n"
                       "kernel s4 grid=1 block=256 time=1ms\n");
  g_assert_cmpint (op (run, 4)->conn, ==, 0);
  g_assert_cmpint (op (run, 4)->start, ==, 165 * US);
  g_assert_cmpint (op (run, 5)->issue, ==, 140 * US);
  g_assert_cmpint (op (run, 5)->conn, ==, 1);
  g_assert_cmpint (op (run, 5)->start, ==, 1035 * US);
  assert_cause (run, 5, ENG_CAUSE_QUEUE, 1);
  run_free (run);
}

/* A stream keeps its connection while its work is in flight and takes one
 * anew when it has none. s1's first kernel (op 0, 0..1) takes conn1; its
 * second (op 1, 1..2), issued while op 0 runs, stays on conn1 although the
 * round robin points at conn0. `sync device` (op 2) returns at 2. The
 * default stream's kernel (op 3, 2..3) is on conn0 and moves nothing; s1's
 * next kernel (op 4) finds s1 idle and takes conn0, the round robin's next;
 * it waits for the default stream's kernel (legacy): 3..4. */
static void
test_assign_on_submit_keeps_while_busy (void)
{
  Run *run = run_text ("wide-on-submit",
                       "connections 2\nstream s1\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "sync device\n"
                       "kernel default grid=1 block=256 time=1ms\n"
                       "kernel s1 grid=1 block=256 time=1ms\n");
  assert_span (run, 1, 1, 2);
  assert_span (run, 3, 2, 3);
  assert_span (run, 4, 3, 4);
  g_assert_cmpint (op (run, 0)->conn, ==, 1);
  g_assert_cmpint (op (run, 1)->conn, ==, 1);
  g_assert_cmpint (op (run, 3)->conn, ==, 0);
  g_assert_cmpint (op (run, 4)->conn, ==, 0);
  assert_cause (run, 4, ENG_CAUSE_LEGACY, 3);
  run_free (run);
}

/* The left-over policy on 2 SMs x 2 slots of 512 threads. K1 (6 blocks of
 * 1 ms) and K2 (2 blocks) are both issued at 0. K1 takes all 4 slots at 0;
 * K2 gets nothing while K1 has blocks left. At 1 K1 dispatches its last 2
 * blocks and K2 takes the 2 free slots: K1 0..2, K2 1..2. */
static void
test_left_over_policy (void)
{
  Run *run = run_text ("slots4",
                       "stream s1\nstream s2\n"
                       "kernel s1 grid=6 block=512 block_time=1ms\n"
                       "kernel s2 grid=2 block=512 block_time=1ms\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 1, 2);
  assert_cause (run, 1, ENG_CAUSE_SLOTS, 0);
  run_free (run);
}

/* Priorities on 4 slots. lo1 (8 blocks = 2 waves) and lo2 (4 blocks) in
 * priority-0 streams, then hi (4 blocks) in a priority -1 stream, all issued
 * at 0. lo1 takes the 4 slots at 0; hi is ahead of lo1's remaining blocks
 * and of lo2 when slots free at 1: hi 1..2, lo1's second wave 2..3, lo2 3..4.
 * Nothing is preempted: lo1's first wave runs to its end. */
static void
test_priorities (void)
{
  Run *run = run_text ("slots4",
                       "stream lo1\nstream lo2\nstream hi priority=-1\n"
                       "kernel lo1 grid=8 block=512 block_time=1ms\n"
                       "kernel lo2 grid=4 block=512 block_time=1ms\n"
                       "kernel hi grid=4 block=512 block_time=1ms\n");
  assert_span (run, 0, 0, 3);
  assert_span (run, 2, 1, 2);
  assert_span (run, 1, 3, 4);
  run_free (run);
}

/* Pageable copies hold the host. A 4 MiB pageable H2D runs at half speed:
 * 0..2, and the host issues the next kernel only at 2: 2..3. With pinned
 * memory the kernel of another stream starts at 0. */
static void
test_pageable_blocks_host (void)
{
  Run *run = run_text ("schematic-k20",
                       "stream s1\nstream s2\n"
                       "h2d s1 4MiB pageable\n"
                       "kernel s2 grid=1 block=256 time=1ms\n");
  assert_span (run, 0, 0, 2);
  g_assert_cmpint (op (run, 1)->issue, ==, 2 * MS);
  assert_span (run, 1, 2, 3);
  run_free (run);

  run = run_text ("schematic-k20",
                  "stream s1\nstream s2\n"
                  "h2d s1 4MiB\n"
                  "kernel s2 grid=1 block=256 time=1ms\n");
  assert_span (run, 0, 0, 1);
  assert_span (run, 1, 0, 1);
  run_free (run);
}

/* A pageable copy does not hold its engine (eng_copy.c): a pinned copy that
 * becomes ready while it runs starts at once, and the pageable copy waits
 * meanwhile. schematic-k20, worked by hand: a 4 MiB pinned copy takes 1 ms,
 * a 4 MiB pageable one 2 ms.
 *   inside: the kernel of s2 runs 0..1; the pinned H2D behind it is ready at
 *   1 and runs 1..2 beside the pageable H2D of s1 (started at 0), which has
 *   done 1 of its 2 ms by then and ends at 2 + 1 = 3. (Holding the engine,
 *   the pinned copy would have run 2..3.)
 *   after: a pageable D2H ready while an 8 MiB pinned D2H runs 0..2 waits
 *   for it, as any copy does: 2..4, the engine's cause naming op 0. */
static void
test_pageable_yields_engine (void)
{
  Run *run = run_text ("schematic-k20",
                       "stream s1\nstream s2\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "h2d s2 4MiB\n"
                       "h2d s1 4MiB pageable\n");
  assert_span (run, 0, 0, 1);
  assert_span (run, 1, 1, 2);
  assert_cause (run, 1, ENG_CAUSE_STREAM, 0);
  assert_span (run, 2, 0, 3);
  run_free (run);

  run = run_text ("schematic-k20",
                  "stream s1\nstream s2\n"
                  "d2h s2 8MiB\n"
                  "d2h s1 4MiB pageable\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 2, 4);
  assert_cause (run, 1, ENG_CAUSE_ENGINE, 0);
  run_free (run);
}

/* A paused pageable copy is not slowed by duplex, and the copies running
 * are. duplex-half (schematic-k20 at duplex factor 0.5), worked by hand:
 * the pinned D2H (1 ms alone) and the pageable H2D (2 ms alone) start at 0,
 * at half speed each. At 1 the kernel ends and the pinned H2D (1 ms alone)
 * starts, pausing the pageable copy, which has done 0.5 ms. The D2H has
 * 0.5 ms left at half speed: it ends at 2. The pinned H2D has done 0.5 ms
 * by 2 and runs alone at full speed from then: ends at 2.5. The pageable
 * copy resumes alone, 1.5 ms left: ends at 4. */
static void
test_pageable_pause_duplex (void)
{
  Run *run = run_text ("duplex-half",
                       "stream s1\nstream s2\nstream s3\n"
                       "kernel s2 grid=1 block=256 time=1ms\n"
                       "h2d s2 4MiB\n"
                       "d2h s3 4MiB\n"
                       "h2d s1 4MiB pageable\n");
  assert_span (run, 0, 0, 1);
  g_assert_cmpint (op (run, 1)->start, ==, 1 * MS);
  g_assert_cmpint (op (run, 1)->end, ==, 2500 * US);
  assert_span (run, 2, 0, 2);
  assert_span (run, 3, 0, 4);
  run_free (run);
}

/* 2D copies (rows=) on schematic-rows, worked by hand: a 4 MiB pinned H2D
 * takes 1 ms and its engine moves at most 2.048 million rows a second.
 *   In 4096 rows of 1 KiB the rows take 2 ms, more than the bytes: 0..2,
 *   holding the H2D engine, so the plain 4 MiB H2D of s2 waits for it: 2..3.
 *   In 1024 rows of 4 KiB the rows take 0.5 ms and the bytes set the pace:
 *   0..1, as a plain copy. Pageable (half speed, 2 ms) in 8192 rows: 4 ms,
 *   holding the host, so the kernel is issued at 4. No D2D row rate: a d2d
 *   copy of any rows takes what its bytes do. */
static void
test_copy_rows (void)
{
  Run *run = run_text ("schematic-rows",
                       "stream s1\nstream s2\n"
                       "h2d s1 4MiB rows=4096\n"
                       "h2d s2 4MiB\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 2, 3);
  assert_cause (run, 1, ENG_CAUSE_ENGINE, 0);
  run_free (run);

  run = run_text ("schematic-rows", "stream s1\nh2d s1 4MiB rows=1024\n");
  assert_span (run, 0, 0, 1);
  run_free (run);

  run = run_text ("schematic-rows",
                  "stream s1\nstream s2\n"
                  "h2d s1 4MiB pageable rows=8192\n"
                  "kernel s2 grid=1 block=256 time=1ms\n");
  assert_span (run, 0, 0, 4);
  g_assert_cmpint (op (run, 1)->issue, ==, 4 * MS);
  assert_span (run, 1, 4, 5);
  run_free (run);

  Run *plain = run_text ("schematic-rows", "stream s1\nd2d s1 4MiB\n");
  run = run_text ("schematic-rows", "stream s1\nd2d s1 4MiB rows=4194304\n");
  g_assert_cmpint (op (run, 0)->end, ==, op (plain, 0)->end);
  run_free (run);
  run_free (plain);
}

/* Untouched pageable memory runs on its own link (schematic-untouched):
 * the 4 MiB H2D takes 0.5 ms + 4 MiB / 1.048576 GB/s = 4.5 ms and holds
 * the host, so the kernel is issued at 4.5: 4.5..5.5; the 2 MiB D2H,
 * issued at 4.5 behind the H2D in s1, takes 0 + 2 MiB / 0.524288 GB/s =
 * 4 ms: 4.5..8.5. On schematic-k20, which has no untouched link, the same
 * copies run on the pageable one (half the pinned speed): the H2D 0..2,
 * the kernel 2..3, the D2H 1 ms: 2..3. */
static void
test_untouched_link (void)
{
  const char *text = "stream s1\nstream s2\n"
                     "h2d s1 4MiB pageable untouched\n"
                     "kernel s2 grid=1 block=256 time=1ms\n"
                     "d2h s1 2MiB untouched pageable\n";
  Run *run = run_text ("schematic-untouched", text);
  g_assert_cmpint (op (run, 0)->start, ==, 0);
  g_assert_cmpint (op (run, 0)->end, ==, 4500 * US);
  g_assert_cmpint (op (run, 1)->issue, ==, 4500 * US);
  g_assert_cmpint (op (run, 1)->start, ==, 4500 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 5500 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 4500 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 8500 * US);
  run_free (run);

  run = run_text ("schematic-k20", text);
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 2, 3);
  assert_span (run, 2, 2, 3);
  run_free (run);
}

/* A pageable buffer in the CPU's caches runs on its own link where the
 * profile has one (schematic-cached: H2D 0.25 ms + 4 MiB / 4.194304 GB/s;
 * no D2H link), by hand:
 *   op 0 h2d 4 MiB pageable: the pageable link, 2 ms: 0..2 (the host held);
 *   op 1 h2d 4 MiB pageable cached: 0.25 + 1 ms: 2..3.25;
 *   op 2 d2h 2 MiB pageable cached: no cached D2H link, so the pageable one,
 *        1 ms: 3.25..4.25;
 *   op 3 h2d 256 KiB pageable cached: 0.25 + 0.0625 ms on the cached link,
 *        0.125 ms on the pageable one, which is taken: 4.25..4.375.
 * Measured: a 4 MiB buffer copied over and over went to the device in 316 us
 * on an H100 and 363 on an H200, against 625 and 689 evicted
 * (validate/results/<gpu>/pageable-probe/again/). */
static void
test_cached_link (void)
{
  Run *run = run_text ("schematic-cached", "stream s1\n"
                                           "h2d s1 4MiB pageable\n"
                                           "h2d s1 4MiB pageable cached\n"
                                           "d2h s1 2MiB pageable cached\n"
                                           "h2d s1 256KiB pageable cached\n");
  assert_span (run, 0, 0, 2);
  g_assert_cmpint (op (run, 1)->start, ==, 2000 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 3250 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 3250 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 4250 * US);
  g_assert_cmpint (op (run, 3)->start, ==, 4250 * US);
  g_assert_cmpint (op (run, 3)->end, ==, 4375 * US);
  run_free (run);
}

/* Pageable H2D times by size (schematic-sizes: from the line's latency, 0,
 * to 100 us at 64 KiB, 50 us at 128 KiB, 100 us at 256 KiB, 700 us at 1 MiB,
 * beyond at the line's 2.097152 GB/s; its cached line 0.25 ms + 4 MiB /
 * 4.194304 GB/s), by hand, one after another since each holds the host:
 *   op 0 h2d 32 KiB: half way to 64 KiB, 50 us: 0..50;
 *   op 1 h2d 96 KiB: half way down from 64 to 128 KiB, 75 us: 50..125;
 *   op 2 h2d 128 KiB: the point, 50 us: 125..175;
 *   op 3 h2d 512 KiB: a third of the way from 256 KiB to 1 MiB,
 *        100 + 600 / 3 = 300 us: 175..475;
 *   op 4 h2d 2 MiB: 700 us + 1 MiB at the line's rate, 500 us: 475..1675;
 *   op 5 h2d 1 MiB cached: the points, 700 us, though the cached line
 *        gives 500: 1675..2375;
 *   op 6 h2d 2 MiB cached: beyond the points the faster of the cached line,
 *        0.25 + 0.5 ms, and the pageable one, 1.2 ms: 2375..3125;
 *   op 7 d2h 128 KiB: no D2H points, the line: 62.5 us: 3125..3187.5.
 * Measured: an H2D of a buffer the CPU had just written took 10.5 us at
 * 16 KiB, 20.75 at 64 KiB, 14.1 at 80 KiB and 24.25 at 256 KiB on the H100
 * (medians over three machines), where the line gives 8.0, 13.1, 16.2 and
 * 33.6 (validate/results/h100/pageable-probe/: again/, small/, sizes/). */
static void
test_pageable_sizes (void)
{
  Run *run = run_text ("schematic-sizes", "stream s1\n"
                                          "h2d s1 32KiB pageable\n"
                                          "h2d s1 96KiB pageable\n"
                                          "h2d s1 128KiB pageable\n"
                                          "h2d s1 512KiB pageable\n"
                                          "h2d s1 2MiB pageable\n"
                                          "h2d s1 1MiB pageable cached\n"
                                          "h2d s1 2MiB pageable cached\n"
                                          "d2h s1 128KiB pageable\n");
  const SimTime ends[] = { 50, 125, 175, 475, 1675, 2375, 3125 };
  SimTime start = 0;
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    {
      g_assert_cmpint (op (run, i)->start, ==, start);
      g_assert_cmpint (op (run, i)->end, ==, ends[i] * US);
      start = ends[i] * US;
    }
  g_assert_cmpint (op (run, 7)->start, ==, 3125 * US);
  g_assert_cmpint (op (run, 7)->end, ==, 3187500);
  run_free (run);
}

/* A pinned copy inside a pageable one of its direction (schematic-overlap:
 * 4 MiB pinned in 1 ms, pageable in 2 ms, d2h_pageable_overlap 0.25 ms,
 * calls and latencies free), by hand. D2H: the pageable copy runs from 0;
 * the pinned one, behind a 0.5 ms kernel, runs 0.5..1.5 at once; the
 * pageable copy goes on through its first 0.25 ms (0.75 ms of its 2 done),
 * is held up 0.75..1.5 and ends 1.25 ms later, at 2.75 (3 where held at
 * once). A 1 MiB pageable D2H (0.5 ms) with the pinned copy from 0.4 ends
 * inside the window, at 0.5, as alone. H2D has no overlap: the pageable
 * H2D is held up for all of the pinned one, 0.5..1.5, and ends at 3. The
 * checker holds the run to the same rule. */
static void
test_pageable_overlap (void)
{
  Run *run = run_text ("schematic-overlap", "stream s1\n"
                                            "stream s2\n"
                                            "kernel s2 grid=1 block=32 time=0.5ms\n"
                                            "d2h s2 4MiB\n"
                                            "d2h s1 4MiB pageable\n"
                                            "sync device\n"
                                            "kernel s2 grid=1 block=32 time=0.4ms\n"
                                            "d2h s2 4MiB\n"
                                            "d2h s1 1MiB pageable\n"
                                            "sync device\n"
                                            "kernel s2 grid=1 block=32 time=0.5ms\n"
                                            "h2d s2 4MiB\n"
                                            "h2d s1 4MiB pageable\n");
  g_assert_cmpint (op (run, 1)->start, ==, 500 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 1500 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 0);
  g_assert_cmpint (op (run, 2)->end, ==, 2750 * US);
  SimTime t = op (run, 3)->end;
  g_assert_cmpint (op (run, 6)->start, ==, t);
  g_assert_cmpint (op (run, 6)->end, ==, t + 500 * US);
  g_assert_cmpint (op (run, 5)->start, ==, t + 400 * US);
  t = op (run, 7)->end;
  g_assert_cmpint (op (run, 10)->start, ==, t);
  g_assert_cmpint (op (run, 10)->end, ==, t + 3 * MS);
  g_autoptr (EngCheck) check
    = eng_check_results (&run->profile, run->sched, eng_sim_connections (run->sim),
                         eng_sim_copy_connections (run->sim), eng_sim_results (run->sim));
  g_assert_cmpuint (eng_check_n_violations (check), ==, 0);
  run_free (run);
}

/* A buffer partly untouched (schematic-untouched; its pageable links are
 * schematic-k20's, 2.097152 GB/s and no latency both ways): the 4 MiB H2D
 * with 1 MiB untouched takes the untouched latency, 0.5 ms, + 1 MiB /
 * 1.048576 GB/s = 1 ms + 3 MiB / 2.097152 GB/s = 1.5 ms: 0..3 ms, holding
 * the host; the 2 MiB D2H with 1 MiB untouched 0 + 1 MiB / 0.524288 GB/s =
 * 2 ms + 1 MiB / 2.097152 GB/s = 0.5 ms: 3..5.5; untouched=0 is plain
 * pageable, 2 MiB in 1 ms: 5.5..6.5. */
static void
test_partly_untouched (void)
{
  const char *text = "stream s1\n"
                     "h2d s1 4MiB pageable untouched=1MiB\n"
                     "d2h s1 2MiB pageable untouched=1MiB\n"
                     "h2d s1 2MiB pageable untouched=0\n";
  Run *run = run_text ("schematic-untouched", text);
  g_assert_cmpint (op (run, 0)->start, ==, 0);
  g_assert_cmpint (op (run, 0)->end, ==, 3 * MS);
  g_assert_cmpint (op (run, 1)->start, ==, 3 * MS);
  g_assert_cmpint (op (run, 1)->end, ==, 5500 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 5500 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 6500 * US);
  run_free (run);
}

/* Untouched memory whose pages fault in huge (schematic-huge: H2D 0.1 ms +
 * 4 MiB in 1 ms, D2H 2 MiB in 1 ms; its untouched links schematic-untouched's,
 * H2D 0.5 ms + 4 MiB in 4 ms, and pageable ones 2 MiB in 1 ms), by hand, one
 * after another since each holds the host:
 *   op 0 h2d 4 MiB untouched huge: 0.1 + 1 ms: 0..1.1;
 *   op 1 d2h 2 MiB untouched huge: 1 ms: 1.1..2.1;
 *   op 2 h2d 4 MiB untouched=1MiB huge: 0.1 + 1 MiB on the huge link, 0.25,
 *        + 3 MiB on the pageable one, 1.5: 2.1..3.95;
 *   op 3 h2d 4 MiB untouched (small pages): 0.5 + 4 ms: 3.95..8.45;
 *   op 4 h2d 4 MiB untouched huge=1MiB: the huge link's latency 0.1, 1 MiB
 *        on it, 0.25, and 3 MiB on the untouched one, 3: 8.45..11.8.
 * On schematic-untouched, which has no huge links, op 0 takes the untouched
 * link: 0.5 + 4 ms. Measured: a 16 MiB D2H into fresh memory advised
 * MADV_HUGEPAGE took 5.0 to 5.3 ms on an H200, 12.6 to 12.9 on small pages
 * (validate/results/h200/untouched-huge/). */
static void
test_untouched_huge (void)
{
  const char *text = "stream s1\n"
                     "h2d s1 4MiB pageable untouched huge\n"
                     "d2h s1 2MiB pageable untouched huge\n"
                     "h2d s1 4MiB pageable untouched=1MiB huge\n"
                     "h2d s1 4MiB pageable untouched\n"
                     "h2d s1 4MiB pageable untouched huge=1MiB\n";
  Run *run = run_text ("schematic-huge", text);
  const SimTime ends[] = { 1100, 2100, 3950, 8450, 11800 };
  SimTime start = 0;
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    {
      g_assert_cmpint (op (run, i)->start, ==, start);
      g_assert_cmpint (op (run, i)->end, ==, ends[i] * US);
      start = ends[i] * US;
    }
  run_free (run);
  run = run_text ("schematic-untouched", text);
  g_assert_cmpint (op (run, 0)->end, ==, 4500 * US);
  run_free (run);
}

/* time= lists: the device's own name wins, then the names it inherits
 * (schematic-c2050 inherits schematic-base), then the bare fallback. */
static void
test_per_device_time (void)
{
  const char *text = "stream s1\n"
                     "kernel s1 grid=1 block=256 time=schematic-k20:3ms,schematic-base:5ms,2ms\n";
  Run *run = run_text ("schematic-k20", text);
  assert_span (run, 0, 0, 3);
  run_free (run);
  run = run_text ("schematic-c2050", text);
  assert_span (run, 0, 0, 5);
  run_free (run);
  run = run_text ("schematic-k20", "stream s1\nkernel s1 grid=1 block=256 time=c1060:9ms,2ms\n");
  assert_span (run, 0, 0, 2);
  run_free (run);
}

/* Duplex: with factor 0.5, an H2D of 4 MiB (1 ms alone) and a D2H of 2 MiB
 * (0.5 ms alone) start together at half speed. The D2H needs 0.5 ms of solo
 * progress: it ends at 1. By then the H2D has done 0.5 of its 1 ms and runs
 * the rest alone: it ends at 1.5. */
static void
test_duplex (void)
{
  Run *run = run_text ("duplex-half",
                       "stream s1\nstream s2\n"
                       "h2d s1 4MiB\n"
                       "d2h s2 2MiB\n");
  g_assert_cmpint (op (run, 0)->start, ==, 0);
  g_assert_cmpint (op (run, 0)->end, ==, 3 * MS / 2);
  g_assert_cmpint (op (run, 1)->end, ==, 1 * MS);
  run_free (run);
}

/* A synchronize that finds nothing to wait for costs sync_idle, not sync
 * (schematic-sync: 2 us and 0.5 us), worked by hand: the copy runs 0..1 ms;
 * the first `sync s1` waits for it and returns 2 us after, at 1.002 ms; the
 * second finds s1 idle and returns 0.5 us after its call, at 1.0025 ms. */
static void
test_idle_sync (void)
{
  Run *run = run_text ("schematic-sync",
                       "stream s1\n"
                       "h2d s1 4MiB\n"
                       "sync s1\n"
                       "sync s1\n");
  assert_span (run, 0, 0, 1);
  g_assert_cmpint (op (run, 1)->end, ==, 1 * MS + 2 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 1 * MS + 2 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 1 * MS + 2 * US + US / 2);
  run_free (run);
}

/* `poll`: a loop of queries whose first to begin once the work is seen
 * done is its last, worked by hand. schematic-sync has neither `query` nor
 * `query_latency`, so a query costs its sync_idle, 0.5 us, and finds work
 * done its sync, 2 us, after it ended: the copy runs 0..1 ms, seen at
 * 1002 us; `poll s1 every=0.3ms`, called at 0, queries at 0, 300.5, 601,
 * 901.5 and 1202 us (0.5 + 300 us apart) and returns after the last, at
 * 1202.5 us; the next `poll s1` finds the work done and returns after one
 * query, at 1203 us; `poll e` (the event recorded after the copy) returns
 * after one query too, at 1203.5 us. With schematic-poll's `query` of 0.2
 * us and `query_latency` of 1 us, and no host work between queries, the
 * queries begin every 0.2 us from 0: the first at or after 1001 us is the
 * 5006th, at 1001 us, and the loop returns at 1001.2 us. */
static void
test_poll (void)
{
  static const char text[] = "stream s1\n"
                             "h2d s1 4MiB\n"
                             "record e s1\n"
                             "poll s1 every=0.3ms\n"
                             "poll s1\n"
                             "poll e\n";
  Run *run = run_text ("schematic-sync", text);
  assert_span (run, 0, 0, 1);
  g_assert_cmpint (op (run, 2)->start, ==, 0);
  g_assert_cmpint (op (run, 2)->end, ==, 1202 * US + US / 2);
  assert_cause (run, 2, ENG_CAUSE_SYNC, 1);
  g_assert_cmpint (op (run, 3)->end, ==, 1203 * US);
  g_assert_cmpint (op (run, 4)->end, ==, 1203 * US + US / 2);
  g_autoptr (GString) why = g_string_new (NULL);
  cause_text_append (run->sim, 2, why);
  g_assert_cmpstr (why->str, ==, "poll until op 1 finished");
  run_free (run);

  run = run_text ("schematic-poll", "stream s1\nh2d s1 4MiB\npoll s1\n");
  g_assert_cmpint (op (run, 1)->end, ==, 1001 * US + US / 5);
  run_free (run);
}

/* Host work and syncs: the kernel runs 0..2; `sync s1` holds the host until
 * 2; host work 1 ms: 2..3; the next kernel is issued at 3: 3..4; `sync device`
 * returns at 4. */
static void
test_host_and_sync (void)
{
  Run *run = run_text ("schematic-k20",
                       "stream s1\n"
                       "kernel s1 grid=1 block=256 time=2ms\n"
                       "sync s1\n"
                       "host 1ms\n"
                       "kernel s1 grid=1 block=256 time=1ms\n"
                       "sync device\n");
  assert_span (run, 0, 0, 2);
  g_assert_cmpint (op (run, 1)->end, ==, 2 * MS);
  assert_cause (run, 1, ENG_CAUSE_SYNC, 0);
  assert_span (run, 2, 2, 3);
  g_assert_cmpint (op (run, 3)->issue, ==, 3 * MS);
  assert_span (run, 3, 3, 4);
  g_assert_cmpint (op (run, 4)->end, ==, 4 * MS);
  g_assert_cmpint (eng_sim_makespan (run->sim), ==, 4 * MS);
  run_free (run);
}

/* Two H2D copies of different streams share the one h2d engine even on
 * different connections: 0..1 and 1..2; the second waited for the engine. */
static void
test_copy_engine_fifo (void)
{
  Run *run = run_text ("schematic-k20",
                       "stream s1\nstream s2\n"
                       "h2d s1 4MiB\n"
                       "h2d s2 4MiB\n");
  assert_span (run, 0, 0, 1);
  assert_span (run, 1, 1, 2);
  assert_cause (run, 1, ENG_CAUSE_ENGINE, 0);
  run_free (run);
}

/* A copy engine keeps serving the connection it is on (measured on an H100
 * and an H200, traces/validation/copies-conn2). Four streams on two
 * connections: s1, s3 on conn0 and s2, s4 on conn1; all four 4 MiB H2Ds are
 * issued at 0. s1 runs 0..1 and s3 moves up to conn0's head; at 1 both s3
 * (conn0) and s2 (conn1, ready since 0) wait: conn0 goes on, s3 1..2, then
 * s2 2..3 and s4 3..4. (FIFO by readiness would give s2 1..2, s3 2..3.) */
static void
test_copy_engine_connection_turns (void)
{
  Run *run = run_text ("schematic-k20",
                       "connections 2\n"
                       "stream s1\nstream s2\nstream s3\nstream s4\n"
                       "h2d s1 4MiB\nh2d s2 4MiB\nh2d s3 4MiB\nh2d s4 4MiB\n");
  assert_span (run, 0, 0, 1);
  assert_span (run, 2, 1, 2);
  assert_span (run, 1, 2, 3);
  assert_span (run, 3, 3, 4);
  run_free (run);
}

/* Wave quantization: on 2 SMs x 2 slots, time=3ms for 10 blocks is 3 waves
 * of 1 ms. A kernel of 4 blocks with the same block time takes 1 wave. */
static void
test_waves (void)
{
  Run *run = run_text ("slots4",
                       "stream s1\n"
                       "kernel s1 grid=10 block=512 time=3ms\n"
                       "kernel s1 grid=4 block=512 block_time=1ms\n");
  assert_span (run, 0, 0, 3);
  assert_span (run, 1, 3, 4);
  run_free (run);
}

/* A block larger than the device allows is refused with file:line:column. */
static void
test_block_too_large (void)
{
  const char *text = "stream s1\nkernel s1 grid=1 block=1024 smem=64KiB time=1ms\n";
  g_autoptr (GError) error = NULL;
  ScheduleParseOptions options = { NULL, 0 };
  g_autoptr (Schedule) sched = schedule_parse_text ("big.sched", text, strlen (text), &options, &error);
  g_assert_no_error (error);
  GpuProfile profile = { 0 };
  g_assert_true (profile_load ("schematic-k20", &profile, &error));
  EngSim *sim = eng_sim_new (&profile, sched, 0, &error);
  g_assert_null (sim);
  g_assert_error (error, ENG_ERROR, ENG_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "big.sched:2:1: "));
  gpu_profile_clear (&profile);
}

/* The legacy default stream keeps conn0, which the driver gave it when the
 * context was created, so the round robin starts at conn1 and the C-th
 * stream to take a connection shares the default stream's (measured on an
 * H100 and an H200: validate/examples/default_queue.cu). Two connections,
 * non-blocking streams: s1 runs A (1 ms, op 0) and B behind it (op 1) on
 * conn1; s2 runs A (2 ms, op 2) and B (op 3) on conn0. The default stream's
 * kernel (op 4), not held by the legacy rule, joins conn0 behind s2's B:
 * both go when s2's A ends, 2..3 ms. With the documented rule (creation
 * order, "wide"), s1 shares conn0 with the default stream: op 4 waits
 * behind s1's B, 1..2 ms. */
static void
test_assign_on_submit_default_stream (void)
{
  const char *text = "connections 2\nstream s1 nonblocking\nstream s2 nonblocking\n"
                     "kernel s1 grid=1 block=256 time=1ms\n"
                     "kernel s1 grid=1 block=256 time=1ms\n"
                     "kernel s2 grid=1 block=256 time=2ms\n"
                     "kernel s2 grid=1 block=256 time=1ms\n"
                     "kernel default grid=1 block=256 time=1ms\n";
  Run *run = run_text ("wide-on-submit", text);
  g_assert_cmpint (op (run, 1)->conn, ==, 1);
  g_assert_cmpint (op (run, 3)->conn, ==, 0);
  g_assert_cmpint (op (run, 4)->conn, ==, 0);
  assert_span (run, 4, 2, 3);
  assert_cause (run, 4, ENG_CAUSE_QUEUE, 3);
  run_free (run);
  run = run_text ("wide", text);
  g_assert_cmpint (op (run, 1)->conn, ==, 0);
  assert_span (run, 4, 1, 2);
  assert_cause (run, 4, ENG_CAUSE_QUEUE, 1);
  run_free (run);
}

/* Copy queues when the connection count is left to the driver
 * ("wide-copy4": 8 connections, copy queues for 4; 4 MiB copies take 1 ms,
 * every latency 0). s1..s9 take connections 1..7, 0, 1 as they submit;
 * connection c's copies go to connection (c mod 4)'s queues. s1's D2H
 * (op 1) waits at the head of connection 1's D2H queue for s1's 1 ms kernel,
 * and runs 1..2. s5's D2H (op 5, connection 5) is in the same queue behind
 * it: it waits until op 1 starts, then for the engine: 2..3. s9 finds
 * connection 1 free (its kernel has gone to the SMs; the shared copy queue
 * is not its to hold) and takes it: its D2H (op 9) queues behind op 5,
 * 3..4. With `connections 8` every connection has its own copy queues:
 * op 5 runs at once, 0..1 (hand computed). So does it when copies of its
 * size keep their own queue ("wide-copy4-large"). */
static void
test_copy_queues_left_unset (void)
{
  const char *body = "repeat i 1..9\n  stream s$i\nend\n"
                     "kernel s1 grid=1 block=256 time=1ms\n"
                     "d2h s1 4MiB\n"
                     "repeat i 2..4\n  kernel s$i grid=1 block=256 time=1ms\nend\n"
                     "d2h s5 4MiB\n"
                     "repeat i 6..8\n  kernel s$i grid=1 block=256 time=1ms\nend\n"
                     "d2h s9 4MiB\n";
  Run *run = run_text ("wide-copy4", body);
  g_assert_cmpint (op (run, 1)->conn, ==, 1);
  g_assert_cmpint (op (run, 5)->conn, ==, 5);
  g_assert_cmpint (op (run, 8)->conn, ==, 0);
  g_assert_cmpint (op (run, 9)->conn, ==, 1);
  assert_span (run, 1, 1, 2);
  assert_span (run, 5, 2, 3);
  assert_span (run, 9, 3, 4);
  run_free (run);

  char *text = g_strconcat ("connections 8\n", body, NULL);
  run = run_text ("wide-copy4", text);
  assert_span (run, 5, 0, 1);
  run_free (run);
  g_free (text);

  /* Copies below shared_copy_min_size (8 MiB here) keep their own queue:
   * op 5 runs at once, 0..1, and op 1 after the kernel, 1..2. */
  run = run_text ("wide-copy4-large", body);
  assert_span (run, 5, 0, 1);
  assert_span (run, 1, 1, 2);
  run_free (run);
}

/* A d2d copy shares the compute queue with kernels, and a completion passes
 * between a kernel and a d2d of its stream as between two kernels; a D2H
 * waits the cross-engine latency (profile gaps: dependency 1 ms, kernel_gap
 * 0.25 ms; a 4 MiB copy and each kernel take 1 ms). By hand:
 *   op 0 kernel 0-1;
 *   op 1 d2d after op 0 and the kernel gap: 1.25-2.25;
 *   op 2 kernel after op 1 and the kernel gap: 2.5-3.5;
 *   op 3 d2h after op 2 and the dependency latency: 4.5-5.5.
 * Measured: a d2d behind a kernel started 1.0 us after it on an H100 and an
 * H200 (traces/validation/d2d), a D2H 4.8 and 7.1 us (the profiles'
 * `dependency`). */
static void
test_d2d_after_kernel (void)
{
  Run *run = run_text ("gaps", "stream s1\n"
                               "kernel s1 grid=1 block=32 block_time=1ms\n"
                               "d2d s1 4MiB\n"
                               "kernel s1 grid=1 block=32 block_time=1ms\n"
                               "d2h s1 4MiB\n");
  assert_span (run, 0, 0, 1);
  g_assert_cmpint (op (run, 1)->start, ==, 1250 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 2250 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 2500 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 3500 * US);
  g_assert_cmpint (op (run, 3)->start, ==, 4500 * US);
  g_assert_cmpint (op (run, 3)->end, ==, 5500 * US);
  run_free (run);
}

/* Memsets run on the SMs as a kernel of one 256-thread block per SM
 * (profile ops: 2 SMs of two 1024-thread blocks; 4 MiB of memset in 1 ms).
 * Measured on an H100 and an H200 (validate/results/<gpu>/probes/): a
 * memset waited for a kernel that filled every SM and ran beside a
 * one-block kernel.
 *   full:  the kernel's 4 blocks of 1024 threads fill both SMs for 2 ms, so
 *          the memset's blocks find no room until 2: 2-3, waiting for slots
 *          held by op 0;
 *   small: one 32-thread block leaves room: the memset runs 0-1 beside it. */
static void
test_memset_on_sms (void)
{
  Run *run = run_text ("ops", "stream s1\nstream s2\n"
                              "kernel s1 grid=4 block=1024 block_time=2ms\n"
                              "memset s2 4MiB\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 2, 3);
  assert_cause (run, 1, ENG_CAUSE_SLOTS, 0);
  g_assert_cmpuint (op (run, 1)->engine, ==, ENG_ENGINE_COMPUTE);
  run_free (run);

  run = run_text ("ops", "stream s1\nstream s2\n"
                         "kernel s1 grid=1 block=32 block_time=2ms\n"
                         "memset s2 4MiB\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 0, 1);
  run_free (run);
}

/* A memset of pinned host memory runs on the SMs as one of device memory
 * does, at memset_host_bandwidth (profile ops: 4 MiB in 4 ms; of device
 * memory, 1 ms). Measured on an H100 (validate/results/h100/memset-host/):
 * it waited for a kernel that filled every SM and ran beside a one-block
 * kernel, at 52.5 GB/s.
 *   behind the full kernel (4 blocks of 1024 threads, 2 ms): 2-6, waiting
 *   for its slots;
 *   then a memset of device memory in the same stream: 6-7. */
static void
test_memset_pinned (void)
{
  Run *run = run_text ("ops", "stream s1\nstream s2\n"
                              "kernel s1 grid=4 block=1024 block_time=2ms\n"
                              "memset s2 4MiB pinned\n"
                              "memset s2 4MiB\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 2, 6);
  assert_cause (run, 1, ENG_CAUSE_SLOTS, 0);
  g_assert_cmpuint (op (run, 1)->engine, ==, ENG_ENGINE_COMPUTE);
  assert_span (run, 2, 6, 7);
  run_free (run);
}

/* A host thread that sleeps in its waits (`device_schedule blocking_sync`,
 * an event made blocking_sync) returns the profile's wake after the GPU is
 * done, by how long it waited (schematic-sleep: sync 2 us, idle 0.5 us; the
 * wake 0.1 ms up to a wait of 1 ms, 0.3 ms from 3 ms, straight between;
 * every call free, a 1-block kernel its time, a 4 MiB copy pinned 1 ms and
 * pageable 2 ms). Measured on an H100 and an H200
 * (validate/results/<gpu>/sync-mode/). Worked by hand, in ms:
 *   op 0 kernel 2 ms: 0-2; op 1 sync s1 waited 2 ms: wake 0.1 + (2 - 1) / 2
 *   x 0.2 = 0.2; returns 2 + 0.002 + 0.2 = 2.202;
 *   op 2 kernel 0.5 ms: 2.202-2.702; op 4 sync of the blocking_sync event
 *   waited 0.5 ms (under 1): wake 0.1; returns 2.804;
 *   op 5 kernel 4 ms: 2.804-6.804; op 7 sync of an event made without the
 *   flag spins, even so: 6.806;
 *   op 8 kernel of the legacy stream 1 ms: 6.806-7.806; op 9 memcpy d2h
 *   (pinned) behind it: its copy 7.806-8.806, called at 6.806, waited 2 ms:
 *   the host goes on 0.2 later, at 9.006 (op 10's call);
 *   op 10 pageable memcpy d2h 2 ms: 9.006-11.006, waited 2 ms, sleeping
 *   too: op 11 is called at 11.206;
 *   op 11 pageable memcpy h2d 2 ms: 11.206-13.206, spinning (its staging is
 *   the driver's own, not measured): op 12 is called at 13.206;
 *   op 12 kernel 1 ms: 13.206-14.206; op 13 sync device waited 1 ms: wake
 *   0.1, returns 14.308. */
static void
test_blocking_sync (void)
{
  Run *run = run_text ("schematic-sleep", "device_schedule blocking_sync\n"
                                          "stream s1\n"
                                          "event asleep blocking_sync\n"
                                          "kernel s1 grid=1 block=32 time=2ms\n"
                                          "sync s1\n"
                                          "kernel s1 grid=1 block=32 time=0.5ms\n"
                                          "record asleep s1\n"
                                          "sync asleep\n"
                                          "kernel s1 grid=1 block=32 time=4ms\n"
                                          "record plain s1\n"
                                          "sync plain\n"
                                          "kernel default grid=1 block=32 time=1ms\n"
                                          "memcpy d2h 4MiB\n"
                                          "memcpy d2h 4MiB pageable\n"
                                          "memcpy h2d 4MiB pageable\n"
                                          "kernel s1 grid=1 block=32 time=1ms\n"
                                          "sync device\n");
  g_assert_cmpint (op (run, 1)->end, ==, 2202 * US);
  g_assert_cmpint (op (run, 4)->end, ==, 2804 * US);
  g_assert_cmpint (op (run, 7)->end, ==, 6806 * US);
  g_assert_cmpint (op (run, 9)->start, ==, 7806 * US);
  g_assert_cmpint (op (run, 9)->end, ==, 8806 * US);
  g_assert_cmpint (op (run, 10)->issue, ==, 9006 * US);
  g_assert_cmpint (op (run, 10)->end, ==, 11006 * US);
  g_assert_cmpint (op (run, 11)->issue, ==, 11206 * US);
  g_assert_cmpint (op (run, 11)->end, ==, 13206 * US);
  g_assert_cmpint (op (run, 12)->issue, ==, 13206 * US);
  g_assert_cmpint (op (run, 13)->end, ==, 14308 * US);
  /* --explain says which waits slept */
  g_autoptr (GString) why = g_string_new (NULL);
  cause_text_append (run->sim, 1, why);
  g_assert_cmpstr (why->str, ==, "sync until op 0 finished, the thread asleep (blocking_sync)");
  g_string_truncate (why, 0);
  cause_text_append (run->sim, 7, why);
  g_assert_cmpstr (why->str, ==, "sync until op 6 finished");
  run_free (run);

  /* the same with `device_schedule spin`: every wait spins (op 1 2.002) */
  run = run_text ("schematic-sleep", "device_schedule spin\nstream s1\n"
                                     "kernel s1 grid=1 block=32 time=2ms\nsync s1\n");
  g_assert_cmpint (op (run, 1)->end, ==, 2002 * US);
  run_free (run);
}

/* Host functions run one at a time on the callback thread (profile ops:
 * wake-up 0.5 ms, or 2 ms where the stream was idle at the call; 0.25 ms from
 * one function's return to the next one's start; the stream goes on 0.1 ms
 * after its function returns), and hold no other stream:
 *   op 0 kernel s1 1 ms: 0-1;
 *   op 1 hostfn s1 1ms: s1 busy at the call (op 0 runs), ready when op 0
 *        ends at 1, begins after the wake-up: 1.5-2.5;
 *   op 2 hostfn s2 1ms: s2 idle at the call, ready at 0, but the thread is
 *        taken from 0 (op 1's wake-up at 1 comes later? no: op 2 is ready
 *        first, at 0, and the thread is idle): it begins after the idle
 *        wake-up at 2, so op 1, ready at 1, waits for it: op 2 2-3, op 1
 *        begins 0.25 after op 2 returns: 3.25-4.25;
 *   op 3 kernel s3 1 ms: 0-1, held by nothing;
 *   op 4 kernel s1 1 ms: after op 1 in its stream and the resume: 4.35-5.35. */
static void
test_hostfn (void)
{
  Run *run = run_text ("ops", "stream s1\nstream s2\nstream s3\n"
                              "kernel s1 grid=1 block=32 block_time=1ms\n"
                              "hostfn s1 1ms\n"
                              "hostfn s2 1ms\n"
                              "kernel s3 grid=1 block=32 block_time=1ms\n"
                              "kernel s1 grid=1 block=32 block_time=1ms\n");
  assert_span (run, 0, 0, 1);
  assert_span (run, 2, 2, 3);
  g_assert_cmpuint (op (run, 2)->engine, ==, ENG_ENGINE_CALLBACK);
  const EngOpResult *r = op (run, 1);
  g_assert_cmpint (r->start, ==, 3250 * US);
  g_assert_cmpint (r->end, ==, 4250 * US);
  assert_cause (run, 1, ENG_CAUSE_ENGINE, 2);
  assert_span (run, 3, 0, 1);
  r = op (run, 4);
  g_assert_cmpint (r->start, ==, 4350 * US);
  g_assert_cmpint (r->end, ==, 5350 * US);
  assert_cause (run, 4, ENG_CAUSE_STREAM, 1);
  run_free (run);
}

/* A graph launch (profile graphs: a launch call 1 ms, a graph launch call
 * 0.5 ms, kernel_gap 0.2 ms, graph_node_gap 0.1 ms, zero launch latency; a
 * 4 MiB memset 1 ms), worked out by hand:
 *   the graph's call holds the host 0 to 0.5; its nodes are issued at 0.5
 *   and cost the host nothing each;
 *   op 0 kernel 1 ms: 0.5-1.5;
 *   op 1 kernel 1 ms, after op 0 of the same launch: 1.6-2.6;
 *   op 2 memset 4 MiB, on the SMs, after op 1 of the same launch: 2.7-3.7;
 *   op 3 kernel 1 ms, no graph's, its call 0.5 to 1.5: after op 2 and
 *        kernel_gap, 3.9-4.9;
 * and the same without graph_node_gap and graph_launch (profile ops, its
 * launch 0 ms, gaps 0): 0-1, 1-2, 2-3, 3-4. */
static void
test_graph_launch (void)
{
  static const char text[] = "stream s1\n"
                             "graph s1\n"
                             "  kernel s1 grid=1 block=32 block_time=1ms\n"
                             "  kernel s1 grid=1 block=32 block_time=1ms\n"
                             "  memset s1 4MiB\n"
                             "end\n"
                             "kernel s1 grid=1 block=32 block_time=1ms\n";
  Run *run = run_text ("graphs", text);
  g_assert_cmpint (op (run, 0)->issue, ==, 0);
  g_assert_cmpint (op (run, 1)->issue, ==, 500 * US);
  g_assert_cmpint (op (run, 2)->issue, ==, 500 * US);
  g_assert_cmpint (op (run, 3)->issue, ==, 500 * US);
  g_assert_cmpint (op (run, 0)->start, ==, 500 * US);
  g_assert_cmpint (op (run, 0)->end, ==, 1500 * US);
  g_assert_cmpint (op (run, 1)->start, ==, 1600 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 2600 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 2700 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 3700 * US);
  g_assert_cmpint (op (run, 3)->start, ==, 3900 * US);
  g_assert_cmpint (op (run, 3)->end, ==, 4900 * US);
  assert_cause (run, 1, ENG_CAUSE_STREAM, 0);
  run_free (run);

  run = run_text ("ops", text);
  for (guint i = 0; i < 4; i++)
    assert_span (run, i, i, i + 1);
  run_free (run);
}

/* A graph's copy node after its kernel node (profile graph-copies: a graph
 * launch call 0.5 ms, a launch call 1 ms, copy calls free, dependency 1 ms,
 * graph_engine_gap 0.3 ms; each kernel and 4 MiB copy 1 ms), by hand:
 *   op 0 kernel, the graph's call 0 to 0.5: 0.5-1.5;
 *   op 1 d2h, after op 0 of the same launch and graph_engine_gap: 1.8-2.8;
 *   op 2 kernel, its call 0.5 to 1.5: after op 1 (no graph's) and
 *        dependency: 3.8-4.8;
 *   op 3 d2h, its call at 1.5: after op 2 and dependency: 5.8-6.8.
 * Measured: a D2H node after a kernel node cost jacobiCudaGraphs' graph 5.2
 * and 4.9 us on the H200 and the H100, run with no tracer, where its copy
 * takes 1.6 and the profiles' `dependency` is 7.1 and 4.8 us
 * (validate/results/<gpu>/graph-copy/). */
static void
test_graph_engine_gap (void)
{
  Run *run = run_text ("graph-copies", "stream s1\n"
                                       "graph s1\n"
                                       "  kernel s1 grid=1 block=32 block_time=1ms\n"
                                       "  d2h s1 4MiB\n"
                                       "end\n"
                                       "kernel s1 grid=1 block=32 block_time=1ms\n"
                                       "d2h s1 4MiB\n");
  g_assert_cmpint (op (run, 0)->start, ==, 500 * US);
  g_assert_cmpint (op (run, 0)->end, ==, 1500 * US);
  g_assert_cmpint (op (run, 1)->start, ==, 1800 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 2800 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 3800 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 4800 * US);
  g_assert_cmpint (op (run, 3)->start, ==, 5800 * US);
  g_assert_cmpint (op (run, 3)->end, ==, 6800 * US);
  run_free (run);
}

/* A graph with branches (profile graphs, as test_graph_launch), worked
 * out by hand from the rules of engines/MODEL.md ("Graph launches"):
 *   op 0 kernel s2 3 ms, its call 0-1: 1-4;
 *   the graph's call holds the host 1 to 1.5 (its first op is issued at 1,
 *        the others at 1.5, at no cost);
 *   op 1 A 1 ms: 1.5-2.5; op 2 the fork's record and op 3 s2's wait: 2.5,
 *        not after op 0, which is s2's work outside the graph;
 *   op 4 B 2 ms, after the record in s1 and graph_node_gap: 2.6-4.6;
 *   op 5 C 1 ms, after the wait in s2's branch: 2.6-3.6, beside op 0 and B
 *        (three one-block kernels on four block slots);
 *   op 6 the join's record in s2: 3.6; op 7 s1's wait: after B, 4.6;
 *   op 8 D 1 ms: 4.7-5.7;
 *   op 9 kernel s2 1 ms, its call 1.5-2.5: after op 0 and kernel_gap, not
 *        after the graph's C: 4.2-5.2. */
static void
test_graph_branches (void)
{
  Run *run = run_text ("graphs", "stream s1\nstream s2\n"
                                 "kernel s2 grid=1 block=32 block_time=3ms\n"
                                 "graph s1\n"
                                 "  kernel s1 grid=1 block=32 block_time=1ms\n"
                                 "  record fork s1\n"
                                 "  wait s2 fork\n"
                                 "  kernel s1 grid=1 block=32 block_time=2ms\n"
                                 "  kernel s2 grid=1 block=32 block_time=1ms\n"
                                 "  record joined s2\n"
                                 "  wait s1 joined\n"
                                 "  kernel s1 grid=1 block=32 block_time=1ms\n"
                                 "end\n"
                                 "kernel s2 grid=1 block=32 block_time=1ms\n");
  static const SimTime start[] = { 1000, 1500, 2500, 2500, 2600, 2600, 3600, 4600, 4700, 4200 };
  static const SimTime end[] = { 4000, 2500, 2500, 2500, 4600, 3600, 3600, 4600, 5700, 5200 };
  for (guint i = 0; i < G_N_ELEMENTS (start); i++)
    {
      g_assert_cmpint (op (run, i)->start, ==, start[i] * US);
      g_assert_cmpint (op (run, i)->end, ==, end[i] * US);
    }
  g_assert_cmpint (op (run, 1)->issue, ==, 1000 * US);
  for (guint i = 2; i < 9; i++)
    g_assert_cmpint (op (run, i)->issue, ==, 1500 * US);
  assert_cause (run, 5, ENG_CAUSE_EVENT, 2);
  assert_cause (run, 9, ENG_CAUSE_STREAM, 0);
  run_free (run);
}

/* A launch that loads its kernel's code (`loads`) waits for every op
 * issued before it, in every stream, starts module_load (1 ms on profile
 * ops) after the last ends, and holds back every op issued after it, in any
 * stream, until it starts; its call holds the host kernel_load (0.3 ms)
 * more. Measured on an H100 (traces/validation/loads, validate/results/
 * h100/new-ops/) and, for the wait, with the probe on an H200 too.
 *   op 0 kernel s1 2 ms: 0-2;
 *   op 1 kernel s2 1 ms, loads: after op 0 ends and the load: 3-4;
 *   op 2 kernel s3 1 ms, issued after op 1 (at 0.3, its call's cost): waits
 *        for op 1 to start: 3-4, beside it;
 *   op 3 kernel s1 1 ms: after op 0 in its stream, and after op 1 starts:
 *        3-4 too. */
static void
test_loads_waits_for_idle (void)
{
  Run *run = run_text ("ops", "stream s1\nstream s2\nstream s3\n"
                              "kernel s1 grid=1 block=32 block_time=2ms\n"
                              "kernel s2 grid=1 block=32 block_time=1ms loads\n"
                              "kernel s3 grid=1 block=32 block_time=1ms\n"
                              "kernel s1 grid=1 block=32 block_time=1ms\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 1, 3, 4);
  assert_cause (run, 1, ENG_CAUSE_LOAD, 0);
  g_assert_cmpint (op (run, 2)->issue, ==, 300 * US);
  assert_span (run, 2, 3, 4);
  assert_cause (run, 2, ENG_CAUSE_LOAD, 1);
  assert_span (run, 3, 3, 4);
  run_free (run);
}

/* Event records and waits hold no hardware queue: with one connection, a
 * record behind s1's 2 ms kernel does not keep s2's kernel from starting at
 * once. Measured on an H100 and an H200: traces/validation/markers-*.sched
 * (validate/results/<gpu>/markers/), s2's kernel at about 14 us in every
 * round. */
static void
test_record_holds_no_queue (void)
{
  Run *run = run_text ("ops", "connections 1\nstream s1\nstream s2\n"
                              "kernel s1 grid=1 block=32 block_time=2ms\n"
                              "record e1 s1\n"
                              "kernel s2 grid=1 block=32 block_time=1ms\n");
  assert_span (run, 0, 0, 2);
  assert_span (run, 2, 0, 1);
  run_free (run);
}

/* Host threads (schematic-sync: zero costs, a 4 MiB copy 1 ms, a sync 2 us
 * after its condition, 0.5 us when it finds nothing to wait for), worked out
 * by hand:
 *   op 0 thread w1 (main, 0): w1 starts at 0;
 *   op 1 h2d s1, w1 at 0: 0-1;  op 2 host 0.75 ms, w1: 0-0.75;
 *   op 3 d2h s2, w1 at 0.75: 0.75-1.75; w1's last call returned at 0.75;
 *   op 4 thread w2 (main, 0);  op 5 host 0.5 ms, w2: 0-0.5;
 *   op 6 sync device, w2 at 0.5: waits for what was issued before it, op 1
 *        (op 3 comes later), and returns at 1.002;
 *   op 7 join w1, main at 0: w1 ended at 0.75, so 0-0.75;
 *   op 8 join w2, main at 0.75: w2 ended at 1.002, so 0.75-1.002;
 *   op 9 sync device, main at 1.002: op 3 ends at 1.75; returns 1.752. */
static void
test_host_threads (void)
{
  Run *run = run_text ("schematic-sync",
                       "stream s1\nstream s2\n"
                       "thread w1\n"
                       "  h2d s1 4MiB\n"
                       "  host 750us\n"
                       "  d2h s2 4MiB\n"
                       "end\n"
                       "thread w2\n"
                       "  host 500us\n"
                       "  sync device\n"
                       "end\n"
                       "join w1\n"
                       "join w2\n"
                       "sync device\n");
  g_assert_cmpint (op (run, 0)->issue, ==, 0);
  g_assert_cmpint (op (run, 0)->end, ==, 0);
  assert_span (run, 1, 0, 1);
  g_assert_cmpint (op (run, 2)->end, ==, 750 * US);
  g_assert_cmpint (op (run, 3)->issue, ==, 750 * US);
  g_assert_cmpint (op (run, 3)->start, ==, 750 * US);
  g_assert_cmpint (op (run, 3)->end, ==, 1750 * US);
  g_assert_cmpint (op (run, 5)->end, ==, 500 * US);
  g_assert_cmpint (op (run, 6)->issue, ==, 500 * US);
  g_assert_cmpint (op (run, 6)->end, ==, 1 * MS + 2 * US);
  g_assert_cmpint (op (run, 7)->issue, ==, 0);
  g_assert_cmpint (op (run, 7)->end, ==, 750 * US);
  g_assert_cmpint (op (run, 8)->issue, ==, 750 * US);
  g_assert_cmpint (op (run, 8)->end, ==, 1 * MS + 2 * US);
  g_assert_cmpint (op (run, 9)->issue, ==, 1 * MS + 2 * US);
  g_assert_cmpint (op (run, 9)->end, ==, 1752 * US);
  g_assert_cmpint (eng_sim_makespan (run->sim), ==, 1752 * US);
  run_free (run);
}

/* Host threads' costs (schematic-threads), worked out by hand:
 *   op 0 thread w1 (main at 0): the run's first, 0-30 us; w1's first call 50 us
 *        after the start: op 1 host 100 us, 50-150; w1 ends at 150;
 *   op 2 thread w2 (main at 30): 30-40; w2's first call 20 us after: op 3 host
 *        100 us, 50-150; w2 ends at 150;
 *   op 4 join w1 (main at 40): w1 ends at 150, the join returns 5 us later, 155;
 *   op 5 join w2 (main at 155): w2 had ended, the join costs 1 us: 155-156. */
static void
test_host_thread_costs (void)
{
  Run *run = run_text ("schematic-threads",
                       "thread w1\n  host 100us\nend\n"
                       "thread w2\n  host 100us\nend\n"
                       "join w1\njoin w2\n");
  g_assert_cmpint (op (run, 0)->end, ==, 30 * US);
  g_assert_cmpint (op (run, 1)->start, ==, 50 * US);
  g_assert_cmpint (op (run, 1)->end, ==, 150 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 30 * US);
  g_assert_cmpint (op (run, 2)->end, ==, 40 * US);
  g_assert_cmpint (op (run, 3)->start, ==, 50 * US);
  g_assert_cmpint (op (run, 4)->issue, ==, 40 * US);
  g_assert_cmpint (op (run, 4)->end, ==, 155 * US);
  g_assert_cmpint (op (run, 5)->issue, ==, 155 * US);
  g_assert_cmpint (op (run, 5)->end, ==, 156 * US);
  g_assert_cmpint (eng_sim_makespan (run->sim), ==, 156 * US);
  run_free (run);
}

/* A thread's first call that puts work on the GPU costs thread_first_call
 * (7 us on schematic-threads) more; the main thread's does not. By hand,
 * launches costing nothing on the schematic device:
 *   op 0 SPAWN w1 0-30 (the run's first thread: thread_create_first);
 *   op 1 w1's first launch, issued at 50 (thread_start_first), its call
 *        50-57: runs 57-1057;
 *   op 2 w1's second launch, issued at 57, at no cost: runs 1057-2057; w1
 *        ends at 57;
 *   op 3 join, called at 30: returns 57 + thread_join_wake = 62;
 *   op 4 the main thread's launch, issued at 62, at no cost: op 5 (host
 *        work) issued at 62 too. */
static void
test_host_thread_first_call (void)
{
  Run *run = run_text ("schematic-threads", "stream s\n"
                                            "thread w1\n"
                                            "  kernel s grid=1 block=32 block_time=1ms\n"
                                            "  kernel s grid=1 block=32 block_time=1ms\n"
                                            "end\n"
                                            "join w1\n"
                                            "kernel s grid=1 block=32 block_time=1ms\n"
                                            "host 1us\n");
  g_assert_cmpint (op (run, 1)->issue, ==, 50 * US);
  g_assert_cmpint (op (run, 1)->start, ==, 57 * US);
  g_assert_cmpint (op (run, 2)->issue, ==, 57 * US);
  g_assert_cmpint (op (run, 2)->start, ==, 1057 * US);
  g_assert_cmpint (op (run, 3)->end, ==, 62 * US);
  g_assert_cmpint (op (run, 4)->issue, ==, 62 * US);
  g_assert_cmpint (op (run, 5)->issue, ==, 62 * US);
  run_free (run);
}

/* Stream-ordered allocation on profile pool (malloc and free 1 us; the pool
 * grows by 10 us + 1 us a MiB, 4 MiB at least; a synchronize gives memory
 * back for 5 us + 0.5 us a MiB; launches and syncs cost nothing), by hand:
 *   op 0 malloc 1 MiB, the pool empty: grows 4 MiB, 1 + 10 + 4 = 15 us: its
 *        call 0-15, and the stream passes it at 15;
 *   op 1 kernel 100 us, issued at 15: 15-115;
 *   op 2 malloc 2 MiB, 3 MiB free: 1 us, 15-16; passed at 115, after op 1;
 *   op 3 free 1 MiB: 16-17, passed at 115; 2 MiB in use;
 *   op 4 sync s, issued at 17: returns at 115 + giving back 4 - 2 = 2 MiB,
 *        5 + 1 = 121;
 *   op 5 malloc 4 MiB, nothing free: grows 4 MiB, 15 us: 121-136;
 *   op 6 host 10 us: 136-146;
 *   op 7 sync s: nothing to wait for or give back (6 MiB held, 6 in use): 146.
 * With `pool_threshold 8MiB` op 4 gives nothing back and returns at 115;
 * op 5 finds 2 MiB free of the 4 held, so it grows 4 MiB still: 115-130,
 * and the run ends at 140. */
static void
test_pool (void)
{
  static const char text[] = "stream s\n"
                             "malloc s 1MiB\n"
                             "kernel s grid=1 block=32 block_time=100us\n"
                             "malloc s 2MiB\n"
                             "free s 1MiB\n"
                             "sync s\n"
                             "malloc s 4MiB\n"
                             "host 10us\n"
                             "sync s\n";
  Run *run = run_text ("pool", text);
  static const SimTime issue[] = { 0, 15, 15, 16, 17, 121, 136, 146 };
  static const SimTime end[] = { 15, 115, 115, 115, 121, 136, 146, 146 };
  for (guint i = 0; i < G_N_ELEMENTS (issue); i++)
    {
      g_assert_cmpint (op (run, i)->issue, ==, issue[i] * US);
      g_assert_cmpint (op (run, i)->end, ==, end[i] * US);
    }
  g_assert_cmpint (op (run, 1)->start, ==, 15 * US);
  run_free (run);

  g_autofree char *kept = g_strconcat ("pool_threshold 8MiB\n", text, NULL);
  run = run_text ("pool", kept);
  g_assert_cmpint (op (run, 4)->end, ==, 115 * US);
  g_assert_cmpint (op (run, 5)->end, ==, 130 * US);
  g_assert_cmpint (eng_sim_makespan (run->sim), ==, 140 * US);
  run_free (run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/schematic-table", test_schematic_table);
  g_test_add_func ("/model/d2d-after-kernel", test_d2d_after_kernel);
  g_test_add_func ("/model/memset-on-sms", test_memset_on_sms);
  g_test_add_func ("/model/memset-pinned", test_memset_pinned);
  g_test_add_func ("/model/blocking-sync", test_blocking_sync);
  g_test_add_func ("/model/hostfn", test_hostfn);
  g_test_add_func ("/model/graph-launch", test_graph_launch);
  g_test_add_func ("/model/graph-engine-gap", test_graph_engine_gap);
  g_test_add_func ("/model/graph-branches", test_graph_branches);
  g_test_add_func ("/model/loads-waits-for-idle", test_loads_waits_for_idle);
  g_test_add_func ("/model/record-holds-no-queue", test_record_holds_no_queue);
  g_test_add_func ("/model/fermi-deferred-completion", test_fermi_deferred);
  g_test_add_func ("/model/fermi-deferred-threads", test_fermi_deferred_threads);
  g_test_add_func ("/model/single-copy-queue", test_single_copy_queue);
  g_test_add_func ("/model/legacy-default-stream", test_legacy_default_stream);
  g_test_add_func ("/model/event-wait", test_event_wait);
  g_test_add_func ("/model/false-dependency-connections", test_false_dependency_connections);
  g_test_add_func ("/model/assign-on-submit/skips-held", test_assign_on_submit_skips_held);
  g_test_add_func ("/model/assign-on-submit/default-stream", test_assign_on_submit_default_stream);
  g_test_add_func ("/model/copy-queues/left-unset", test_copy_queues_left_unset);
  g_test_add_func ("/model/assign-on-submit/all-held", test_assign_on_submit_all_held);
  g_test_add_func ("/model/assign-on-submit/held-on-the-way",
                   test_assign_on_submit_held_on_the_way);
  g_test_add_func ("/model/assign-on-submit/held-until-arrived",
                   test_assign_on_submit_held_until_arrived);
  g_test_add_func ("/model/assign-on-submit/keeps-while-busy",
                   test_assign_on_submit_keeps_while_busy);
  g_test_add_func ("/model/left-over-policy", test_left_over_policy);
  g_test_add_func ("/model/priorities", test_priorities);
  g_test_add_func ("/model/pageable-blocks-host", test_pageable_blocks_host);
  g_test_add_func ("/model/pageable-yields-engine", test_pageable_yields_engine);
  g_test_add_func ("/model/pageable-pause-duplex", test_pageable_pause_duplex);
  g_test_add_func ("/model/untouched-link", test_untouched_link);
  g_test_add_func ("/model/cached-link", test_cached_link);
  g_test_add_func ("/model/pageable-sizes", test_pageable_sizes);
  g_test_add_func ("/model/pageable-overlap", test_pageable_overlap);
  g_test_add_func ("/model/copy-rows", test_copy_rows);
  g_test_add_func ("/model/partly-untouched", test_partly_untouched);
  g_test_add_func ("/model/untouched-huge", test_untouched_huge);
  g_test_add_func ("/model/per-device-time", test_per_device_time);
  g_test_add_func ("/model/duplex", test_duplex);
  g_test_add_func ("/model/host-and-sync", test_host_and_sync);
  g_test_add_func ("/model/host-threads", test_host_threads);
  g_test_add_func ("/model/host-thread-costs", test_host_thread_costs);
  g_test_add_func ("/model/host-thread-first-call", test_host_thread_first_call);
  g_test_add_func ("/model/pool", test_pool);
  g_test_add_func ("/model/idle-sync", test_idle_sync);
  g_test_add_func ("/model/poll", test_poll);
  g_test_add_func ("/model/copy-engine-fifo", test_copy_engine_fifo);
  g_test_add_func ("/model/copy-engine-connection-turns", test_copy_engine_connection_turns);
  g_test_add_func ("/model/waves", test_waves);
  g_test_add_func ("/model/block-too-large", test_block_too_large);
  return g_test_run ();
}
