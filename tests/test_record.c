/* test_record.c: the recorder's log read back and turned into a schedule and a measured timeline.
 *
 * The logs below are written by hand, in the format record_inject.c writes
 * (record_log.h), with round numbers; every expected statement and time is
 * worked out by hand from them in the comments. */
#include <string.h>
#include "sim/recorded/marker_times.h"
#include "sim/recorded/record_alone.h"
#include "sim/recorded/record_call.h"
#include "sim/recorded/record_inside.h"
#include "sim/recorded/record_log.h"
#include "sim/recorded/record_schedule.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/schedule_parse.h"
#include "sim/core/schedule.h"
#include "support/schedule_text.h"

/* Times in the logs are offsets from this CUPTI timestamp. */
#define T0 1000000000ull

static RecordLog *
parse (const char *text, GError **error)
{
  return record_log_parse ("test.log", text, strlen (text), error);
}

/* A log that must read, turned into a schedule that must build. */
static RecordSchedule *
convert (const char *text, guint64 min_host_ns, guint connections)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) log = parse (text, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = min_host_ns, .connections = connections };
  RecordSchedule *rec = record_schedule_build (log, &opt, &error);
  g_assert_no_error (error);
  return rec;
}

/* `convert` as recorded on a GPU of tests/profiles/ops.ini, whose round
 * numbers the tests below work with: two SMs of two blocks (of up to 1024
 * threads) each, kernel_load 0.3 ms, hostfn_wake 0.5 ms (2 ms where the
 * stream was idle at the call), hostfn_next 0.25 ms, hostfn_resume 0.1 ms. */
static RecordSchedule *
convert_on (const char *profile, const char *text, guint64 min_host_ns)
{
  g_autoptr (GError) error = NULL;
  GpuProfile loaded = { 0 };
  g_assert_true (profile_load (profile, &loaded, &error));
  g_autoptr (RecordLog) log = parse (text, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = min_host_ns, .profile = &loaded };
  RecordSchedule *rec = record_schedule_build (log, &opt, &error);
  g_assert_no_error (error);
  gpu_profile_clear (&loaded);
  return rec;
}

static RecordSchedule *
convert_ops (const char *text, guint64 min_host_ns)
{
  return convert_on ("ops", text, min_host_ns);
}

/* An op's measured times, ns from the first op's call. */
static void
assert_op_times (const RecordSchedule *rec, guint op, SimTime issue, SimTime start, SimTime end)
{
  g_assert_cmpuint (op, <, rec->n_ops);
  g_assert_cmpint (rec->issue[op], ==, issue);
  g_assert_cmpint (rec->start[op], ==, start);
  g_assert_cmpint (rec->end[op], ==, end);
}

/* A program: malloc (set-up, left out), two streams, an H2D and a kernel
 * in s1, 10 us of host work, a pageable D2H in s2 after an event, a memset,
 * a stream sync and a free. Calls (enter-exit, us after T0), correlation:
 *   cudaMalloc            0-50     1   before the first op: left out
 *   cudaStreamCreate s1   60-61    2   (flags 0)
 *   cudaStreamCreate s2   62-63    3   (flags 1: nonblocking)
 *   cudaMemcpyAsync H2D   100-104  4   4 MiB into s1; GPU 105-405, pinned
 *   cudaLaunchKernel      105-110  5   grid 256, block 128 (the recorder logs the
 *                                       dimensions' products), no dynamic smem; GPU
 *                                       406-906, CUPTI: 1024 B static smem, 32 regs;
 *                                       its record carries the driver call's corr 50
 *   cudaEventRecord       111-112  6   e(0xe1) in s1
 *   cudaStreamWaitEvent   113-114  7   s2 waits for 0xe1
 *   (host work 114-124: 10 us)
 *   cudaMemcpyAsync D2H   124-130  8   1000 bytes from s2; GPU 910-911, pageable dst
 *   cudaMemsetAsync       131-132  9   in s2: not modelled
 *   cudaStreamSynchronize 133-915  10  s2
 *   cudaFree              916-920  11  waits for the device
 *   cudaGetLastError      921-921  12  host time after the last op: nothing */
static const char *program_log =
  "streamsim-record\t1\n"
  "call\t1\tcudaMalloc\t1000000000\t1000050000\t1\t0\t0\t0\t0\t0\n"
  "call\t1\tcudaStreamCreate\t1000060000\t1000061000\t2\t0xa1\t0x0\t0\t0\t0\n"
  "call\t1\tcudaStreamCreateWithFlags\t1000062000\t1000063000\t3\t0xa2\t0x0\t1\t0\t0\n"
  "call\t1\tcudaMemcpyAsync\t1000100000\t1000104000\t4\t0xa1\t0x0\t4194304\t1\t0\n"
  "call\t1\tcudaLaunchKernel\t1000105000\t1000110000\t5\t0xa1\t0x0\t256\t128\t0\n"
  "call\t1\tcudaEventRecord\t1000111000\t1000112000\t6\t0xa1\t0xe1\t0\t0\t0\n"
  "call\t1\tcudaStreamWaitEvent\t1000113000\t1000114000\t7\t0xa2\t0xe1\t0\t0\t0\n"
  "call\t1\tcudaMemcpyAsync\t1000124000\t1000130000\t8\t0xa2\t0x0\t1000\t2\t0\n"
  "call\t1\tcudaMemsetAsync\t1000131000\t1000132000\t9\t0xa2\t0x0\t0\t0\t0\n"
  "call\t1\tcudaStreamSynchronize\t1000133000\t1000915000\t10\t0xa2\t0x0\t0\t0\t0\n"
  "call\t1\tcudaFree\t1000916000\t1000920000\t11\t0x0\t0x0\t0\t0\t0\n"
  "call\t1\tcudaGetLastError\t1000921000\t1000921000\t12\t0x0\t0x0\t0\t0\t0\n"
  "link\t50\t5\n"
  "copy\t4\t0\t1000105000\t1000405000\t4194304\t1\t2\t3\n"
  "kernel\t50\t1000406000\t1000906000\t256\t128\t1024\t32\t_Z7scaleupPfi\n"
  "copy\t8\t0\t1000910000\t1000911000\t1000\t2\t3\t1\n"
  "end\t12\t3\n";

/* Kernel times name the device they were measured on where its profile
 * can carry them elsewhere: recorded on the h100 profile (which loads by
 * its name and has the rates), the kernel of program_log, 500 us in
 * CUPTI's record, is time=h100: 500 us less that profile's trace_extra, the
 * header says so and names the device (`device h100`); on
 * tests/profiles/ops.ini, which has no rates and no trace_extra, the time
 * stays bare, 500 us. */
static void
test_times_device (void)
{
  g_autoptr (GError) error = NULL;
  const char *names[] = { "h100", "ops" };
  const char *prefix[] = { " time=h100:", " time=" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GpuProfile profile = { 0 };
      g_assert_true (profile_load (names[i], &profile, &error));
      g_autoptr (RecordLog) log = parse (program_log, &error);
      g_assert_no_error (error);
      RecordOptions opt = { .min_host_ns = 2000, .connections = 8, .profile = &profile };
      g_autoptr (RecordSchedule) rec = record_schedule_build (log, &opt, &error);
      g_assert_no_error (error);
      g_assert_true ((profile.trace_extra > 0) == (i == 0));
      g_autofree char *expect = g_strdup_printf ("%s%.3fus ", prefix[i],
                                                 (500000 - profile.trace_extra) / 1000.0);
      gpu_profile_clear (&profile);
      g_assert_nonnull (strstr (rec->text, expect));
      g_assert_true ((strstr (rec->text, "# Kernel times are the h100's (time=h100:...)") != NULL)
                     == (i == 0));
      g_assert_true ((strstr (rec->text, "\ndevice h100\n") != NULL) == (i == 0));
    }
}

static void
test_program_statements (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordSchedule) rec = convert (program_log, 2000, 8);
  g_autofree char *got = schedule_text_statements (rec->text);
  /* Worked out from the calls above: sizes exact (4 MiB, 1000 B), the
   * kernel's shared memory from CUPTI (1 KiB), its time the GPU's 500 us,
   * its label the demangled name; the 10 us between the wait's return
   * (114) and the D2H's call (124) is host work; the gaps of 1 us between
   * the other calls are under 2 us: those of 104-105 and 110-111 add up to
   * 2 us, a `host` before the record, and that of 112-113 is left out when
   * the pageable D2H waits for the GPU; the memset is a comment, and its
   * call is host time, so from the D2H's return (130) to the sync's call
   * (133) is 3 us of host work; the free waits for the device, whose last
   * work ended at 911, so all of its 4 us (916-920) are host work after
   * it, and the 1 us from the sync's return to its call (915-916) is
   * written though under 2 us: no wait absorbs it. No call is longer than usual: each function's calls are one. The
   * launch is its kernel's first (the log records no CUDA_MODULE_LOADING:
   * lazy), alone in its group with nothing to compare it with: `loads`. */
  g_assert_cmpstr (got, ==,
                   "connections 8\n"
                   "stream s1\n"
                   "stream s2 nonblocking\n"
                   "h2d s1 4MiB\n"
                   "kernel s1 grid=256 block=128 smem=1KiB regs=32 time=500.000us loads label=scaleup\n"
                   "host 2.000us\n"
                   "record e1 s1\n"
                   "wait s2 e1\n"
                   "host 10.000us\n"
                   "d2h s2 1000B pageable\n"
                   "host 3.000us\n"
                   "sync s2\n"
                   "host 1.000us\n"
                   "sync device\n"
                   "host 4.000us\n");
  g_assert_nonnull (strstr (rec->text, "# not modelled: cudaMemsetAsync"));
  g_assert_nonnull (strstr (rec->text, "host 2.000us   # host gaps under 2.000us since the last "
                                       "call that waited for the GPU, added up"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
  g_assert_cmpuint (rec->n_untimed, ==, 0);
  g_assert_cmpuint (rec->n_threads, ==, 1);

  /* The measured times, ns from the H2D's call at 100 us:
   * op  statement      issue    start    end
   * 0   h2d            0        5000     305000   (GPU 105-405)
   * 1   kernel         5000     306000   806000   (GPU 406-906)
   * 2   host           9000     9000     11000    (the two short gaps: 2 us up to 111)
   * 3   record         11000    derived: after s1's kernel, 806000
   * 4   wait           13000    derived: the record, 806000
   * 5   host           14000    14000    24000    (114-124)
   * 6   d2h            24000    810000   811000   (GPU 910-911)
   * 7   host           30000    30000    33000    (130-133)
   * 8   sync s2        33000    33000    815000   (the call, 133-915)
   * 9   host           815000   815000   816000   (915-916, the GPU idle)
   * 10  sync device    816000   816000   816000   (cudaFree's call at 916; the
   * 11  host           816000   816000   820000    GPU was idle, so all host work) */
  g_assert_cmpuint (rec->n_ops, ==, 12);
  const SimTime issue[] = { 0, 5000, 9000, 11000, 13000, 14000, 24000, 30000, 33000, 815000,
                            816000, 816000 };
  const SimTime start[] = { 5000, 306000, 9000, -1, -1, 14000, 810000, 30000, 33000, 815000,
                            816000, 816000 };
  const SimTime end[] = { 305000, 806000, 11000, -1, -1, 24000, 811000, 33000, 815000, 816000,
                          816000, 820000 };
  for (guint i = 0; i < 12; i++)
    {
      g_assert_cmpint (rec->issue[i], ==, issue[i]);
      g_assert_cmpint (rec->start[i], ==, start[i]);
      g_assert_cmpint (rec->end[i], ==, end[i]);
    }

  /* The text parses back into the same twelve ops, and the records' and
   * waits' times follow from their streams. */
  g_autoptr (Schedule) sched = schedule_parse_text ("rec.sched", rec->text, strlen (rec->text),
                                                    NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 12);
  g_assert_cmpint (schedule_op (sched, 1)->kind, ==, SCHED_OP_KERNEL);
  g_assert_true (schedule_stream (sched, schedule_find_stream (sched, "s2"))->nonblocking);
  marker_times_derive (sched, rec->issue, rec->start, rec->end);
  g_assert_cmpint (rec->start[3], ==, 806000);
  g_assert_cmpint (rec->end[3], ==, 806000);
  g_assert_cmpint (rec->start[4], ==, 806000);
  g_assert_cmpint (rec->end[4], ==, 806000);
}

/* A wait and an event sync on an event the program never recorded (both
 * return at once in CUDA), and a wait on one it recorded after the wait.
 * Calls (enter-exit, us after T0):
 *   cudaStreamCreate s1 (0xa1)      0-1
 *   cudaStreamCreate s2 (0xa2)      2-3
 *   cudaStreamWaitEvent s2, 0xe9    10-11   never recorded: e1
 *   cudaStreamWaitEvent s1, 0xe2    11-12   recorded below: e2
 *   cudaEventRecord 0xe2 in s2      12-13
 *   cudaEventSynchronize 0xe9       13-14   never recorded
 * The calls follow each other without gaps. The schedule declares e1 after
 * its ops, so that it parses, and each op keeps its line; e2 needs no
 * declaration. */
static void
test_never_recorded (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000002000\t1000003000\t2\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamWaitEvent\t1000010000\t1000011000\t3\t0xa2\t0xe9\t0\t0\t0\n"
    "call\t1\tcudaStreamWaitEvent\t1000011000\t1000012000\t4\t0xa1\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaEventRecord\t1000012000\t1000013000\t5\t0xa2\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaEventSynchronize\t1000013000\t1000014000\t6\t0x0\t0xe9\t0\t0\t0\n"
    "end\t6\t0\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "stream s2\n"
                            "wait s2 e1\n"
                            "wait s1 e2\n"
                            "record e2 s2\n"
                            "sync e1\n"
                            "event e1\n");
  g_assert_nonnull (strstr (rec->text, "# Waited on or synchronized with but never recorded"));
  g_assert_cmpuint (rec->n_ops, ==, 4);
  /* parse_back kept the schedule: four ops, the last the event sync */
  g_assert_nonnull (rec->schedule);
  g_assert_cmpuint (schedule_n_ops (rec->schedule), ==, 4);
  g_assert_cmpint (schedule_op (rec->schedule, 3)->kind, ==, SCHED_OP_SYNC_EVENT);
}

/* Host work at least --min-host long is kept; shorter gaps are added up
 * until a call that waits for the GPU. */
static void
test_min_host (void)
{
  /* every gap is under 10.001 us: those before the pageable D2H, which
   * waits for the GPU (1 + 1 + 1 + 10 us), add up to 13 us, a `host` at the
   * D2H's call; after it, 3 us up to the sync are left out (the sync waits
   * for the D2H); the 1 us between the sync and the free, which finds the
   * GPU idle, and cudaFree's 4 us, spent with the GPU idle, are kept though
   * under the minimum (no wait absorbs them; the profile charges the free's
   * wait nothing) */
  g_autoptr (RecordSchedule) rec = convert (program_log, 10001, 0);
  g_autofree char *one = schedule_text_statements (rec->text);
  g_assert_cmpstr (one, ==, "stream s1\n"
                            "stream s2 nonblocking\n"
                            "h2d s1 4MiB\n"
                            "kernel s1 grid=256 block=128 smem=1KiB regs=32 time=500.000us loads label=scaleup\n"
                            "record e1 s1\n"
                            "wait s2 e1\n"
                            "host 13.000us\n"
                            "d2h s2 1000B pageable\n"
                            "sync s2\n"
                            "host 1.000us\n"
                            "sync device\n"
                            "host 4.000us\n");
  g_assert_cmpuint (rec->n_ops, ==, 10);
  /* now the 1 us gaps count too: 104-105, 110-111, 112-113, ... */
  g_autoptr (RecordSchedule) all = convert (program_log, 1000, 0);
  /* gaps between ops: 104-105, 110-111, 112-113, 114-124, 130-133 (the
   * memset is host time), 915-916: six; and the 4 us inside cudaFree */
  g_autofree char *got = schedule_text_statements (all->text);
  guint hosts = 0;
  for (const char *s = got; (s = strstr (s, "host ")) != NULL; s++)
    hosts++;
  g_assert_cmpuint (hosts, ==, 7);
  g_assert_nonnull (strstr (got, "host 3.000us\n"));
}

/* Three launches of one kernel shape: the first two ran at the same time
 * (GPU 0-300 and 100-400 us after T0), the third alone (500-700: 200 us).
 * The two that shared the GPU get the lone run's 200 us; a fourth kernel of
 * another shape that shared (with nothing alone to go by, and no profile to
 * infer from) keeps its own. The first launch of k and that of other load
 * their code: every cudaLaunchKernel took 1 ns, the usual, and without a
 * profile kernel_load is 0. */
static void
test_shared_kernels (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000000001\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000000002\t1000000003\t2\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000000010\t1000000011\t3\t0xa1\t0x0\t8\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000000012\t1000000013\t4\t0xa2\t0x0\t8\t32\t0\n"
    "call\t1\tcudaLaunchKernel_ptsz\t1000000014\t1000000015\t5\t0x0\t0x0\t8\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000000016\t1000000017\t6\t0x1\t0x0\t1\t32\t0\n"
    "kernel\t3\t1000000000\t1000300000\t8\t32\t0\t0\tk\n"
    "kernel\t4\t1000100000\t1000400000\t8\t32\t0\t0\tk\n"
    "kernel\t5\t1000500000\t1000700000\t8\t32\t0\t0\tk\n"
    "kernel\t6\t1000350000\t1000450000\t1\t32\t0\t0\tother\n"
    "end\t6\t4\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  /* the _ptsz launch on stream 0 is the per-thread default stream, declared
   * where first used; handle 0x1 is the legacy default stream */
  g_assert_cmpstr (got, ==,
                   "stream s1\n"
                   "stream s2\n"
                   "kernel s1 grid=8 block=32 time=200.000us loads label=k\n"
                   "kernel s2 grid=8 block=32 time=200.000us label=k\n"
                   "stream per_thread\n"
                   "kernel per_thread grid=8 block=32 time=200.000us label=k\n"
                   "kernel default grid=1 block=32 time=100.000us loads label=other\n");
  g_assert_nonnull (strstr (rec->text, "; ran 300.000us beside other kernels; time= is the median "
                                       "of the same kernel's runs alone (1)"));
  g_assert_nonnull (strstr (rec->text, "ran 100.000us beside other kernels; no profile to tell "
                                       "their share of the SMs: time= as it ran"));
  g_autoptr (Schedule) sched = schedule_parse_text ("rec.sched", rec->text, strlen (rec->text),
                                                    NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 4);
}

/* Kernels that shared the GPU with no lone run to go by: their times alone
 * inferred from their busy periods (record_alone.h), on tests/profiles/
 * ops.ini, where a block of 32 threads leaves 2 per SM on 2 SMs, so a
 * kernel's occupancy is grid / 4. Launches (us after T0), each call 1 us,
 * kernels named a to f, and a again; GPU:
 *   a s1 grid 4 (occupancy 1)     100-2100   } one period: L = 2000, held
 *   b s2 grid 4 (1)               100-2100   } 1 x 2000 + 1 x 2000 = 4000:
 *                                              each alone 2000 x 2000 / 4000 = 1000
 *   c s1 grid 1 (0.25)            3000-4000  } L = 1500, held 250 + 500 = 750
 *   d s2 grid 2 (0.5)             3500-4500  } <= L: room left, kept, 1000 each
 *   e s1 grid 4 (1)               5000-6000  } L = 1500, held 1000 + 750 = 1750:
 *   f s2 grid 3 (0.75)            5500-6500  } 1000 x 1500 / 1750 = 857.142857 us,
 *                                              857.143 rounded to the ns
 *   a s1 grid 4                   7000-7800  alone: a's lone run, so the a that
 *                                              shared takes its 800, not 1000
 * Two kernels that fill the GPU, 2 ms each side by side, were 1 ms each
 * alone: b. No launch took more than the usual 1 us plus kernel_load, so
 * none loads; gaps stay under the minimum of 1 ms. Without a profile no
 * occupancy is known: each keeps the time it ran (but a, which has its
 * lone run), and every first launch, not quicker than usual, loads. */
static void
test_alone_inferred (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000002000\t1000003000\t2\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000011000\t3\t0xa1\t0x0\t4\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000012000\t1000013000\t4\t0xa2\t0x0\t4\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000014000\t1000015000\t5\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000016000\t1000017000\t6\t0xa2\t0x0\t2\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000018000\t1000019000\t7\t0xa1\t0x0\t4\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000020000\t1000021000\t8\t0xa2\t0x0\t3\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000022000\t1000023000\t9\t0xa1\t0x0\t4\t32\t0\n"
    "kernel\t3\t1000100000\t1002100000\t4\t32\t0\t0\ta\n"
    "kernel\t4\t1000100000\t1002100000\t4\t32\t0\t0\tb\n"
    "kernel\t5\t1003000000\t1004000000\t1\t32\t0\t0\tc\n"
    "kernel\t6\t1003500000\t1004500000\t2\t32\t0\t0\td\n"
    "kernel\t7\t1005000000\t1006000000\t4\t32\t0\t0\te\n"
    "kernel\t8\t1005500000\t1006500000\t3\t32\t0\t0\tf\n"
    "kernel\t9\t1007000000\t1007800000\t4\t32\t0\t0\ta\n"
    "end\t9\t7\n";
  g_autoptr (RecordSchedule) rec = convert_ops (text, 1000000);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "stream s2\n"
                            "kernel s1 grid=4 block=32 time=800.000us label=a\n"
                            "kernel s2 grid=4 block=32 time=1000.000us label=b\n"
                            "kernel s1 grid=1 block=32 time=1000.000us label=c\n"
                            "kernel s2 grid=2 block=32 time=1000.000us label=d\n"
                            "kernel s1 grid=4 block=32 time=857.143us label=e\n"
                            "kernel s2 grid=3 block=32 time=857.143us label=f\n"
                            "kernel s1 grid=4 block=32 time=800.000us label=a\n");
  g_assert_nonnull (strstr (rec->text, "label=b   # ran 2000.000us beside other kernels, which "
                                       "oversubscribed the SMs; time= inferred: scaled by its "
                                       "busy period's 2000.000us over the kernels' 4000.000us of "
                                       "occupancy x duration (record_alone.h)"));
  g_assert_nonnull (strstr (rec->text, "label=e   # ran 1000.000us beside other kernels, which "
                                       "oversubscribed the SMs; time= inferred: scaled by its "
                                       "busy period's 1500.000us over the kernels' 1750.000us"));
  g_assert_nonnull (strstr (rec->text, "label=d   # ran 1000.000us beside other kernels, which "
                                       "left room on the SMs: time= as it ran"));
  g_assert_cmpuint (rec->n_inferred, ==, 3);
  g_assert_cmpuint (rec->n_loads, ==, 0);
  /* the measured timeline keeps what ran (ns from the first launch, 10 us) */
  assert_op_times (rec, 1, 2000, 90000, 2090000);

  g_autoptr (RecordSchedule) bare = convert (text, 1000000, 0);
  g_autofree char *kept = schedule_text_statements (bare->text);
  g_assert_cmpstr (kept, ==, "stream s1\n"
                             "stream s2\n"
                             "kernel s1 grid=4 block=32 time=800.000us loads label=a\n"
                             "kernel s2 grid=4 block=32 time=2000.000us loads label=b\n"
                             "kernel s1 grid=1 block=32 time=1000.000us loads label=c\n"
                             "kernel s2 grid=2 block=32 time=1000.000us loads label=d\n"
                             "kernel s1 grid=4 block=32 time=1000.000us loads label=e\n"
                             "kernel s2 grid=3 block=32 time=1000.000us loads label=f\n"
                             "kernel s1 grid=4 block=32 time=800.000us label=a\n");
  g_assert_cmpuint (bare->n_inferred, ==, 0);
}

/* A communication kernel keeps the time it ran (record_alone.h): its
 * length is its peers' pace. On tests/profiles/ops.ini (occupancy grid /
 * 4), GPU (us after T0):
 *   ncclKernel_AllReduce... s1 grid 4   100-2100  } one period, L = 2000,
 *   b                       s2 grid 4   100-2100  } held 2000 + 2000 = 4000
 *   ncclKernel_AllReduce... s1 grid 4   3000-3500   alone
 * b, no lone run of its own, is inferred: 2000 x 2000 / 4000 = 1000 us.
 * The shared all-reduce keeps its 2000 us, where any other kernel would
 * take its lone run's 500 us. */
static void
test_alone_peers (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000002000\t1000003000\t2\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000011000\t3\t0xa1\t0x0\t4\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000012000\t1000013000\t4\t0xa2\t0x0\t4\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000014000\t1000015000\t5\t0xa1\t0x0\t4\t32\t0\n"
    "kernel\t3\t1000100000\t1002100000\t4\t32\t0\t0\tncclKernel_AllReduce_RING_LL_Sum_float\n"
    "kernel\t4\t1000100000\t1002100000\t4\t32\t0\t0\tb\n"
    "kernel\t5\t1003000000\t1003500000\t4\t32\t0\t0\tncclKernel_AllReduce_RING_LL_Sum_float\n"
    "end\t5\t3\n";
  g_autoptr (RecordSchedule) rec = convert_ops (text, 1000000);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "stream s2\n"
                            "kernel s1 grid=4 block=32 time=2000.000us "
                            "label=ncclKernel_AllReduce_RING_LL_Sum_float\n"
                            "kernel s2 grid=4 block=32 time=1000.000us label=b\n"
                            "kernel s1 grid=4 block=32 time=500.000us "
                            "label=ncclKernel_AllReduce_RING_LL_Sum_float\n");
  g_assert_nonnull (strstr (rec->text, "# ran 2000.000us beside other kernels, a communication "
                                       "kernel: time= as it ran (its peers' pace"));
  g_assert_true (record_alone_paced_by_peers ("ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)"));
  g_assert_true (record_alone_paced_by_peers ("_Z28ncclKernel_SendRecv_RING_SIMPLEP11ncclDevComm"));
  g_assert_false (record_alone_paced_by_peers ("void at::native::reduce_kernel<512, 1>()"));
}

/* First launches (record_loads.h), on tests/profiles/ops.ini (kernel_load
 * 300 us). Calls (us after T0) on the legacy stream, GPU 10 us each:
 *   1 cudaLaunchKernel ka   0-1000     GPU 1010: ka's first, and long: loads
 *   2 cudaLaunchKernel ka   1100-1105  GPU 1110
 *   3 cudaLaunchKernel kb   1200-1205  GPU 1210: kb's first, but it took
 *                                      the usual 5 us, under 5 + 300: its
 *                                      code was loaded before (not marked)
 *   4 cudaGraphLaunch       1300-1310  GPU 1320: runs kc, a `graph` block in
 *                                      its stream (0xa1, declared where first named)
 *   5 cudaLaunchKernel kc   1400-2000  GPU 2010: long, but kc ran in the
 *                                      graph before: not marked
 *   6 cuLaunchKernel kd     2100-2500  GPU 2510: a driver launch, never marked
 * The usual cudaLaunchKernel is the lower median of 1000, 5, 5, 600: 5 us.
 * Launch 1 loads, so its usual is 5 + 300 = 305 us (record_inside.h): it
 * took 695 us more, all before its kernel could start (1010 - 305 = 705
 * >= 695). Launch 5 took 595 us more, before its kernel (2010 - 1400 - 5 =
 * 605 >= 595). Gaps: 100, 95, 95, 90, 100 us.
 * Without a profile kernel_load is 0: launch 3 loads too, and launch 1's
 * set-up is 995 us; with CUDA_MODULE_LOADING=EAGER in the log nothing
 * loads, and launch 1's set-up is 995 us again. */
static const char *loads_log =
  "call\t1\tcudaLaunchKernel\t1000000000\t1001000000\t1\t0x0\t0x0\t1\t32\t0\n"
  "call\t1\tcudaLaunchKernel\t1001100000\t1001105000\t2\t0x0\t0x0\t1\t32\t0\n"
  "call\t1\tcudaLaunchKernel\t1001200000\t1001205000\t3\t0x0\t0x0\t1\t32\t0\n"
  "call\t1\tcudaGraphLaunch\t1001300000\t1001310000\t4\t0xa1\t0x0\t0\t0\t0\n"
  "call\t1\tcudaLaunchKernel\t1001400000\t1002000000\t5\t0x0\t0x0\t1\t32\t0\n"
  "call\t1\tcuLaunchKernel\t1002100000\t1002500000\t6\t0x0\t0x0\t1\t32\t0\n"
  "kernel\t1\t1001010000\t1001020000\t1\t32\t0\t0\tka\n"
  "kernel\t2\t1001110000\t1001120000\t1\t32\t0\t0\tka\n"
  "kernel\t3\t1001210000\t1001220000\t1\t32\t0\t0\tkb\n"
  "kernel\t4\t1001320000\t1001330000\t1\t32\t0\t0\tkc\n"
  "kernel\t5\t1002010000\t1002020000\t1\t32\t0\t0\tkc\n"
  "kernel\t6\t1002510000\t1002520000\t1\t32\t0\t0\tkd\n"
  "end\t6\t6\n";

static void
test_loads (void)
{
  g_autofree char *lazy = g_strconcat ("streamsim-record\t1\n", loads_log, NULL);
  g_autoptr (RecordSchedule) rec = convert_ops (lazy, 2000);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "host 695.000us\n"
                            "kernel default grid=1 block=32 time=10.000us loads label=ka\n"
                            "host 100.000us\n"
                            "kernel default grid=1 block=32 time=10.000us label=ka\n"
                            "host 95.000us\n"
                            "kernel default grid=1 block=32 time=10.000us label=kb\n"
                            "host 95.000us\n"
                            "stream s1\n"
                            "graph s1\n"
                            "  kernel s1 grid=1 block=32 time=10.000us label=kc\n"
                            "end\n"
                            "host 90.000us\n"
                            "host 595.000us\n"
                            "kernel default grid=1 block=32 time=10.000us label=kc\n"
                            "host 100.000us\n"
                            "kernel default grid=1 block=32 time=10.000us label=kd\n");
  g_assert_nonnull (strstr (rec->text, "host 695.000us   # inside cudaLaunchKernel, which took "
                                       "1000.000us: set-up before its work started, beyond its "
                                       "usual 305.000us"));
  g_assert_nonnull (strstr (rec->text, "# CUDA_MODULE_LOADING not in the log, so LAZY"));
  /* the header names the profile recorded on, and only it: ops.ini has no
   * rates to carry kernel times, so they stay bare */
  g_assert_nonnull (strstr (rec->text, "# Profile ops, of the GPU recorded on"));
  g_assert_null (strstr (rec->text, "No profile of the GPU recorded on"));
  g_assert_null (strstr (rec->text, "time=ops:"));
  g_assert_cmpuint (rec->n_loads, ==, 1);
  /* the loading kernel is issued where its set-up ended, 695 us */
  assert_op_times (rec, 1, 695000, 1010000, 1020000);

  g_autoptr (RecordSchedule) bare = convert (lazy, 2000, 0);
  g_autofree char *without = schedule_text_statements (bare->text);
  g_assert_true (g_str_has_prefix (without, "host 995.000us\n"
                                            "kernel default grid=1 block=32 time=10.000us loads "
                                            "label=ka\n"));
  g_assert_nonnull (strstr (without, "time=10.000us loads label=kb\n"));
  g_assert_nonnull (strstr (bare->text, "# No profile of the GPU recorded on"));
  g_assert_cmpuint (bare->n_loads, ==, 2);

  g_autofree char *eager = g_strconcat ("streamsim-record\t1\nenv\tCUDA_MODULE_LOADING\tEAGER\n",
                                        loads_log, NULL);
  g_autoptr (RecordSchedule) none = convert_ops (eager, 2000);
  g_autofree char *never = schedule_text_statements (none->text);
  g_assert_true (g_str_has_prefix (never, "host 995.000us\n"
                                          "kernel default grid=1 block=32 time=10.000us "
                                          "label=ka\n"));
  g_assert_cmpuint (none->n_loads, ==, 0);
  g_assert_nonnull (strstr (none->text, "# CUDA_MODULE_LOADING as recorded: EAGER, no launch "
                                        "loads code"));
}

/* A first launch whose kernel started after work issued once it had
 * returned loaded nothing (record_loads.h: a load holds the device). On
 * tests/profiles/ops.ini (kernel_load 300 us), calls (us after T0):
 *   1 cudaLaunchKernel ka, stream s1 (0xa1)  0-1000  GPU 1500-1510
 *   2 cudaLaunchKernel kb, stream s2 (0xa2)  1100-1105  GPU 1110-1120
 *   3 cudaLaunchKernel kb, stream s2         1200-1205  GPU 1210-1220
 * The usual launch is the lower median of 1000, 5, 5: 5 us; ka's took 1000,
 * more than 5 + 300, and is ka's first: a load by its time. But kb's,
 * made at 1100 after ka's call returned, ran at 1110, before ka's kernel
 * (1500): no load held the device, and ka is not marked. With ka's kernel
 * at 1010-1020 instead, before kb's, it is. */
static void
test_loads_contradicted (void)
{
  const char *calls =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t999990000\t999991000\t10\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t999992000\t999993000\t11\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1001000000\t1\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1001100000\t1001105000\t2\t0xa2\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1001200000\t1001205000\t3\t0xa2\t0x0\t1\t32\t0\n"
    "kernel\t2\t1001110000\t1001120000\t1\t32\t0\t0\tkb\n"
    "kernel\t3\t1001210000\t1001220000\t1\t32\t0\t0\tkb\n";
  g_autofree char *late = g_strconcat (calls, "kernel\t1\t1001500000\t1001510000\t1\t32\t0\t0\tka\n"
                                       "end\t5\t3\n", NULL);
  g_autoptr (RecordSchedule) rec = convert_ops (late, 2000);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_nonnull (strstr (got, "kernel s1 grid=1 block=32 time=10.000us label=ka\n"));
  g_assert_cmpuint (rec->n_loads, ==, 0);

  g_autofree char *early = g_strconcat (calls, "kernel\t1\t1001010000\t1001020000\t1\t32\t0\t0\tka\n"
                                        "end\t5\t3\n", NULL);
  g_autoptr (RecordSchedule) loaded = convert_ops (early, 2000);
  g_autofree char *marked = schedule_text_statements (loaded->text);
  g_assert_nonnull (strstr (marked, "kernel s1 grid=1 block=32 time=10.000us loads label=ka\n"));
  g_assert_cmpuint (loaded->n_loads, ==, 1);
}

/* Kernel times less the profile's trace_extra (record_schedule.h): CUPTI's
 * records of kernels are longer than the kernels' blocks. With trace_extra
 * 2 us, set by hand on tests/profiles/ops.ini, two launches in one stream
 * whose records are 10 us and 1.5 us long: time= 10 - 2 = 8 us, and the
 * second, shorter than the extra, 1 ns (the least a kernel takes). The
 * measured timeline keeps CUPTI's times. Without a profile, CUPTI's times. */
static void
test_trace_extra (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "env\tCUDA_MODULE_LOADING\tEAGER\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1000005000\t1\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000006000\t1000011000\t2\t0x0\t0x0\t1\t32\t0\n"
    "kernel\t1\t1000010000\t1000020000\t1\t32\t0\t0\tka\n"
    "kernel\t2\t1000030000\t1000031500\t1\t32\t0\t0\tkb\n"
    "end\t2\t2\n";
  g_autoptr (GError) error = NULL;
  GpuProfile ops = { 0 };
  g_assert_true (profile_load ("ops", &ops, &error));
  ops.trace_extra = 2000;
  g_autoptr (RecordLog) log = parse (text, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = 2000, .profile = &ops };
  g_autoptr (RecordSchedule) rec = record_schedule_build (log, &opt, &error);
  g_assert_no_error (error);
  gpu_profile_clear (&ops);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "kernel default grid=1 block=32 time=8.000us label=ka\n"
                            "kernel default grid=1 block=32 time=0.001us label=kb\n");
  g_assert_nonnull (strstr (rec->text, "(trace_extra, 2000 ns)"));
  assert_op_times (rec, 0, 0, 10000, 20000);
  assert_op_times (rec, 1, 6000, 30000, 31500);

  g_autoptr (RecordSchedule) bare = convert (text, 2000, 0);
  g_autofree char *cupti = schedule_text_statements (bare->text);
  g_assert_cmpstr (cupti, ==, "kernel default grid=1 block=32 time=10.000us label=ka\n"
                              "kernel default grid=1 block=32 time=1.500us label=kb\n");
}

/* Graph launches (record_graph.h, record_branches.h), without a profile
 * (CUPTI's kernel times). Calls (us after T0), one stream:
 *   cudaGraphLaunch  0-2     its records: a memset of 8 bytes of device
 *                            memory 10-11, a kernel 12-22, a copy of 8
 *                            bytes from the device to pageable memory 23-24:
 *                            a chain, written as a `graph` block
 *   cudaStreamSynchronize 3-30 (the 1 us gap before it is left out: it waits)
 *   cudaGraphLaunch  40-42   two kernels, ka 50-60 and kb 55-65, side by
 *                            side: kb follows nothing, so it takes a lane of
 *                            its own (stream branch1, declared before the
 *                            block) that waits for a record at the graph's
 *                            start, and is joined back at the end
 *   cudaStreamSynchronize 43-70: after 10 us of host time since the last return
 *   cudaGraphLaunch  80-82   A 100-110, B 111-160, C 111.2-140, D 161-170: B
 *                            and C follow A (it ended before each started),
 *                            D follows B and C (A started before C did, so
 *                            D's predecessors are B and C alone); B stays in
 *                            s1 after A, C in branch1 waits for A's record,
 *                            D in s1 after B waits for C's record, which
 *                            joins branch1 back, so no wait is added at `end`
 *   cudaStreamSynchronize 83-180: after 10 us of host time
 * The nodes, records and waits are issued where their launch was; a record
 * or wait is at the end of the node it follows (the start's at the first
 * node's start). */
static void
test_graph (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t999990000\t999990100\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaGraphLaunch\t1000000000\t1000002000\t2\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000003000\t1000030000\t3\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaGraphLaunch\t1000040000\t1000042000\t4\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000043000\t1000070000\t5\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaGraphLaunch\t1000080000\t1000082000\t6\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000083000\t1000180000\t7\t0xa1\t0x0\t0\t0\t0\n"
    "memset\t2\t1000010000\t1000011000\t8\t0\t3\n"
    "kernel\t2\t1000012000\t1000022000\t4\t64\t0\t0\tkk\n"
    "copy\t2\t0\t1000023000\t1000024000\t8\t2\t3\t1\n"
    "kernel\t4\t1000050000\t1000060000\t4\t64\t0\t0\tka\n"
    "kernel\t4\t1000055000\t1000065000\t4\t64\t0\t0\tkb\n"
    "kernel\t6\t1000100000\t1000110000\t4\t64\t0\t0\tA\n"
    "kernel\t6\t1000111000\t1000160000\t4\t64\t0\t0\tB\n"
    "kernel\t6\t1000111200\t1000140000\t4\t64\t0\t0\tC\n"
    "kernel\t6\t1000161000\t1000170000\t4\t64\t0\t0\tD\n"
    "end\t7\t9\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "graph s1\n"
                            "  memset s1 8B\n"
                            "  kernel s1 grid=4 block=64 time=10.000us label=kk\n"
                            "  d2h s1 8B pageable\n"
                            "end\n"
                            "sync s1\n"
                            "host 10.000us\n"
                            "stream branch1\n"
                            "graph s1\n"
                            "  record gb0 s1\n"
                            "  kernel s1 grid=4 block=64 time=10.000us label=ka\n"
                            "  wait branch1 gb0\n"
                            "  kernel branch1 grid=4 block=64 time=10.000us label=kb\n"
                            "  record gb1 branch1\n"
                            "  wait s1 gb1\n"
                            "end\n"
                            "sync s1\n"
                            "host 10.000us\n"
                            "graph s1\n"
                            "  kernel s1 grid=4 block=64 time=10.000us label=A\n"
                            "  record gb0 s1\n"
                            "  kernel s1 grid=4 block=64 time=49.000us label=B\n"
                            "  wait branch1 gb0\n"
                            "  kernel branch1 grid=4 block=64 time=28.800us label=C\n"
                            "  record gb1 branch1\n"
                            "  wait s1 gb1\n"
                            "  kernel s1 grid=4 block=64 time=9.000us label=D\n"
                            "end\n"
                            "sync s1\n");
  g_assert_cmpuint (rec->n_not_modelled, ==, 0);
  g_assert_cmpuint (rec->n_ops, ==, 22);
  assert_op_times (rec, 0, 0, 10000, 11000);
  assert_op_times (rec, 1, 0, 12000, 22000);
  assert_op_times (rec, 2, 0, 23000, 24000);
  static const SimTime fork[][3] = { { 40000, 50000, 50000 }, { 40000, 50000, 60000 },
                                     { 40000, 50000, 50000 }, { 40000, 55000, 65000 },
                                     { 40000, 65000, 65000 }, { 40000, 65000, 65000 } };
  for (guint i = 0; i < G_N_ELEMENTS (fork); i++)
    assert_op_times (rec, 5 + i, fork[i][0], fork[i][1], fork[i][2]);
  assert_op_times (rec, 14, 80000, 110000, 110000);
  assert_op_times (rec, 16, 80000, 110000, 110000);
  assert_op_times (rec, 18, 80000, 140000, 140000);
  assert_op_times (rec, 19, 80000, 140000, 140000);
  const SchedOp *first = schedule_op (rec->schedule, 0), *last = schedule_op (rec->schedule, 2);
  g_assert_true (first->graph == 1 && first->graph_launch);
  g_assert_true (last->graph == 1 && !last->graph_launch);
  g_assert_cmpuint (schedule_op (rec->schedule, 3)->graph, ==, 0);
  g_assert_true (schedule_op (rec->schedule, 5)->graph_launch);
  g_assert_true (schedule_op (rec->schedule, 8)->graph_branch);
  g_assert_false (schedule_op (rec->schedule, 6)->graph_branch);
}

/* Host functions (record_hostfn.h) on tests/profiles/ops.ini: wake-up 500
 * us (2000 where the stream was idle at the call), the next one 250 us
 * after one returns, the stream on 100 us after it returns. Calls (us after
 * T0), streams s1 to s4, every launch 10 us:
 *   launch s1            0-10      GPU 100-1000
 *   cudaLaunchHostFunc s1  20-30   s1 busy until 1000: begins 1000 + 500 = 1500
 *   launch s1            40-50     GPU 3100-3200: the function returned at
 *                                  3100 - 100 = 3000: TIME 1500 us; the
 *                                  thread is free again at 3000 + 250 = 3250
 *   cudaStreamAddCallback s2 60-70 s2 idle: 70 + 2000 = 2070, but the thread
 *                                  is busy until 3250: begins 3250
 *   launch s2            80-90     GPU 5000-5100: returned at 4900: TIME 1650
 *   cuLaunchHostFunc s3  100-110   no later work in s3: TIME 0, its row
 *                                  where it could begin, 110 + 2000 = 2110
 *   cudaLaunchHostFunc s4 120-130  idle: could begin at 2130
 *   launch s4            6000-6010 GPU 6020-6030: issued at 6010, after the
 *                                  function's return by its start (6020 -
 *                                  100 = 5920): the host held s4, TIME 0
 * No launch loads (each took the usual 10 us, under 10 + 300), no call is
 * longer than usual; the gaps: six of 10 us and one of 5870 us. */
static void
test_hostfn (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t999990000\t999990100\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t999990200\t999990300\t2\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t999990400\t999990500\t3\t0xa3\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t999990600\t999990700\t4\t0xa4\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1000010000\t5\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchHostFunc\t1000020000\t1000030000\t6\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000040000\t1000050000\t7\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamAddCallback\t1000060000\t1000070000\t8\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000080000\t1000090000\t9\t0xa2\t0x0\t1\t32\t0\n"
    "call\t1\tcuLaunchHostFunc\t1000100000\t1000110000\t10\t0xa3\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchHostFunc\t1000120000\t1000130000\t11\t0xa4\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1006000000\t1006010000\t12\t0xa4\t0x0\t1\t32\t0\n"
    "kernel\t5\t1000100000\t1001000000\t1\t32\t0\t0\tk\n"
    "kernel\t7\t1003100000\t1003200000\t1\t32\t0\t0\tk\n"
    "kernel\t9\t1005000000\t1005100000\t1\t32\t0\t0\tk\n"
    "kernel\t12\t1006020000\t1006030000\t1\t32\t0\t0\tk\n"
    "end\t12\t4\n";
  g_autoptr (RecordSchedule) rec = convert_ops (text, 2000);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "stream s2\n"
                            "stream s3\n"
                            "stream s4\n"
                            "kernel s1 grid=1 block=32 time=900.000us label=k\n"
                            "host 10.000us\n"
                            "hostfn s1 1500.000us\n"
                            "host 10.000us\n"
                            "kernel s1 grid=1 block=32 time=100.000us label=k\n"
                            "host 10.000us\n"
                            "hostfn s2 1650.000us\n"
                            "host 10.000us\n"
                            "kernel s2 grid=1 block=32 time=100.000us label=k\n"
                            "host 10.000us\n"
                            "hostfn s3 0.000us\n"
                            "host 10.000us\n"
                            "hostfn s4 0.000us\n"
                            "host 5870.000us\n"
                            "kernel s4 grid=1 block=32 time=10.000us label=k\n");
  g_assert_nonnull (strstr (rec->text, "hostfn s1 1500.000us   # cudaLaunchHostFunc; the recorder "
                                       "does not see the function run: its stream's next work "
                                       "started 2100.000us after the stream reached it, less "
                                       "500.000us before the callback thread began it"));
  g_assert_nonnull (strstr (rec->text, "hostfn s2 1650.000us   # cudaStreamAddCallback; the "
                                       "recorder does not see the function run: its stream's "
                                       "next work started 4930.000us after the stream reached "
                                       "it, less 3180.000us"));
  g_assert_nonnull (strstr (rec->text, "hostfn s3 0.000us   # cuLaunchHostFunc; the recorder does "
                                       "not see the function run: no later work in its stream"));
  g_assert_nonnull (strstr (rec->text, "hostfn s4 0.000us   # cudaLaunchHostFunc; the recorder "
                                       "does not see the function run: its stream's next work "
                                       "was issued after it had returned"));
  g_assert_cmpuint (rec->n_hostfn, ==, 4);
  g_assert_cmpuint (rec->n_hostfn_estimated, ==, 2);
  g_assert_cmpuint (rec->n_not_modelled, ==, 0);
  /* each function's row: its run as estimated, or where it could begin */
  assert_op_times (rec, 2, 20000, 1500000, 3000000);
  assert_op_times (rec, 6, 60000, 3250000, 4900000);
  assert_op_times (rec, 10, 100000, 2110000, 2110000);
  assert_op_times (rec, 12, 120000, 2130000, 2130000);
}

/* A call that waits for its own work (a blocking copy) finds the host's
 * short gaps before it unabsorbed where its stream had nothing left to
 * run: its copy could not start before the call. Worked out by hand, in
 * us from the H2D's call at 1000: the pinned H2D (call 1000-1001) runs on
 * the GPU 1001.2-1002 in one log and 1001.2-1004 in the other; the
 * blocking D2H's call comes 1.5 us after the H2D's returned, at 1002.5.
 * With the H2D done by then the 1.5 us gap is host time before the D2H
 * (a `host`, though under the 2 us minimum); with the H2D still running
 * it is absorbed by the D2H's wait behind it and left out. In a third log
 * the stream had no copy of its own but waits for an event recorded
 * behind a kernel of a nonblocking stream that runs to 1010 (its first
 * launch: `loads`): not idle either. */
static void
test_idle_blocking_copy (void)
{
  const char *calls =
    "streamsim-record\t1\n"
    "call\t1\tcudaMemcpyAsync\t1000000000\t1000001000\t1\t0x0\t0x0\t2048\t1\t0\n"
    "call\t1\tcudaMemcpy\t1000002500\t1000009000\t2\t0x0\t0x0\t2048\t2\t0\n"
    "copy\t2\t0\t1000005000\t1000006000\t2048\t2\t3\t2\n";
  const char *ends[] = { "1000002000", "1000004000" };
  const char *expect[] = { "h2d default 2KiB\nhost 1.500us\nmemcpy d2h 2KiB\n",
                           "h2d default 2KiB\nmemcpy d2h 2KiB\n" };
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    {
      g_autofree char *text = g_strdup_printf ("%scopy\t1\t0\t1000001200\t%s\t2048\t1\t2\t3\n"
                                               "end\t2\t2\n", calls, ends[i]);
      g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_assert_cmpstr (got, ==, expect[i]);
    }
  const char *waits =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreateWithFlags\t999000000\t999001000\t5\t0xa1\t0x0\t1\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1000001000\t1\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaEventRecord\t1000001000\t1000001500\t2\t0xa1\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaStreamWaitEvent\t1000001500\t1000002000\t3\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaMemcpy\t1000003500\t1000012000\t4\t0x0\t0x0\t2048\t2\t0\n"
    "kernel\t1\t1000002000\t1000010000\t1\t32\t0\t16\tk\n"
    "copy\t4\t0\t1000010500\t1000011000\t2048\t2\t3\t2\n"
    "end\t5\t2\n";
  g_autoptr (RecordSchedule) rec = convert (waits, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1 nonblocking\n"
                            "kernel s1 grid=1 block=32 regs=16 time=8.000us loads label=k\n"
                            "record e1 s1\n"
                            "wait default e1\n"
                            "memcpy d2h 2KiB\n");
}

/* A blocking copy whose own work started later after its call than such
 * copies of its size usually do set itself up that much longer: host time
 * before the op. By hand, in us from the first call at 1000: three
 * synchronous pageable H2Ds of 1 MiB (calls 1000-1400, 2000-2400,
 * 3000-3700), their copies starting 50, 50 and 350 us after their calls:
 * the third's 300 beyond the usual 50 is set-up, written before it; the
 * gaps between the calls, 600 us, before that. A 4 KiB copy of the same
 * group started 100 us after its call: compared with copies of its own
 * size only, and alone there, it has no usual delay. With the third copy's
 * host buffer not resident (a[2], 1 MiB untouched) the untouched link's
 * rate holds the wait: no set-up. */
static void
test_blocking_copy_setup (void)
{
  const char *cold[] = { "0", "1048576" };
  const char *expect[] = {
    "memcpy h2d 1MiB pageable\nhost 600.000us\nmemcpy h2d 1MiB pageable\nhost 600.000us\n"
    "host 300.000us\nmemcpy h2d 1MiB pageable\nhost 300.000us\nmemcpy h2d 4KiB pageable\n",
    "memcpy h2d 1MiB pageable\nhost 600.000us\nmemcpy h2d 1MiB pageable\nhost 600.000us\n"
    "memcpy h2d 1MiB pageable untouched\nhost 300.000us\nmemcpy h2d 4KiB pageable\n" };
  for (guint i = 0; i < G_N_ELEMENTS (cold); i++)
    {
      g_autofree char *text = g_strdup_printf (
        "streamsim-record\t1\n"
        "call\t1\tcudaMemcpy\t1000000000\t1000400000\t1\t0x0\t0x0\t1048576\t1\t0\n"
        "call\t1\tcudaMemcpy\t1001000000\t1001400000\t2\t0x0\t0x0\t1048576\t1\t0\n"
        "call\t1\tcudaMemcpy\t1002000000\t1002700000\t3\t0x0\t0x0\t1048576\t1\t%s\n"
        "call\t1\tcudaMemcpy\t1003000000\t1003150000\t4\t0x0\t0x0\t4096\t1\t0\n"
        "copy\t1\t0\t1000050000\t1000390000\t1048576\t1\t1\t3\n"
        "copy\t2\t0\t1001050000\t1001390000\t1048576\t1\t1\t3\n"
        "copy\t3\t0\t1002350000\t1002690000\t1048576\t1\t1\t3\n"
        "copy\t4\t0\t1003100000\t1003140000\t4096\t1\t1\t3\n"
        "end\t4\t4\n", cold[i]);
      g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_assert_cmpstr (got, ==, expect[i]);
    }
}

/* Short gaps added up before a long one are written with it where the
 * call after both finds nothing to wait behind. By hand, in us: two pinned
 * H2Ds of s1 (calls 1000-1001 and 1002-1003, 1 us apart; on the GPU
 * 1001.2-1002 and 1003.2-1004), then 10 us of host time, then s1's
 * synchronize at 1013, long after s1's work ended: the 1 us is host time
 * no wait absorbs, written before the 10 us; with the synchronize at 1003.5
 * instead (0.5 us after the second call, s1 still copying) both gaps are
 * short and the wait absorbs them. */
static void
test_short_gaps_before_long (void)
{
  const char *sync_at[] = { "1000013000\t1000013500", "1000003500\t1000004500" };
  const char *expect[] = { "stream s1\nh2d s1 1KiB\nh2d s1 1KiB\nhost 1.000us\nhost 10.000us\nsync s1\n",
                           "stream s1\nh2d s1 1KiB\nh2d s1 1KiB\nsync s1\n" };
  for (guint i = 0; i < G_N_ELEMENTS (sync_at); i++)
    {
      g_autofree char *text = g_strdup_printf (
        "streamsim-record\t1\n"
        "call\t1\tcudaMemcpyAsync\t1000000000\t1000001000\t1\t0xa1\t0x0\t1024\t1\t0\n"
        "call\t1\tcudaMemcpyAsync\t1000002000\t1000003000\t2\t0xa1\t0x0\t1024\t1\t0\n"
        "call\t1\tcudaStreamSynchronize\t%s\t3\t0xa1\t0x0\t0\t0\t0\n"
        "copy\t1\t0\t1000001200\t1000002000\t1024\t1\t2\t3\n"
        "copy\t2\t0\t1000003200\t1000004000\t1024\t1\t2\t3\n"
        "end\t3\t2\n", sync_at[i]);
      g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_assert_cmpstr (got, ==, expect[i]);
    }
}

/* A copy CUPTI did not report is kept, as pinned and untimed; cudaMemcpy
 * with cudaMemcpyDefault takes its direction from CUPTI's record. */
static void
test_untimed_and_default_kind (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaMemcpyAsync\t1000000000\t1000001000\t1\t0x0\t0x0\t2048\t1\t0\n"
    "call\t1\tcudaMemcpy\t1000002000\t1000009000\t2\t0x0\t0x0\t3000\t4\t0\n"
    "copy\t2\t0\t1000003000\t1000008000\t3000\t2\t3\t1\n"
    "end\t2\t1\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "h2d default 2KiB\nmemcpy d2h 3000B pageable\n");
  g_assert_cmpuint (rec->n_untimed, ==, 1);
  /* the blocking copy: GPU 3-8 us, but it ends for the host at the return, 9 us */
  g_assert_cmpint (rec->start[0], ==, -1);
  g_assert_cmpint (rec->start[1], ==, 3000);
  g_assert_cmpint (rec->end[1], ==, 9000);
}

/* cudaMemcpy from device to device does not wait for its copy (the
 * runtime's API synchronization behavior): an async `d2d` in the default
 * stream, timed by CUPTI alone. Calls (us after T0): a launch 0-5 (GPU
 * 10-100), the copy 6-9 (GPU 101-102, behind the kernel), a launch 10-15
 * (GPU 103-104), a device synchronize 16-110. The copy does not wait, so
 * the gaps before and after it (1 + 1 us) add up to a `host` of 2 us; the
 * one before the synchronize is left out. */
static void
test_d2d_memcpy (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1000005000\t1\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcudaMemcpy\t1000006000\t1000009000\t2\t0x0\t0x0\t256\t3\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000015000\t3\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcudaDeviceSynchronize\t1000016000\t1000110000\t4\t0x0\t0x0\t0\t0\t0\n"
    "kernel\t1\t1000010000\t1000100000\t1\t32\t0\t0\tk\n"
    "copy\t2\t0\t1000101000\t1000102000\t256\t8\t3\t3\n"
    "kernel\t3\t1000103000\t1000104000\t1\t32\t0\t0\tk\n"
    "end\t4\t3\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  /* the first launch of k loads its code (it took the usual 5 us) */
  g_assert_cmpstr (got, ==, "kernel default grid=1 block=32 time=90.000us loads label=k\n"
                            "d2d default 256B\n"
                            "host 2.000us\n"
                            "kernel default grid=1 block=32 time=1.000us label=k\n"
                            "sync device\n");
  g_assert_nonnull (strstr (rec->text, "(device to device: the host does not wait for it)"));
  assert_op_times (rec, 1, 6000, 101000, 102000);
}

/* The third number of a copy's call is how many host bytes had no page
 * resident (record_log.h). Three pageable copies of 16 KiB, timed by CUPTI
 * back to back: all 16384 bytes cold, so `untouched`; 4096 of 16384 (25%),
 * so `untouched=4KiB`, with the share in its comment; a pinned one with a stray count, which stays pinned (pinned memory
 * is resident whatever the log says); and a 16000-byte D2H with 8192
 * bytes (two pages) cold, less than two pages short of it, so `untouched`:
 * the pages at its ends are shared with the memory beside it. */
static void
test_untouched_copies (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaMemcpyAsync\t1000000000\t1000001000\t1\t0x0\t0x0\t16384\t1\t16384\n"
    "call\t1\tcudaMemcpyAsync\t1000001000\t1000002000\t2\t0x0\t0x0\t16384\t2\t4096\n"
    "call\t1\tcudaMemcpyAsync\t1000002000\t1000003000\t3\t0x0\t0x0\t16384\t1\t16384\n"
    "call\t1\tcudaMemcpyAsync\t1000003000\t1000004000\t4\t0x0\t0x0\t16000\t2\t8192\n"
    "copy\t1\t0\t1000001000\t1000002000\t16384\t1\t1\t3\n"
    "copy\t2\t0\t1000002000\t1000003000\t16384\t2\t3\t1\n"
    "copy\t3\t0\t1000003000\t1000004000\t16384\t1\t2\t3\n"
    "copy\t4\t0\t1000004000\t1000005000\t16000\t2\t3\t1\n"
    "end\t4\t4\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "h2d default 16KiB pageable untouched\n"
                            "d2h default 16KiB pageable untouched=4KiB\n"
                            "h2d default 16KiB\n"
                            "d2h default 16000B pageable untouched\n");
  g_assert_nonnull (strstr (rec->text, "untouched   # cudaMemcpyAsync, 100% of the host buffer "
                                       "not yet resident"));
  g_assert_nonnull (strstr (rec->text, "untouched=4KiB   # cudaMemcpyAsync, 25% of the host "
                                       "buffer not yet resident"));
}

/* A `pages` line (record_log.h) gives a copy's bytes on huge pages as its
 * call began and returned: what faulted in huge is the difference. Three
 * pageable D2Hs of 4 MiB into untouched memory, by hand: 0 to 4 MiB less
 * 4080 bytes (the buffer's first page lay before the first huge page:
 * within two pages of all, so `huge`); 0 to 2 MiB (`huge=2MiB`, the other
 * half on small pages); 2 MiB before and after (nothing faulted in huge,
 * so no `huge`); and a fourth with no pages line at all (none either). */
static void
test_huge_pages (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaMemcpyAsync\t1000000000\t1000001000\t1\t0x0\t0x0\t4194304\t2\t4194304\n"
    "call\t1\tcudaMemcpyAsync\t1000001000\t1000002000\t2\t0x0\t0x0\t4194304\t2\t4194304\n"
    "call\t1\tcudaMemcpyAsync\t1000002000\t1000003000\t3\t0x0\t0x0\t4194304\t2\t4194304\n"
    "call\t1\tcudaMemcpyAsync\t1000003000\t1000004000\t4\t0x0\t0x0\t4194304\t2\t4194304\n"
    "pages\t1\t0\t4190224\n"
    "pages\t2\t0\t2097152\n"
    "pages\t3\t2097152\t2097152\n"
    "copy\t1\t0\t1000000100\t1000000900\t4194304\t2\t3\t1\n"
    "copy\t2\t0\t1000001100\t1000001900\t4194304\t2\t3\t1\n"
    "copy\t3\t0\t1000002100\t1000002900\t4194304\t2\t3\t1\n"
    "copy\t4\t0\t1000003100\t1000003900\t4194304\t2\t3\t1\n"
    "end\t4\t4\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "d2h default 4MiB pageable untouched huge\n"
                            "d2h default 4MiB pageable untouched huge=2MiB\n"
                            "d2h default 4MiB pageable untouched\n"
                            "d2h default 4MiB pageable untouched\n");
  g_assert_nonnull (strstr (rec->text, "untouched huge=2MiB   # cudaMemcpyAsync, 100% of the host "
                                       "buffer not yet resident, 2MiB of it faulted in as huge pages"));
}

/* Pageable H2Ds of a buffer copied a moment before are `cached`
 * (record_cached.c): an earlier pageable copy, either way, held all of the
 * H2D's host bytes (the log's `buffer` lines), with at most 32 MiB of other
 * pageable copies after it. By hand, calls of 1 ms one after the other:
 *   1 H2D 4 MiB at A              first of A: not cached
 *   2 H2D 1 MiB at A + 1 MiB      inside copy 1's bytes, nothing between: cached
 *   3 H2D 36 MiB at B             not
 *   4 H2D 4 MiB at A              37 MiB since copy 1 (copy 2 held only 1 MiB of A): not
 *   5 D2H 4 MiB at C              a D2H is never written cached
 *   6 H2D 4 MiB at C              copy 5 wrote C, nothing between: cached
 *   7 H2D 4 MiB at C, untouched   untouched memory: not
 *   8 H2D 4 MiB at D, pinned      not a pageable copy, and not one to follow (its
 *                                 call does not wait for the copy: the rest is host time)
 *   9 H2D 4 MiB at D              no pageable copy of D before: not
 *  10 H2D 32 MiB at E             not
 *  11 H2D 4 MiB at D              32 MiB since copy 9, the most allowed: cached
 *  12 H2D 40 MiB at F             not
 *  13 H2D 4 MiB at F              36 MiB of copy 12 after its bytes: not
 *  14 H2D 4 MiB at F + 36 MiB     the last bytes of copy 12, with copy 13 after: cached */
/* Loops of queries (record_polls.c), worked by hand. A kernel runs in s1
 * from 20 to 300 us (times from 1 s); s1 is queried every 50 us from 20
 * to 320 us (each query 1 us; a cudaGetDevice at 30 us between two, as
 * PyTorch calls it, does not break the run): the work ended after the
 * first query began and before the last returned, so the seven are one
 * `poll s1` from 20 to 321 us, every=50us (start to start, less the query, which costs nothing
 * without a profile). A lone query of the event at 400 us and two more at
 * 410 and 420 us, of work long done, stay host time: 321 to 500 us, up to
 * the next launch. Two queries of s1 at 503 and 504 us while its second
 * kernel runs to 600 us (the program stopped asking before it was done)
 * stay host time too: 502 to 508 us, before the synchronize. */
static void
test_polls (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000012000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaEventRecord\t1000013000\t1000014000\t3\t0xa1\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000020000\t1000021000\t4\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaGetDevice\t1000030000\t1000030500\t18\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000070000\t1000071000\t5\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000120000\t1000121000\t6\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000170000\t1000171000\t7\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000220000\t1000221000\t8\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000270000\t1000271000\t9\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000320000\t1000321000\t10\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaEventQuery\t1000400000\t1000401000\t11\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaEventQuery\t1000410000\t1000411000\t12\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaEventQuery\t1000420000\t1000421000\t13\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000500000\t1000502000\t14\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamQuery\t1000503000\t1000504000\t15\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamQuery\t1000504000\t1000505000\t16\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000508000\t1000602000\t17\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000020000\t1000300000\t1\t32\t0\t16\tk\n"
    "kernel\t14\t1000510000\t1000600000\t1\t32\t0\t16\tk\n"
    "end\t18\t2\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 regs=16 time=280.000us loads label=k\n"
                            "record e1 s1\n"
                            "host 6.000us\n"
                            "poll s1 every=50.000us\n"
                            "host 179.000us\n"
                            "kernel s1 grid=1 block=32 regs=16 time=90.000us label=k\n"
                            "host 6.000us\n"
                            "sync s1\n");
  g_assert_cmpuint (rec->n_polls, ==, 1);
  /* the poll from the first query's call to the last one's return */
  assert_op_times (rec, 3, 10000, 10000, 311000);
  g_autofree char *summary = record_schedule_summary (rec, 18);
  g_assert_nonnull (strstr (summary, "1 loops of queries until the work was done (poll)"));

  /* the same log as the corpus's recorders wrote it, its queries naming no
   * stream or event: a stream query is of the legacy default stream, which
   * waits for s1 (blocking), so the loop is still one; event queries are of
   * no event recorded, which stay host time */
  g_autoptr (GRegex) handles = g_regex_new ("(Query\t\\d+\t\\d+\t\\d+)\t0x[0-9a-f]+\t0x[0-9a-f]+",
                                            0, 0, NULL);
  g_autofree char *bare = g_regex_replace (handles, text, -1, 0, "\\1\t0x0\t0x0", 0, NULL);
  g_autoptr (RecordSchedule) plain = convert (bare, 2000, 0);
  g_assert_cmpuint (plain->n_polls, ==, 1);
  g_assert_nonnull (strstr (plain->text, "\npoll default every=50.000us"));
}

static void
test_cached_buffers (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaMemcpyAsync\t1001000000\t1002000000\t1\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1002000000\t1003000000\t2\t0x0\t0x0\t1048576\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1003000000\t1004000000\t3\t0x0\t0x0\t37748736\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1004000000\t1005000000\t4\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1005000000\t1006000000\t5\t0x0\t0x0\t4194304\t2\t0\n"
    "call\t1\tcudaMemcpyAsync\t1006000000\t1007000000\t6\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1007000000\t1008000000\t7\t0x0\t0x0\t4194304\t1\t4194304\n"
    "call\t1\tcudaMemcpyAsync\t1008000000\t1009000000\t8\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1009000000\t1010000000\t9\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1010000000\t1011000000\t10\t0x0\t0x0\t33554432\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1011000000\t1012000000\t11\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1012000000\t1013000000\t12\t0x0\t0x0\t41943040\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1013000000\t1014000000\t13\t0x0\t0x0\t4194304\t1\t0\n"
    "call\t1\tcudaMemcpyAsync\t1014000000\t1015000000\t14\t0x0\t0x0\t4194304\t1\t0\n"
    "buffer\t1\t0x10000000\n"
    "buffer\t2\t0x10100000\n"
    "buffer\t3\t0x20000000\n"
    "buffer\t4\t0x10000000\n"
    "buffer\t5\t0x30000000\n"
    "buffer\t6\t0x30000000\n"
    "buffer\t7\t0x30000000\n"
    "buffer\t8\t0x40000000\n"
    "buffer\t9\t0x40000000\n"
    "buffer\t10\t0x50000000\n"
    "buffer\t11\t0x40000000\n"
    "buffer\t12\t0x60000000\n"
    "buffer\t13\t0x60000000\n"
    "buffer\t14\t0x62400000\n"
    "copy\t1\t0\t1001100000\t1001800000\t4194304\t1\t1\t3\n"
    "copy\t2\t0\t1002100000\t1002800000\t1048576\t1\t1\t3\n"
    "copy\t3\t0\t1003100000\t1003800000\t37748736\t1\t1\t3\n"
    "copy\t4\t0\t1004100000\t1004800000\t4194304\t1\t1\t3\n"
    "copy\t5\t0\t1005100000\t1005800000\t4194304\t2\t3\t1\n"
    "copy\t6\t0\t1006100000\t1006800000\t4194304\t1\t1\t3\n"
    "copy\t7\t0\t1007100000\t1007800000\t4194304\t1\t1\t3\n"
    "copy\t8\t0\t1008100000\t1008800000\t4194304\t1\t2\t3\n"
    "copy\t9\t0\t1009100000\t1009800000\t4194304\t1\t1\t3\n"
    "copy\t10\t0\t1010100000\t1010800000\t33554432\t1\t1\t3\n"
    "copy\t11\t0\t1011100000\t1011800000\t4194304\t1\t1\t3\n"
    "copy\t12\t0\t1012100000\t1012800000\t41943040\t1\t1\t3\n"
    "copy\t13\t0\t1013100000\t1013800000\t4194304\t1\t1\t3\n"
    "copy\t14\t0\t1014100000\t1014800000\t4194304\t1\t1\t3\n"
    "end\t14\t14\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "h2d default 4MiB pageable\n"
                            "h2d default 1MiB pageable cached\n"
                            "h2d default 36MiB pageable\n"
                            "h2d default 4MiB pageable\n"
                            "d2h default 4MiB pageable\n"
                            "h2d default 4MiB pageable cached\n"
                            "h2d default 4MiB pageable untouched\n"
                            "h2d default 4MiB\n"
                            "host 900.000us\n"
                            "h2d default 4MiB pageable\n"
                            "h2d default 32MiB pageable\n"
                            "h2d default 4MiB pageable cached\n"
                            "h2d default 40MiB pageable\n"
                            "h2d default 4MiB pageable\n"
                            "h2d default 4MiB pageable cached\n");
  g_assert_nonnull (strstr (rec->text, "1MiB pageable cached   # cudaMemcpyAsync, its buffer copied "
                                       "before with little between (in the CPU's caches)"));
  /* copies 2, 6, 11 and 14 */
  g_autofree char *summary = record_schedule_summary (rec, 14);
  g_assert_nonnull (strstr (summary, "; 4 pageable H2Ds read buffers copied a moment before (cached)"));
}

/* 2D and 3D copies whose log lines carry their rows (A2, record_log.h)
 * are copies with rows=, their direction and host memory CUPTI's as for
 * plain copies. Calls (us after T0), correlation:
 *   cudaStreamCreate s1      0-1      1
 *   cudaMemcpy2DAsync s1     10-12    2   H2D, 64 B x 65536 rows = 4 MiB; GPU 15-119.5, pinned
 *   cudaMemcpy3D             120-200  3   D2H, 256 x 64 x 16: 256 KiB in 1024 rows; GPU 130-190
 *   cudaMemcpy2DAsync_ptsz   201-203  4   D2D, 8 KiB, no rows (a log from before rows were
 *                                          kept): not modelled, its call host time
 *   cudaMemcpy2DAsync s1     210-212  5   H2D, 4 KiB in one row: a plain copy
 *   cudaMemcpy2D             220-222  6   D2D, 64 KiB in 512 rows: the host does not wait,
 *                                          a d2d in the default stream
 *   cudaMemcpy3D             230-240  7   into a CUDA array (the log keeps nothing of it,
 *                                          CUPTI's record says HtoA): not modelled */
static void
test_rows_copies (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaMemcpy2DAsync\t1000010000\t1000012000\t2\t0xa1\t0x0\t4194304\t1\t65536\n"
    "call\t1\tcudaMemcpy3D\t1000120000\t1000200000\t3\t0x0\t0x0\t262144\t2\t1024\n"
    "call\t1\tcudaMemcpy2DAsync_ptsz\t1000201000\t1000203000\t4\t0x0\t0x0\t8192\t3\t0\n"
    "call\t1\tcudaMemcpy2DAsync\t1000210000\t1000212000\t5\t0xa1\t0x0\t4096\t1\t1\n"
    "call\t1\tcudaMemcpy2D\t1000220000\t1000222000\t6\t0x0\t0x0\t65536\t3\t512\n"
    "call\t1\tcudaMemcpy3D\t1000230000\t1000240000\t7\t0x0\t0x0\t0\t0\t0\n"
    "copy\t2\t0\t1000015000\t1000119500\t4194304\t1\t2\t3\n"
    "copy\t3\t0\t1000130000\t1000190000\t262144\t2\t3\t2\n"
    "copy\t4\t0\t1000205000\t1000206000\t8192\t8\t3\t3\n"
    "copy\t5\t0\t1000213000\t1000214000\t4096\t1\t2\t3\n"
    "copy\t6\t0\t1000223000\t1000224000\t65536\t8\t3\t3\n"
    "copy\t7\t0\t1000231000\t1000239000\t65536\t3\t2\t4\n"
    "end\t7\t6\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_assert_nonnull (strstr (rec->text, "\nh2d s1 4MiB rows=65536   # cudaMemcpy2DAsync, 64B x "
                                       "65536 rows, 104.500us on the GPU\n"));
  g_assert_nonnull (strstr (rec->text, "\nmemcpy d2h 256KiB rows=1024   # cudaMemcpy3D, 256B x "
                                       "1024 rows, 60.000us on the GPU\n"));
  g_assert_nonnull (strstr (rec->text, "\n# not modelled: cudaMemcpy2DAsync_ptsz (a 2D or 3D copy "
                                       "whose rows the log does not keep"));
  g_assert_nonnull (strstr (rec->text, "\nh2d s1 4KiB   # cudaMemcpy2DAsync, 1.000us on the GPU\n"));
  g_assert_nonnull (strstr (rec->text, "\nd2d default 64KiB rows=512   # cudaMemcpy2D (device to "
                                       "device: the host does not wait for it), 128B x 512 rows"));
  g_assert_nonnull (strstr (rec->text, "\n# not modelled: cudaMemcpy3D (a 3D copy to or from a "
                                       "CUDA array), 8.000us on the GPU\n"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 2);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "h2d s1 4MiB rows=65536\n"
                            "host 108.000us\n"
                            "memcpy d2h 256KiB rows=1024\n"
                            "host 10.000us\n"
                            "h2d s1 4KiB\n"
                            "host 8.000us\n"
                            "d2d default 64KiB rows=512\n");
  /* ns from the 2D copy's call at 10 us: it ran 15-119.5; the blocking 3D
   * copy, called at 120, ran 130-190 and ended for the host at its return, 200 */
  assert_op_times (rec, 0, 0, 5000, 109500);
  assert_op_times (rec, 2, 110000, 120000, 190000);
}

/* Labels from kernel names, as the corpus's PyTorch, cuDNN and CuPy
 * programs have them, mangled (as CUPTI gives them to the recorder) or
 * demangled (as Kineto writes them), worked out by reading the names: a
 * label is the function's name with its scope, joined by '.', without
 * template arguments, anonymous and compiler-internal namespaces, and with
 * no more scope than fits in 48 characters:
 *   _ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BUnaryFunctor...
 *     at::native::vectorized_elementwise_kernel<4, BUnaryFunctor<...>,
 *     std::array<char*, 2>>: at.native.vectorized_elementwise_kernel
 *   _ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl...
 *     its template argument a local name (Z...E) holding a lambda (Ul...E),
 *     neither of which ends the arguments early: at.native.elementwise_kernel
 *   _ZN17cutlass__5x_cudnn6KernelI65cutlass_tensorop_...EEvNT_6ParamsE:
 *     cutlass__5x_cudnn.Kernel
 *   _ZL10fillKernelPfi (internal linkage): fillKernel
 *   _ZN2at6native29vectorized_elementwise_kernelILi4EZNS0_21compare_scalar...
 *     a lambda whose parameters close with their own E inside the template
 *     arguments: at.native.vectorized_elementwise_kernel, not `array`
 *   _ZN2at6native52_GLOBAL__N__e57809e0_19_DilatedMaxPool2d_cu_6b4bfc4621
 *     max_pool_forward_nchwIffEEviPKT_...: at.native.max_pool_forward_nchw
 *   void at::native::(anonymous namespace)::multi_tensor_apply_kernel<...>
 *     (...): at.native.multi_tensor_apply_kernel
 *   void cub::CUB_300102_SM_750_800_860_890_900_1000_::DeviceReduceKernel<...>
 *     (...): the namespace does not fit beside the name: DeviceReduceKernel
 *   kernel(float*): kernel */
static void
test_kernel_labels (void)
{
  static const char *const names[] = {
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BUnaryFunctorIfffNS0_15binary_"
    "internal10MulFunctorIfEEEESt5arrayIPcLm2EEEEviT0_T1_",
    "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_15CUDAFunctor_"
    "addIfEEEEvRNS_18TensorIteratorBaseERKT_EUliE_EEviT1_",
    "_ZN17cutlass__5x_cudnn6KernelI65cutlass_tensorop_s1688dgrad_analytic_tf32_256x64_16x4_nhwc_"
    "align4EEvNT_6ParamsE",
    "_ZL10fillKernelPfi",
    "_ZN2at6native29vectorized_elementwise_kernelILi4EZNS0_21compare_scalar_kernelIfEEvRNS_18Tens"
    "orIteratorBaseENS0_50_GLOBAL__N__e50ef81d_17_CompareKernels_cu_8f1b29aa6OpTypeET_EUlfE_St5ar"
    "rayIPcLm2EEEEviT0_T1_",
    "_ZN2at6native52_GLOBAL__N__e57809e0_19_DilatedMaxPool2d_cu_6b4bfc4621max_pool_forward_nchwIf"
    "fEEviPKT_llliiiiiiiiiiPS3_Pl",
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, float>(T1, T2)",
    "void cub::CUB_300102_SM_750_800_860_890_900_1000_::DeviceReduceKernel<int, float*>(T2, int)",
    "kernel(float*)",
  };
  static const char *const labels[] = {
    "at.native.vectorized_elementwise_kernel", "at.native.elementwise_kernel",
    "cutlass__5x_cudnn.Kernel", "fillKernel", "at.native.vectorized_elementwise_kernel",
    "at.native.max_pool_forward_nchw", "at.native.multi_tensor_apply_kernel",
    "DeviceReduceKernel", "kernel",
  };
  GString *text = g_string_new ("streamsim-record\t1\n");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_string_append_printf (text, "call\t1\tcudaLaunchKernel\t%u\t%u\t%u\t0x0\t0x0\t1\t32\t0\n",
                            1000000000u + 2000u * i, 1000001000u + 2000u * i, i + 1);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_string_append_printf (text, "kernel\t%u\t%u\t%u\t1\t32\t0\t16\t%s\n", i + 1,
                            1000100000u + 2000u * i, 1000101000u + 2000u * i, names[i]);
  g_string_append_printf (text, "end\t%u\t%u\n", (guint) G_N_ELEMENTS (names),
                          (guint) G_N_ELEMENTS (names));
  g_autoptr (RecordSchedule) rec = convert (text->str, 2000, 0);
  g_string_free (text, TRUE);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_auto (GStrv) lines = g_strsplit (got, "\n", -1);
  guint k = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "kernel "))
      {
        g_assert_cmpuint (k, <, G_N_ELEMENTS (labels));
        g_autofree char *want = g_strdup_printf (" label=%s", labels[k]);
        g_assert_true (g_str_has_suffix (lines[i], want));
        k++;
      }
  g_assert_cmpuint (k, ==, G_N_ELEMENTS (labels));
}

/* Event records that cudaEventElapsedTime measured, and a driver API launch.
 * Calls (enter, us after T0; each returns 0.5 us later, and the gaps, 3.5
 * us in all, stay under the minimum of 10 us: no host time is kept),
 * events 0xe1 = 225 and 0xe2 = 226, all on the legacy stream:
 *   1  cudaEventRecord e1              0    op 0
 *   2  cudaLaunchKernel                1    op 1 (GPU 10-20 us)
 *   3  cudaEventRecord e2              2    op 2
 *   4  cudaEventElapsedTime(e1, e2)    3    the latest records: op 0 to op 2
 *   5  cudaEventRecord e1              4    op 3
 *   6  cuLaunchKernel                  5    driver API: op 4 (GPU 20-30 us)
 *   7  cudaEventRecord e2              6    op 5
 *   8  cudaEventElapsedTime_v2(e1, e2) 7    op 3 to op 5
 *   9  cudaEventElapsedTime(e2, e1)    8    op 5 to op 3: ends before it starts, skipped
 *   10 cudaEventElapsedTime(e1, e1)    9    one record twice: skipped
 *   11 cudaEventElapsedTime(e1, e2)    10   op 3 to op 5 again: op 5 keeps its label
 * So op 2 is labelled elapsed_from_op0 and op 5 elapsed_from_op3. Op 1 is
 * k's first launch, alone in its group: `loads`. */
static void
test_elapsed_and_driver (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaEventRecord\t1000000000\t1000000500\t1\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000001000\t1000001500\t2\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcudaEventRecord\t1000002000\t1000002500\t3\t0x0\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaEventElapsedTime\t1000003000\t1000003500\t4\t0x0\t0xe1\t226\t0\t0\n"
    "call\t1\tcudaEventRecord\t1000004000\t1000004500\t5\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcuLaunchKernel\t1000005000\t1000005500\t6\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcudaEventRecord\t1000006000\t1000006500\t7\t0x0\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaEventElapsedTime_v2\t1000007000\t1000007500\t8\t0x0\t0xe1\t226\t0\t0\n"
    "call\t1\tcudaEventElapsedTime\t1000008000\t1000008500\t9\t0x0\t0xe2\t225\t0\t0\n"
    "call\t1\tcudaEventElapsedTime\t1000009000\t1000009500\t10\t0x0\t0xe1\t225\t0\t0\n"
    "call\t1\tcudaEventElapsedTime\t1000010000\t1000010500\t11\t0x0\t0xe1\t226\t0\t0\n"
    "kernel\t2\t1000010000\t1000020000\t1\t32\t0\t0\tk\n"
    "kernel\t6\t1000020000\t1000030000\t1\t32\t0\t0\tk\n"
    "end\t11\t2\n";
  g_autoptr (RecordSchedule) rec = convert (text, 10000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "record e1 default\n"
                            "kernel default grid=1 block=32 time=10.000us loads label=k\n"
                            "record e2 default label=" RECORD_ELAPSED_LABEL "0\n"
                            "record e1 default\n"
                            "kernel default grid=1 block=32 time=10.000us label=k\n"
                            "record e2 default label=" RECORD_ELAPSED_LABEL "3\n");
  g_assert_cmpstr (RECORD_ELAPSED_LABEL, ==, "elapsed_from_op");
  g_assert_cmpuint (rec->n_not_modelled, ==, 0);
  g_assert_cmpuint (rec->n_ops, ==, 6);
}

static void assert_log_error (const char *text, const char *expected);

/* A stream capture (CUDA's fork and join, as cuda-samples' simpleCudaGraphs
 * does it) between a kernel before it and a graph launch after it. Calls
 * (enter-exit, us after T0); streams a1, a2, a3; `X` is the capture's stream
 * where the recorder kept it (0xa1), else 0:
 *   1-3  cudaStreamCreate a1, a2, a3           0-5
 *   4    cudaLaunchKernel a1                   10-11   GPU 20-30: runs, op 0
 *   5    cudaStreamBeginCapture X              12-13
 *   6    cudaEventRecord e1 in a1              14-15   captured (a1 captures)
 *   7    cudaStreamWaitEvent a2 e1             16-17   captured (a2 joins)
 *   8    cudaMemsetAsync a2                    18-19   captured
 *   9    cudaMemcpyAsync a1, cudaMemcpyDefault 20-20.4 captured: no CUPTI record
 *   10   cudaLaunchKernel a3                   20.5-20.8 GPU 35-45: runs (a3 never joined)
 *   11   cudaEventRecord e2 in a2              22-23   captured
 *   12   cudaStreamWaitEvent a1 e2             24-25   captured
 *   13   cudaLaunchHostFunc X                  26-27   captured
 *   14   cudaStreamEndCapture X                28-29
 *   15   cudaGraphLaunch X                     30-31   GPU 46-56: a `graph` block
 *                                                      of its one kernel, in X's stream
 *   16   cudaStreamSynchronize a1              32-60
 * Seven calls captured; the host gaps between the ops: 11 to 20.5 (9.5 us)
 * and 20.8 to 30 (9.2 us); 31 to 32 is left out, before a wait. Without the
 * capture's stream (an older log) the capturing streams are inferred from
 * call 9, which has no CUPTI record: the same answer, but for that gap:
 * the graph then runs in the legacy stream, which a synchronize of a1 does
 * not wait for, so a1 is idle at the call and the 1 us is kept. Call 4 is k's first
 * launch (1 us, the usual being the other's 0.3 us): `loads`. */
static char *
capture_log (const char *x)
{
  return g_strdup_printf (
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000002000\t1000003000\t2\t0xa2\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000004000\t1000005000\t3\t0xa3\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000011000\t4\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamBeginCapture\t1000012000\t1000013000\t5\t%s\t0x0\t0\t0\t0\n"
    "call\t1\tcudaEventRecord\t1000014000\t1000015000\t6\t0xa1\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaStreamWaitEvent\t1000016000\t1000017000\t7\t0xa2\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaMemsetAsync\t1000018000\t1000019000\t8\t0xa2\t0x0\t4096\t0\t0\n"
    "call\t1\tcudaMemcpyAsync\t1000020000\t1000020400\t9\t0xa1\t0x0\t1024\t4\t0\n"
    "call\t1\tcudaLaunchKernel\t1000020500\t1000020800\t10\t0xa3\t0x0\t1\t32\t0\n"
    "call\t1\tcudaEventRecord\t1000022000\t1000023000\t11\t0xa2\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaStreamWaitEvent\t1000024000\t1000025000\t12\t0xa1\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaLaunchHostFunc\t1000026000\t1000027000\t13\t%s\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamEndCapture\t1000028000\t1000029000\t14\t%s\t0x0\t0\t0\t0\n"
    "call\t1\tcudaGraphLaunch\t1000030000\t1000031000\t15\t%s\t0x0\t0\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000032000\t1000060000\t16\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t4\t1000020000\t1000030000\t1\t32\t0\t0\tk\n"
    "kernel\t10\t1000035000\t1000045000\t1\t32\t0\t0\tk\n"
    "kernel\t15\t1000046000\t1000056000\t1\t32\t0\t0\tg\n"
    "end\t16\t3\n", x, x, x, x);
}

static void
test_capture (void)
{
  const char *streams[] = { "0xa1", "0x0" };
  for (guint i = 0; i < G_N_ELEMENTS (streams); i++)
    {
      g_autofree char *text = capture_log (streams[i]);
      g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
      g_autofree char *got = schedule_text_statements (rec->text);
      const char *x = i == 0 ? "s1" : "default";
      g_autofree char *want = g_strdup_printf ("stream s1\n"
                                               "stream s2\n"
                                               "stream s3\n"
                                               "kernel s1 grid=1 block=32 time=10.000us loads label=k\n"
                                               "host 9.500us\n"
                                               "kernel s3 grid=1 block=32 time=10.000us label=k\n"
                                               "host 9.200us\n"
                                               "graph %s\n"
                                               "  kernel %s grid=1 block=32 time=10.000us label=g\n"
                                               "end\n"
                                               "%ssync s1\n", x, x, i == 0 ? "" : "host 1.000us\n");
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (rec->n_captured, ==, 7);
      g_assert_cmpuint (rec->n_not_modelled, ==, 0);
      g_assert_nonnull (strstr (rec->text, "# captured into a graph: cudaMemcpyAsync"));
    }
}

/* A program that has its host sleep in its waits (record_flags.h):
 * cudaSetDeviceFlags (cudaDeviceScheduleBlockingSync) is `device_schedule
 * blocking_sync`, an event made with cudaEventBlockingSync `event NAME
 * blocking_sync`, one made with other flags nothing. On schematic-sleep
 * (sync 2 us; the wake 0.1 ms for a wait up to 1 ms, 0.3 ms from 3 ms,
 * straight between). Calls (us after T0), CUPTI's records:
 *   1  cudaSetDeviceFlags 4             0-1
 *   2  cudaStreamCreate s1 (0xa1)       2-3
 *   3  cudaEventCreateWithFlags 0xe1, 1 (BlockingSync)   4-5
 *   4  cudaEventCreateWithFlags 0xe2, 2 (DisableTiming)  6-7
 *   5  cudaLaunchKernel s1              10-12  GPU 20-2020
 *   6  cudaStreamSynchronize s1         13-2230: waited 2007 us for the
 *      kernel; the model returns it 2 + 100 + 200 x 1007 / 2000 = 202.7 us
 *      after the kernel, it returned 210 us after: 7.3 us more, under
 *      that: no host time (as a spinning one, measured against its group's
 *      usual return, the idle call 9's 1 us, it would have had 209 us)
 *   7  cudaEventRecord e1 s1            2240-2241
 *   8  cudaEventRecord e2 s1            2242-2243
 *   9  cudaStreamSynchronize s1         2250-2251 (idle)
 *  10  cudaEventSynchronize e1          2252-2253 (idle)
 *  11  cudaEventSynchronize e2          2254-2255 (idle)
 * The kernel is its launch's first (`loads`); host gaps 2230-2240 (10 us),
 * 2241-2242 (1), 2243-2250 (7), 2251-2252 and 2253-2254 (1 each). */
static void
test_blocking_sync (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaSetDeviceFlags\t1000000000\t1000001000\t1\t0x0\t0x0\t4\t0\t0\n"
    "call\t1\tcudaStreamCreate\t1000002000\t1000003000\t2\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaEventCreateWithFlags\t1000004000\t1000005000\t3\t0x0\t0xe1\t1\t0\t0\n"
    "call\t1\tcudaEventCreateWithFlags\t1000006000\t1000007000\t4\t0x0\t0xe2\t2\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000012000\t5\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000013000\t1002230000\t6\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaEventRecord\t1002240000\t1002241000\t7\t0xa1\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaEventRecord\t1002242000\t1002243000\t8\t0xa1\t0xe2\t0\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1002250000\t1002251000\t9\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaEventSynchronize\t1002252000\t1002253000\t10\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcudaEventSynchronize\t1002254000\t1002255000\t11\t0x0\t0xe2\t0\t0\t0\n"
    "kernel\t5\t1000020000\t1002020000\t1\t32\t0\t0\tk\n"
    "end\t11\t1\n";
  g_autoptr (RecordSchedule) rec = convert_on ("schematic-sleep", text, 2000);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "device_schedule blocking_sync\n"
                            "stream s1\n"
                            "kernel s1 grid=1 block=32 time=2000.000us loads label=k\n"
                            "sync s1\n"
                            "host 10.000us\n"
                            "record e1 s1\n"
                            "record e2 s1\n"
                            "host 1.000us\n"
                            "host 7.000us\n"
                            "sync s1\n"
                            "host 1.000us\n"
                            "sync e1\n"
                            "host 1.000us\n"
                            "sync e2\n"
                            "event e1 blocking_sync\n");

  /* the same through the driver API, as a program of its own makes it:
   * cuCtxCreate_v2 with CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST (12),
   * cuEventCreate with CU_EVENT_BLOCKING_SYNC (1); the kernel 20-120, its
   * event synchronized 13-230, returning 110 us after the kernel, which the
   * model returns 2 + 100 us after it (a wait under 1 ms): 8 us more, no
   * host time */
  const char *driver =
    "streamsim-record\t1\n"
    "call\t1\tcuCtxCreate_v2\t1000000000\t1000001000\t1\t0x0\t0x0\t12\t0\t0\n"
    "call\t1\tcuEventCreate\t1000002000\t1000003000\t2\t0x0\t0xe1\t1\t0\t0\n"
    "call\t1\tcuLaunchKernel\t1000010000\t1000011000\t3\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcuEventRecord\t1000011000\t1000012000\t4\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcuEventSynchronize\t1000013000\t1000230000\t5\t0x0\t0xe1\t0\t0\t0\n"
    "kernel\t3\t1000020000\t1000120000\t1\t32\t0\t0\tk\n"
    "end\t5\t1\n";
  g_autoptr (RecordSchedule) drec = convert_on ("schematic-sleep", driver, 2000);
  g_autofree char *dgot = schedule_text_statements (drec->text);
  g_assert_cmpstr (dgot, ==, "device_schedule blocking_sync\n"
                             "kernel default grid=1 block=32 time=100.000us label=k\n"
                             "record e1 default\n"
                             "sync e1\n"
                             "event e1 blocking_sync\n");
  g_assert_nonnull (strstr (drec->text, "device_schedule blocking_sync   # cuCtxCreate_v2\n"));
  g_assert_nonnull (strstr (rec->text, "device_schedule blocking_sync   # cudaSetDeviceFlags\n"));
}

/* Memsets of pinned host memory (record_memset.h): an async one is a
 * `memset ... pinned` (XLA sets its 8 B flags so), a synchronous one a
 * comment (the host waits for it). Calls (us after T0), CUPTI's records:
 *   1  cudaStreamCreate s1 (0xa1)     0-1
 *   2  cuMemsetD32Async s1, 8 B       10-11  GPU 12-13, pinned
 *   3  cudaMemset, 64 B               20-22  GPU 21-22, pinned: a comment
 *   4  cudaStreamSynchronize s1       30-31
 * From the memset's return to the synchronize, 11-30, 19 us of host time
 * (call 3, 20-22, is host time too). */
static void
test_memsets_pinned (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcuMemsetD32Async\t1000010000\t1000011000\t2\t0xa1\t0x0\t8\t0\t0\n"
    "call\t1\tcudaMemset\t1000020000\t1000022000\t3\t0x0\t0x0\t64\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000030000\t1000031000\t4\t0xa1\t0x0\t0\t0\t0\n"
    "memset\t2\t1000012000\t1000013000\t8\t0\t2\n"
    "memset\t3\t1000021000\t1000022000\t64\t0\t2\n"
    "end\t4\t2\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "memset s1 8B pinned\n"
                            "host 19.000us\n"
                            "sync s1\n");
  g_assert_nonnull (strstr (rec->text, "# not modelled: cudaMemset (a synchronous memset of pinned "
                                       "host memory: the host waits for it)"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
}

/* Memsets (logs since 2026-11-26 have their records; record_memset.h), one
 * log written by hand. Calls (enter-exit, us after T0), CUPTI's records:
 *   1  cudaStreamCreate s1 (0xa1)        0-1
 *   2  cudaMemsetAsync s1, 4 MiB         10-12  GPU 20-30, device memory
 *   3  cudaMemset (the call keeps no size) 13-15  GPU 31-32, 1000 B, device
 *   4  cudaMemset_ptds                   16-18  GPU 33-34, 2 KiB, static device
 *   5  cudaMemsetAsync s1, 512 B         19-21  GPU 35-36, pageable: a comment
 *   6  cudaMemsetAsync s1, 0 B           22-23  no record: no GPU work
 *   7  cuMemsetD32Async, stream and size not kept (an older recorder)
 *                                        24-26  GPU 37-38, 4 KiB, device
 *   8  cudaMemset2DAsync s1, 8 KiB       27-29  GPU 39-40, device
 *   9  cudaMemsetAsync s1, 100 B         30-31  no record: taken as device
 *   10 cudaDeviceSynchronize             40-50
 * The synchronous ones run in the legacy (or per-thread) default stream and
 * do not hold the host. Host gaps between the ops (min 2 us): 12-13 and
 * 15-16 add up to 2 us; 18-24 (calls 5 and 6 are host time) 6 us; 26-27
 * and 29-30 add up to 2 us; 31-40 9 us. No call is longer than usual (the
 * two async memsets that are ops took 2 and 1 us: 1 us more than the
 * usual, under the minimum), and the synchronize returned 10 us after the
 * last work, its usual as the only one. */
static void
test_memsets (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaMemsetAsync\t1000010000\t1000012000\t2\t0xa1\t0x0\t4194304\t0\t0\n"
    "call\t1\tcudaMemset\t1000013000\t1000015000\t3\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaMemset_ptds\t1000016000\t1000018000\t4\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaMemsetAsync\t1000019000\t1000021000\t5\t0xa1\t0x0\t512\t0\t0\n"
    "call\t1\tcudaMemsetAsync\t1000022000\t1000023000\t6\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcuMemsetD32Async\t1000024000\t1000026000\t7\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaMemset2DAsync\t1000027000\t1000029000\t8\t0xa1\t0x0\t8192\t0\t0\n"
    "call\t1\tcudaMemsetAsync\t1000030000\t1000031000\t9\t0xa1\t0x0\t100\t0\t0\n"
    "call\t1\tcudaDeviceSynchronize\t1000040000\t1000050000\t10\t0x0\t0x0\t0\t0\t0\n"
    "memset\t2\t1000020000\t1000030000\t4194304\t0\t3\n"
    "memset\t3\t1000031000\t1000032000\t1000\t0\t3\n"
    "memset\t4\t1000033000\t1000034000\t2048\t0\t6\n"
    "memset\t5\t1000035000\t1000036000\t512\t0\t1\n"
    "memset\t7\t1000037000\t1000038000\t4096\t0\t3\n"
    "memset\t8\t1000039000\t1000040000\t8192\t0\t3\n"
    "end\t10\t6\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "memset s1 4MiB\n"
                            "memset default 1000B\n"
                            "host 2.000us\n"
                            "stream per_thread\n"
                            "memset per_thread 2KiB\n"
                            "host 6.000us\n"
                            "memset default 4KiB\n"
                            "memset s1 8KiB\n"
                            "host 2.000us\n"
                            "memset s1 100B\n"
                            "host 9.000us\n"
                            "sync device\n");
  const char *comments[] = {
    "memset default 1000B   # cudaMemset (of device memory: the host does not wait for it), "
    "1.000us on the GPU\n",
    "memset per_thread 2KiB   # cudaMemset_ptds (of device memory: the host does not wait for "
    "it), 1.000us on the GPU\n",
    "# not modelled: cudaMemsetAsync (the language's memset is of device or pinned host memory), "
    "in s1, 512B of pageable memory, 1.000us on the GPU\n",
    "# cudaMemsetAsync of 0 bytes: no GPU work\n",
    "memset default 4KiB   # cuMemsetD32Async, the log keeps no stream for it (taken as the "
    "call's handle), 1.000us on the GPU\n",
    "memset s1 8KiB   # cudaMemset2DAsync, a 2D or 3D memset as one of its bytes, 1.000us on "
    "the GPU\n",
    "memset s1 100B   # cudaMemsetAsync, not timed by CUPTI (taken as device memory)\n",
  };
  for (guint i = 0; i < G_N_ELEMENTS (comments); i++)
    g_assert_nonnull (strstr (rec->text, comments[i]));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
  g_assert_cmpuint (rec->n_untimed, ==, 1);
  /* ns from call 2 at 10 us: each memset from its call and CUPTI's record;
   * the host statements where their gaps were */
  g_assert_cmpuint (rec->n_ops, ==, 11);
  assert_op_times (rec, 0, 0, 10000, 20000);
  assert_op_times (rec, 1, 3000, 21000, 22000);
  assert_op_times (rec, 2, 4000, 4000, 6000);
  assert_op_times (rec, 3, 6000, 23000, 24000);
  assert_op_times (rec, 4, 8000, 8000, 14000);
  assert_op_times (rec, 5, 14000, 27000, 28000);
  assert_op_times (rec, 6, 17000, 29000, 30000);
  assert_op_times (rec, 7, 18000, 18000, 20000);
  assert_op_times (rec, 8, 20000, -1, -1);
  assert_op_times (rec, 9, 21000, 21000, 30000);
  assert_op_times (rec, 10, 30000, 30000, 40000);
}

/* A memset record of the wrong width, or one that ends before it starts,
 * names its line. */
static void
test_memset_records (void)
{
  assert_log_error ("streamsim-record\t1\n"
                    "memset\t40\t1000005000\t1000007000\t4096\t0\n",
                    "test.log:2:38: a memset record needs 7 tab-separated fields, this line has 6");
  assert_log_error ("streamsim-record\t1\n"
                    "memset\t40\t9\t7\t4096\t0\t3\n",
                    "test.log:2:13: the memset ends (7) before it starts (9)");
}

/* The log of test_inside_async and test_inside_threads: a stream, three
 * launches by thread 1 and the fourth launch's call (`fourth`), and the four
 * kernels. */
static char *
inside_launches (const char *fourth)
{
  return g_strconcat (
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000040000\t1000045000\t3\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000070000\t1000170000\t4\t0xa1\t0x0\t1\t32\t0\n",
    fourth,
    "kernel\t2\t1000020000\t1000030000\t1\t32\t0\t0\tk\n"
    "kernel\t3\t1000050000\t1000060000\t1\t32\t0\t0\tk\n"
    "kernel\t4\t1000172000\t1000180000\t1\t32\t0\t0\tk\n"
    "kernel\t5\t1000210000\t1000220000\t1\t32\t0\t0\tk\n"
    "end\t5\t4\n", NULL);
}

/* Host time inside launches (record_inside.h). Four launches into s1 on an
 * idle GPU (us after T0), one kernel each:
 *   call 10-15 GPU 20-30; call 40-45 GPU 50-60;
 *   call 70-170 GPU 172-180: it started only after the call returned;
 *   call 200-300 GPU 210-220: it started 10 us into the call.
 * The usual launch is the lower median of 5, 5, 100, 100: 5 us (the upper
 * one, 100, would find nothing unusual). The third took 95 us more, all
 * before its kernel could start (172 - 70 - 5 = 97 >= 95): host before it;
 * the fourth took 95 us more, of which 210 - 200 - 5 = 5 us before its
 * kernel started and 90 after: host on both sides. The gaps (25, 25, 30
 * us) are host work as ever. The first launch is k's first, and without a
 * profile (kernel_load 0) its usual 5 us are enough to load: `loads`. */
static void
test_inside_async (void)
{
  g_autofree char *text = inside_launches (
    "call\t1\tcudaLaunchKernel\t1000200000\t1000300000\t5\t0xa1\t0x0\t1\t32\t0\n");
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=10.000us loads label=k\n"
                            "host 25.000us\n"
                            "kernel s1 grid=1 block=32 time=10.000us label=k\n"
                            "host 25.000us\n"
                            "host 95.000us\n"
                            "kernel s1 grid=1 block=32 time=8.000us label=k\n"
                            "host 30.000us\n"
                            "host 5.000us\n"
                            "kernel s1 grid=1 block=32 time=10.000us label=k\n"
                            "host 90.000us\n");
  g_assert_nonnull (strstr (rec->text, "host 95.000us   # inside cudaLaunchKernel, which took "
                                       "100.000us: set-up before its work started, beyond its "
                                       "usual 5.000us"));
  g_assert_nonnull (strstr (rec->text, "host 90.000us   # inside cudaLaunchKernel, which took "
                                       "100.000us: host work after its work was submitted, "
                                       "beyond its usual 5.000us"));
  /* measured, ns from the first launch's call at 10 us (ops 4, 5, 7, 8,
   * 9): the third kernel's set-up is 70-165 us, the kernel issued where it
   * ended, at 165; the fourth's set-up is 200-205 us, its kernel issued at
   * 205, and the host work after it 210-300 */
  g_assert_cmpuint (rec->n_ops, ==, 10);
  assert_op_times (rec, 4, 60000, 60000, 155000);
  assert_op_times (rec, 5, 155000, 162000, 170000);
  assert_op_times (rec, 7, 190000, 190000, 195000);
  assert_op_times (rec, 8, 195000, 200000, 210000);
  assert_op_times (rec, 9, 200000, 200000, 290000);
}

/* A second thread's first call that began inside one of the first
 * thread's calls: test_inside_async's launches, the fourth made by a second
 * thread at 100-200 us, while the third (70-170) ran. The second thread's
 * block goes before the third call, at its beginning (70), and opens with
 * the host time up to its own first call: 100 - 70 = 30 us. Each thread's
 * host time is its own: the fourth call's kernel started at 210, after it
 * returned, so its 95 us beyond the usual 5 are set-up before it (100-195),
 * all of them; the third call's 95 us of set-up stay the first thread's,
 * after the block, which stands where that call began: no gap between. */
static void
test_inside_threads (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = inside_launches (
    "call\t2\tcudaLaunchKernel\t1000100000\t1000200000\t5\t0xa1\t0x0\t1\t32\t0\n");
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=10.000us loads label=k\n"
                            "host 25.000us\n"
                            "kernel s1 grid=1 block=32 time=10.000us label=k\n"
                            "host 25.000us\n"
                            "thread t2\n"
                            "  host 30.000us\n"
                            "  host 95.000us\n"
                            "  kernel s1 grid=1 block=32 time=10.000us label=k\n"
                            "end\n"
                            "host 95.000us\n"
                            "kernel s1 grid=1 block=32 time=8.000us label=k\n");
  g_assert_nonnull (strstr (rec->text, "  host 30.000us   # up to this thread's first call, which "
                                       "began inside thread 1's cudaLaunchKernel"));
  g_assert_nonnull (strstr (rec->text, "Calls came from 2 host threads"));
  /* measured, ns from the first launch's call at 10 us: the block starts
   * (op 4) where the third call began, 70; the second thread's set-up
   * 100-195 and its kernel issued at 195 (GPU 210-220); the third call's
   * set-up 70-165 and its kernel issued at 165 (GPU 172-180) */
  g_assert_cmpuint (rec->n_ops, ==, 10);
  assert_op_times (rec, 4, 60000, 60000, 60000);
  assert_op_times (rec, 5, 60000, 60000, 90000);
  assert_op_times (rec, 6, 90000, 90000, 185000);
  assert_op_times (rec, 7, 185000, 200000, 210000);
  assert_op_times (rec, 8, 60000, 60000, 155000);
  assert_op_times (rec, 9, 155000, 162000, 170000);
  g_autoptr (Schedule) sched = schedule_parse_text ("rec.sched", rec->text, strlen (rec->text),
                                                    NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_threads (sched), ==, 2);
  g_assert_cmpint (schedule_op (sched, 4)->kind, ==, SCHED_OP_SPAWN);
  for (guint op = 0; op < 10; op++)
    g_assert_cmpuint (schedule_op_thread (sched, op), ==, op >= 5 && op <= 7);
}

/* Two host threads, the second begun in a host gap of the first. Calls
 * (enter-exit, us after T0), correlation:
 *   thread 1  cudaStreamCreate s1 (0xa1)       0-1    1
 *   thread 1  cudaLaunchKernel s1              10-15  2   GPU 20-50
 *   thread 2  cudaSetDevice                    25-26  3   its first call
 *   thread 2  cudaStreamCreate s2 (0xa2)       27-28  4
 *   thread 1  cudaStreamSynchronize s1         30-51  5
 *   thread 2  cudaMemcpyAsync H2D 1 MiB s2     40-44  6   GPU 45-65, pinned
 *   thread 2  cudaLaunchKernel_ptsz, stream 0  45-46  7   GPU 70-80: thread 2's
 *                                                        per-thread default stream
 *   thread 2  cudaStreamSynchronize s2         47-66  8
 * Worked out by hand: time 0 is the first op's call, the launch at 10.
 * Thread 1 stands at the top level: its kernel (30 us; the first launch of
 * k, alone in its group: `loads`), then the gap 15-30 split where thread 2
 * began, at 25: host 10 us before the block, 5 us after it, then its sync.
 * Thread 2's block starts at 25; its streams are declared before the
 * block (the per-thread one named for it); from 25 to its copy's call at
 * 40 is 15 us of host time (the set-device and stream-create calls in
 * it); its gaps 44-45 and 46-47 add up to 2 us, the minimum, a `host`
 * before its sync. Both syncs return 1 us after the work they wait for
 * (50, 65): the usual, no host time inside them. The launches and the copy
 * are alone in their groups, their work started after they returned: no
 * host time inside them either. */
static const char *threads_log =
  "streamsim-record\t1\n"
  "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
  "call\t1\tcudaLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t1\t32\t0\n"
  "call\t2\tcudaSetDevice\t1000025000\t1000026000\t3\t0x0\t0x0\t0\t0\t0\n"
  "call\t2\tcudaStreamCreate\t1000027000\t1000028000\t4\t0xa2\t0x0\t0\t0\t0\n"
  "call\t1\tcudaStreamSynchronize\t1000030000\t1000051000\t5\t0xa1\t0x0\t0\t0\t0\n"
  "call\t2\tcudaMemcpyAsync\t1000040000\t1000044000\t6\t0xa2\t0x0\t1048576\t1\t0\n"
  "call\t2\tcudaLaunchKernel_ptsz\t1000045000\t1000046000\t7\t0x0\t0x0\t1\t32\t0\n"
  "call\t2\tcudaStreamSynchronize\t1000047000\t1000066000\t8\t0xa2\t0x0\t0\t0\t0\n"
  "kernel\t2\t1000020000\t1000050000\t1\t32\t0\t0\tk\n"
  "copy\t6\t0\t1000045000\t1000065000\t1048576\t1\t2\t3\n"
  "kernel\t7\t1000070000\t1000080000\t1\t32\t0\t0\tk\n"
  "end\t8\t3\n";

/* Two threads taking turns: thread 2's calls (20-21, 22-23) all fall in a
 * gap of thread 1's (3-30), and thread 1 makes none during them, as a main
 * thread waiting outside CUDA for a worker does. Worked out by hand: no call
 * of either was under way while the other's was, so both stand at the top
 * level, in the order they began, and the schedule has one thread. */
static void
test_threads_taking_turns (void)
{
  static const char *log =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000002000\t1000003000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "call\t2\tcudaLaunchKernel\t1000020000\t1000021000\t3\t0xa1\t0x0\t1\t32\t0\n"
    "call\t2\tcudaLaunchKernel\t1000022000\t1000023000\t4\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000030000\t1000061000\t5\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000004000\t1000014000\t1\t32\t0\t0\tk\n"
    "kernel\t3\t1000024000\t1000034000\t1\t32\t0\t0\tk\n"
    "kernel\t4\t1000044000\t1000060000\t1\t32\t0\t0\tk\n"
    "end\t5\t3\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordSchedule) rec = convert (log, 2000, 0);
  g_assert_null (strstr (rec->text, "\nthread "));
  g_assert_nonnull (strstr (rec->text, "# Calls came from 2 host threads, which took turns: "
                                       "none called while another thread's call was under way"));
  g_autoptr (Schedule) sched = schedule_parse_text ("rec.sched", rec->text, strlen (rec->text),
                                                    NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_threads (sched), ==, 1);
  g_assert_cmpuint (schedule_n_ops (sched), >=, 4);
}

static void
test_threads (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordSchedule) rec = convert (threads_log, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=30.000us loads label=k\n"
                            "host 10.000us\n"
                            "stream s2\n"
                            "stream per_thread_t2\n"
                            "thread t2\n"
                            "  host 15.000us\n"
                            "  h2d s2 1MiB\n"
                            "  kernel per_thread_t2 grid=1 block=32 time=10.000us label=k\n"
                            "  host 2.000us\n"
                            "  sync s2\n"
                            "end\n"
                            "host 5.000us\n"
                            "sync s1\n");
  g_assert_nonnull (strstr (rec->text, "\nhost 10.000us   # until thread t2 began\n"));
  g_assert_nonnull (strstr (rec->text, "# Calls came from 2 host threads. 1 of them called "
                                       "while another thread's call was under way: each is a "
                                       "`thread` block"));
  g_assert_cmpuint (rec->n_threads, ==, 2);
  /* The measured times, ns from the launch's call at 10 us:
   * op  statement          issue   start   end
   * 0   kernel s1          0       10000   40000    (GPU 20-50)
   * 1   host (thread 1)    5000    5000    15000    (15-25)
   * 2   thread t2          15000   15000   15000    (at 25; no profile: no cost)
   * 3   host               15000   15000   30000    (25-40)
   * 4   h2d s2             30000   35000   55000    (GPU 45-65)
   * 5   kernel             35000   60000   70000    (GPU 70-80)
   * 6   host               35000   35000   37000    (the two gaps, up to 47)
   * 7   sync s2            37000   37000   56000    (the call, 47-66)
   * 8   host (thread 1)    15000   15000   20000    (25-30)
   * 9   sync s1            20000   20000   41000    (the call, 30-51) */
  g_assert_cmpuint (rec->n_ops, ==, 10);
  const SimTime issue[] = { 0, 5000, 15000, 15000, 30000, 35000, 35000, 37000, 15000, 20000 };
  const SimTime start[] = { 10000, 5000, 15000, 15000, 35000, 60000, 35000, 37000, 15000, 20000 };
  const SimTime end[] = { 40000, 15000, 15000, 30000, 55000, 70000, 37000, 56000, 20000, 41000 };
  for (guint i = 0; i < 10; i++)
    assert_op_times (rec, i, issue[i], start[i], end[i]);

  /* The text parses back: the block's five lines are thread t2's ops, the
   * rest the top level's. */
  g_autoptr (Schedule) sched = schedule_parse_text ("rec.sched", rec->text, strlen (rec->text),
                                                    NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 10);
  g_assert_cmpuint (schedule_n_threads (sched), ==, 2);
  g_assert_cmpstr (schedule_thread_name (sched, 1), ==, "t2");
  g_assert_cmpint (schedule_op (sched, 2)->kind, ==, SCHED_OP_SPAWN);
  g_assert_cmpuint (schedule_op (sched, 2)->u.thread, ==, 1);
  for (guint op = 0; op < 10; op++)
    g_assert_cmpuint (schedule_op_thread (sched, op), ==, op >= 3 && op <= 7);
}

/* test_threads' log recorded on a GPU whose profile charges a `thread`
 * block 3 us to the thread that reaches it (thread_create) and starts the
 * new thread 5 us after it (thread_start): the block is reached at 20, so
 * that thread 2's first line runs where its first call began (25), and
 * the top level goes on at 23, its host time up to the sync 7 us (30 -
 * 23). The rest as in test_threads: tests/profiles/ops.ini charges nothing
 * else that its calls show. */
static void
test_threads_costs (void)
{
  g_autoptr (GError) error = NULL;
  GpuProfile ops = { 0 };
  g_assert_true (profile_load ("ops", &ops, &error));
  ops.host_thread_create = 3000;
  ops.host_thread_start = 5000;
  g_autoptr (RecordLog) log = parse (threads_log, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = 2000, .profile = &ops };
  g_autoptr (RecordSchedule) rec = record_schedule_build (log, &opt, &error);
  g_assert_no_error (error);
  gpu_profile_clear (&ops);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=30.000us loads label=k\n"
                            "host 5.000us\n"
                            "stream s2\n"
                            "stream per_thread_t2\n"
                            "thread t2\n"
                            "  host 15.000us\n"
                            "  h2d s2 1MiB\n"
                            "  kernel per_thread_t2 grid=1 block=32 time=10.000us label=k\n"
                            "  host 2.000us\n"
                            "  sync s2\n"
                            "end\n"
                            "host 7.000us\n"
                            "sync s1\n");
  g_assert_nonnull (strstr (rec->text, "\nhost 5.000us   # until thread t2 began, less the "
                                       "profile's thread_start\n"));
  /* ns from 10 us: the top level's host 15-20, the block reached at 20 and
   * left at 23, the top level's host 23-30 */
  assert_op_times (rec, 1, 5000, 5000, 10000);
  assert_op_times (rec, 2, 10000, 10000, 13000);
  assert_op_times (rec, 3, 15000, 15000, 30000);
  assert_op_times (rec, 8, 13000, 13000, 20000);

  /* test_inside_threads' log on that GPU (loading a kernel's code charged
   * nothing more, as there without a profile): the block is reached 3 us
   * before the third call began (70), at 67, after 22 us of the first
   * thread's host time since 45; its first line runs at 72, and the host
   * time up to its first call (100) is 28 us. */
  g_assert_true (profile_load ("ops", &ops, &error));
  ops.host_thread_create = 3000;
  ops.host_thread_start = 5000;
  ops.host_kernel_load = 0;
  g_autofree char *text = inside_launches (
    "call\t2\tcudaLaunchKernel\t1000100000\t1000200000\t5\t0xa1\t0x0\t1\t32\t0\n");
  g_autoptr (RecordLog) inside = parse (text, &error);
  g_assert_no_error (error);
  g_autoptr (RecordSchedule) second = record_schedule_build (inside, &opt, &error);
  g_assert_no_error (error);
  gpu_profile_clear (&ops);
  g_autofree char *statements = schedule_text_statements (second->text);
  g_assert_cmpstr (statements, ==, "stream s1\n"
                                   "kernel s1 grid=1 block=32 time=10.000us loads label=k\n"
                                   "host 25.000us\n"
                                   "kernel s1 grid=1 block=32 time=10.000us label=k\n"
                                   "host 22.000us\n"
                                   "thread t2\n"
                                   "  host 28.000us\n"
                                   "  host 95.000us\n"
                                   "  kernel s1 grid=1 block=32 time=10.000us label=k\n"
                                   "end\n"
                                   "host 95.000us\n"
                                   "kernel s1 grid=1 block=32 time=8.000us label=k\n");
  assert_op_times (second, 3, 35000, 35000, 57000);
  assert_op_times (second, 4, 57000, 57000, 60000);
  assert_op_times (second, 5, 62000, 62000, 90000);
  assert_op_times (second, 8, 60000, 60000, 155000);
}

/* The only launch of a program (us after T0: call 0-3700, its kernel
 * 115-295) has no other launch to show its usual time; of it, what the
 * call still ran after its kernel had started, 3700 - 115 = 3585 us, is
 * host work after it (the model returns a launch before its kernel can
 * start). The device synchronize after it (3701-3710) waited for nothing:
 * the kernel had ended, so the 1 us before its call is host time no wait
 * absorbs, kept though under the minimum. The launch is its kernel's
 * first, with nothing to compare it with: `loads`. */
static void
test_inside_alone (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1003700000\t1\t0x0\t0x0\t4096\t256\t0\n"
    "call\t1\tcudaDeviceSynchronize\t1003701000\t1003710000\t2\t0x0\t0x0\t0\t0\t0\n"
    "kernel\t1\t1000115000\t1000295000\t4096\t256\t0\t16\t_Z12vectorAddGPUPfS_S_i\n"
    "end\t2\t1\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "kernel default grid=4096 block=256 regs=16 time=180.000us "
                            "loads label=vectorAddGPU\n"
                            "host 3585.000us\n"
                            "host 1.000us\n"
                            "sync device\n");
  g_assert_nonnull (strstr (rec->text, "its only call of the kind"));
  assert_op_times (rec, 1, 115000, 115000, 3700000);
}

/* Blocking copies (us after T0): three cudaMemcpy of 800 B from pageable
 * memory, H2D, and one of 64 KiB to pageable memory, D2H:
 *   call 0-3500,    GPU 17-18:      returned 3482 us after its copy ended
 *   call 3510-3526, GPU 3525-3527:  1 us before its copy ended
 *   call 3530-3546, GPU 3545-3547:  1 us before
 *   call 3550-3700, GPU 3560-3600:  D2H, 100 us after
 * Pageable H2D copies usually return before their copy ends (the lower
 * median of -1, -1, 3482 is -1), so all of the first one's 3482 us after
 * its copy is host work after it, and its op ends for the host at 18 us.
 * A pageable D2H ends with the host copying out of the staging buffer,
 * which its rate covers: it stays whole. */
static void
test_inside_blocking_copy (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaMemcpy\t1000000000\t1003500000\t1\t0x0\t0x0\t800\t1\t0\n"
    "call\t1\tcudaMemcpy\t1003510000\t1003526000\t2\t0x0\t0x0\t800\t1\t0\n"
    "call\t1\tcudaMemcpy\t1003530000\t1003546000\t3\t0x0\t0x0\t800\t1\t0\n"
    "call\t1\tcudaMemcpy\t1003550000\t1003700000\t4\t0x0\t0x0\t65536\t2\t0\n"
    "copy\t1\t0\t1000017000\t1000018000\t800\t1\t1\t3\n"
    "copy\t2\t0\t1003525000\t1003527000\t800\t1\t1\t3\n"
    "copy\t3\t0\t1003545000\t1003547000\t800\t1\t1\t3\n"
    "copy\t4\t0\t1003560000\t1003600000\t65536\t2\t3\t1\n"
    "end\t4\t4\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "memcpy h2d 800B pageable\n"
                            "host 3482.000us\n"
                            "host 10.000us\n"
                            "memcpy h2d 800B pageable\n"
                            "host 4.000us\n"
                            "memcpy h2d 800B pageable\n"
                            "host 4.000us\n"
                            "memcpy d2h 64KiB pageable\n");
  g_assert_nonnull (strstr (rec->text, "host 3482.000us   # inside cudaMemcpy, which took "
                                       "3500.000us: host work after the GPU work it waited for "
                                       "had ended (calls like it usually return by then)"));
  assert_op_times (rec, 0, 0, 17000, 18000);
  assert_op_times (rec, 1, 18000, 18000, 3500000);
  assert_op_times (rec, 3, 3510000, 3525000, 3527000);
  assert_op_times (rec, 7, 3550000, 3560000, 3700000);
}

/* Synchronizes (us after T0): three rounds of a launch into s1 and a
 * cudaStreamSynchronize of s1:
 *   launch 10-15 GPU 20-100,   sync 16-103:  returned 3 us after the kernel
 *   launch 110-115 GPU 120-200, sync 116-250: 50 us after
 *   launch 260-265 GPU 270-300, sync 266-304: 4 us after
 * The usual return is the lower median of 3, 4, 50: 4 us; the second took
 * 46 us more, host work after it, and it ends for the host at 204 us. The
 * gaps of 1 us between each launch and its sync are left out: each sync
 * waits for the GPU. The first launch, k's first, took the usual 5 us,
 * enough without a profile: `loads`. */
static void
test_inside_sync (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000016000\t1000103000\t3\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000110000\t1000115000\t4\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000116000\t1000250000\t5\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000260000\t1000265000\t6\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000266000\t1000304000\t7\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000020000\t1000100000\t1\t32\t0\t0\tk\n"
    "kernel\t4\t1000120000\t1000200000\t1\t32\t0\t0\tk\n"
    "kernel\t6\t1000270000\t1000300000\t1\t32\t0\t0\tk\n"
    "end\t7\t3\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=80.000us loads label=k\n"
                            "sync s1\n"
                            "host 7.000us\n"
                            "kernel s1 grid=1 block=32 time=80.000us label=k\n"
                            "sync s1\n"
                            "host 46.000us\n"
                            "host 10.000us\n"
                            "kernel s1 grid=1 block=32 time=30.000us label=k\n"
                            "sync s1\n");
  g_assert_nonnull (strstr (rec->text, "host 46.000us   # inside cudaStreamSynchronize, which "
                                       "took 134.000us: host work after the GPU work it waited "
                                       "for had ended, beyond the usual 4.000us after it"));
  /* measured, ns from the first launch at 10 us: the second sync and the
   * host work after it */
  assert_op_times (rec, 4, 106000, 106000, 194000);
  assert_op_times (rec, 5, 194000, 194000, 240000);
}

/* Frees (us after T0): a launch 10-15 whose kernel runs 20-100, then
 *   cudaFree 16-104: on for 4 us after the GPU went idle at 100
 *   cudaFree 110-111.5: the GPU idle all along, 1.5 us
 *   cudaFree 113-113.4: 0.4 us
 * What each did with the GPU idle is host work after its `sync device`,
 * written though under the minimum: 4, 1.5 and 0.4 us. The 6 us from the
 * first free's return to the second's call is a gap of its own; the 1.5 us
 * after the second is under the minimum, but kept: the third free finds
 * the device idle, so no wait absorbs it. */
static void
test_inside_free (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaFree\t1000016000\t1000104000\t3\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaFree\t1000110000\t1000111500\t4\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaFree\t1000113000\t1000113400\t5\t0x0\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000020000\t1000100000\t1\t32\t0\t0\tk\n"
    "end\t5\t1\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=80.000us loads label=k\n"
                            "sync device\n"
                            "host 4.000us\n"
                            "host 6.000us\n"
                            "sync device\n"
                            "host 1.500us\n"
                            "host 1.500us\n"
                            "sync device\n"
                            "host 0.400us\n");
  g_assert_nonnull (strstr (rec->text, "host 1.500us   # inside cudaFree, which took 1.500us "
                                       "(host work after the GPU was idle, beyond the "
                                       "profile's synchronize)"));
  /* the first free ends for the host where the GPU went idle: 100 us, 90
   * after the launch at 10 */
  assert_op_times (rec, 1, 6000, 6000, 90000);

  /* Recorded with a profile (tests/profiles/schematic-sync: a synchronize
   * returns 2 us after what it waits for, 0.5 us when it finds nothing),
   * each free's `sync device` is charged that, so its host work is what it
   * took beyond: 4 - 2 = 2 us, 1.5 - 0.5 = 1 us, and none for the third
   * (0.4 < 0.5); the first free's sync ends for the host at 102 us, 92 after
   * the launch. */
  GpuProfile sync_profile = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (profile_load ("schematic-sync", &sync_profile, &error));
  g_autoptr (RecordLog) log = parse (text, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = 2000, .profile = &sync_profile };
  g_autoptr (RecordSchedule) charged = record_schedule_build (log, &opt, &error);
  g_assert_no_error (error);
  g_autofree char *statements = schedule_text_statements (charged->text);
  g_assert_nonnull (strstr (statements, "sync device\nhost 2.000us\nhost 6.000us\nsync device\n"
                                        "host 1.000us\nhost 1.500us\nsync device\n"));
  g_assert_true (g_str_has_suffix (statements, "host 1.500us\nsync device\n"));
  assert_op_times (charged, 1, 6000, 6000, 92000);
  gpu_profile_clear (&sync_profile);
}

/* Stream-ordered allocation (us after T0): a launch 10-15 whose kernel runs
 * 20-30, cudaMallocAsync 40-43 and cudaFreeAsync 50-52 in s1 with no GPU
 * work of their own, then cudaMallocAsync 60-61 whose (made-up) memset
 * record 62-63 is GPU work. The first two are comments, not `not
 * modelled`, and their host time is in the gap from the launch's return at
 * 15 us to the sync's call at 70: 55 us; the third is not modelled. */
static void
test_stream_alloc (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaMallocAsync\t1000040000\t1000043000\t3\t0xa1\t0x0\t4096\t0\t0\n"
    "call\t1\tcudaFreeAsync\t1000050000\t1000052000\t4\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaMallocAsync\t1000060000\t1000061000\t5\t0xa1\t0x0\t4096\t0\t0\n"
    "call\t1\tcudaStreamSynchronize\t1000070000\t1000071000\t6\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000020000\t1000030000\t1\t32\t0\t0\tk\n"
    "memset\t5\t1000062000\t1000063000\t4096\t0\t3\n"
    "end\t6\t2\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=1 block=32 time=10.000us loads label=k\n"
                            "host 55.000us\n"
                            "sync s1\n");
  g_assert_nonnull (strstr (rec->text, "# cudaMallocAsync: stream-ordered allocation, no GPU work "
                                       "of its own; its host time is in the gaps"));
  g_assert_nonnull (strstr (rec->text, "# cudaFreeAsync: stream-ordered allocation"));
  g_assert_nonnull (strstr (rec->text, "# not modelled: cudaMallocAsync (its GPU work is missing "
                                       "from predictions)"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
}

/* A launch the model charges more than the others of its group: one that
 * loads its kernel's code, charged kernel_load (record_inside.h). Calls
 * given directly (times in ns), modelled on dcgan's first launch of a
 * cuDNN kernel on the H100 (23.2 us against the usual 6.0, kernel_load 9.1):
 * three launches of 6, the loading one of 23 whose kernel started 30 after
 * its call began. Its usual is 6 + 9 = 15: 8 more, at least the minimum of
 * 2, is host time although it is not twice 15; all of it before the kernel
 * (30 - 15 = 15 >= 8). The same call charged nothing is over twice the usual
 * 6: 17 of host time, 17 before (30 - 6 = 24 >= 17). And one that took 2 more
 * than 6 + 9 is host time too, 1 more is under the minimum. */
static void
test_inside_charged (void)
{
  for (guint charged = 0; charged <= 9; charged += 9)
    {
      const InsideCall calls[] = {
        { .kind = INSIDE_ASYNC, .group = "launch", .enter = 0, .exit = 6 },
        { .kind = INSIDE_ASYNC, .group = "launch", .enter = 10, .exit = 16 },
        { .kind = INSIDE_ASYNC, .group = "launch", .enter = 20, .exit = 26 },
        { .kind = INSIDE_ASYNC, .group = "launch", .enter = 100, .exit = 123, .timed = TRUE,
          .start = 130, .end = 140, .charged = charged },
        { .kind = INSIDE_ASYNC, .group = "launch", .enter = 200, .exit = 217, .charged = 9 },
        { .kind = INSIDE_ASYNC, .group = "launch", .enter = 300, .exit = 316, .charged = 9 },
      };
      g_autofree InsideHost *host = record_inside_find (calls, G_N_ELEMENTS (calls), 2);
      /* the group's usual, whatever the charge: the lower median of 6, 6, 6, 16, 17, 23 */
      g_autofree gint64 *usual = record_inside_usual (calls, G_N_ELEMENTS (calls));
      for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
        g_assert_cmpint (usual[i], ==, 6);
      g_assert_cmpuint (host[3].usual, ==, 6 + charged);
      g_assert_cmpuint (host[3].before, ==, charged > 0 ? 8 : 17);
      g_assert_cmpuint (host[3].after, ==, 0);
      g_assert_cmpuint (host[4].after, ==, 2);
      g_assert_cmpuint (host[5].after, ==, 0);
    }
}

/* What each synchronize waited for, on calls given directly (times in ns):
 * a kernel in a blocking stream A (GPU 0-100), one in a nonblocking stream
 * B (0-1000), event E recorded in A; then
 *   sync of the legacy stream, 10-130: waits for A (blocking), not B: 100,
 *     so 30 after; the other stream sync (1020-1023, after everything: 3)
 *     makes the usual 3, and 27 is host time;
 *   sync of E, 140-150: E was recorded after A's kernel: 100, so 10 after
 *     its call; E recorded again in B (1000), synced at 1032-1036: 4; the
 *     usual 4, so 6 is host time;
 *   device sync, 160-1010: everything, 1000, so 10 after; another at
 *     1040-1043: 3; the usual 3, so 7;
 *   a free, 1050-1060: everything ended at 1000, so all 10 are host time. */
static void
test_inside_waits (void)
{
  const guint64 A = 0xa, B = 0xb, E = 0xe;
  const InsideCall calls[] = {
    { .kind = INSIDE_ASYNC, .group = "launch", .enter = 0, .exit = 1, .stream = A, .timed = TRUE,
      .start = 0, .end = 100 },
    { .kind = INSIDE_ASYNC, .group = "launch", .enter = 2, .exit = 3, .stream = B,
      .nonblocking = TRUE, .timed = TRUE, .start = 0, .end = 1000 },
    { .kind = INSIDE_ASYNC, .group = "record", .enter = 4, .exit = 5, .stream = A, .event = E,
      .records = TRUE },
    { .kind = INSIDE_BLOCKING, .waits = INSIDE_WAITS_STREAM, .group = "stream sync", .enter = 10,
      .exit = 130, .stream = INSIDE_STREAM_LEGACY },
    { .kind = INSIDE_BLOCKING, .waits = INSIDE_WAITS_EVENT, .group = "event sync", .enter = 140,
      .exit = 150, .event = E },
    { .kind = INSIDE_BLOCKING, .waits = INSIDE_WAITS_DEVICE, .group = "device sync", .enter = 160,
      .exit = 1010 },
    { .kind = INSIDE_BLOCKING, .waits = INSIDE_WAITS_STREAM, .group = "stream sync", .enter = 1020,
      .exit = 1023, .stream = B, .nonblocking = TRUE },
    { .kind = INSIDE_ASYNC, .group = "record", .enter = 1030, .exit = 1031, .stream = B,
      .nonblocking = TRUE, .event = E, .records = TRUE },
    { .kind = INSIDE_BLOCKING, .waits = INSIDE_WAITS_EVENT, .group = "event sync", .enter = 1032,
      .exit = 1036, .event = E },
    { .kind = INSIDE_BLOCKING, .waits = INSIDE_WAITS_DEVICE, .group = "device sync", .enter = 1040,
      .exit = 1043 },
    { .kind = INSIDE_FREE, .group = "free", .enter = 1050, .exit = 1060 },
  };
  g_autofree InsideHost *host = record_inside_find (calls, G_N_ELEMENTS (calls), 2);
  const guint64 after[] = { 0, 0, 0, 27, 6, 7, 0, 0, 0, 0, 10 };
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_assert_cmpuint (host[i].before, ==, 0);
      g_assert_cmpuint (host[i].after, ==, after[i]);
    }
  g_assert_cmpuint (host[3].usual, ==, 3);
}

/* A driver copy of 0 bytes (XLA makes thousands): its log line keeps its
 * kind (3, device to device) and no bytes, and CUPTI has no record of it:
 * host time, where a line with neither (an older recorder's) is a copy of
 * unknown size, not modelled. Calls (us after T0): cuLaunchKernel s1
 * 10-15, GPU 20-30; cuMemcpyDtoDAsync_v2 s1 40-41; cuStreamSynchronize s1
 * 50-51. Host gap 15-50, the copy's call in it: 35 us. */
static void
test_driver_copy_empty (void)
{
  const char *head =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcuLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t4\t128\t0\n";
  const char *tail =
    "call\t1\tcuStreamSynchronize\t1000050000\t1000051000\t4\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000020000\t1000030000\t4\t128\t0\t40\tk\n"
    "end\t4\t1\n";
  g_autofree char *empty = g_strconcat (head, "call\t1\tcuMemcpyDtoDAsync_v2\t1000040000\t"
                                        "1000041000\t3\t0xa1\t0x0\t0\t3\t0\n", tail, NULL);
  g_autoptr (RecordSchedule) rec = convert (empty, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=4 block=128 regs=40 time=10.000us label=k\n"
                            "host 35.000us\n"
                            "sync s1\n");
  g_assert_nonnull (strstr (rec->text, "# cuMemcpyDtoDAsync_v2 of 0 bytes: no GPU work"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 0);

  g_autofree char *unknown = g_strconcat (head, "call\t1\tcuMemcpyDtoDAsync_v2\t1000040000\t"
                                          "1000041000\t3\t0xa1\t0x0\t0\t0\t0\n", tail, NULL);
  g_autoptr (RecordSchedule) old = convert (unknown, 2000, 0);
  g_assert_nonnull (strstr (old->text, "# not modelled: cuMemcpyDtoDAsync_v2 (no CUPTI record, and "
                                       "the log keeps no size for it)"));
  g_assert_cmpuint (old->n_not_modelled, ==, 1);
}

/* The driver API's calls, logged outside any runtime call (us after T0):
 *   cuLaunchKernel s1 10-15, GPU 20-30 (CUPTI: 512 B smem, 40 regs)
 *   cuMemcpyHtoD_v2 40-60: the log keeps no size or direction; CUPTI's
 *     record: 4096 B, H2D, from pageable memory, GPU 45-55
 *   cuMemcpyDtoHAsync_v2 s1 70-72, 1 KiB into pinned memory
 *   cuMemsetD32Async s1 73-74, 4 KiB of device memory, GPU 82-83: a memset
 *   cuEventRecord e1 s1 75-76, cuStreamWaitEvent default e1 77-78
 *   cuStreamSynchronize s1 80-90
 *   cuMemcpyHtoD_v2 100-101 without a CUPTI record: no size, a comment
 *   cuLaunchKernel_ptsz on stream 0 (the per-thread stream) 110-112, GPU 115-116
 *   cuEventSynchronize e1 120-121, cuCtxSynchronize 130-131
 *   cuLaunchHostFunc s1 132-133: a host function, with no later work in its
 *     stream to show when it ran: TIME 0, its row where s1 reached it (133:
 *     no profile, so no wake-up)
 * Host gaps: 25, 10, 1 + 1 (added up, 2), 1 (left out), 2, 20, 8 and 9 us. */
static void
test_driver_calls (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1000000000\t1000001000\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcuLaunchKernel\t1000010000\t1000015000\t2\t0xa1\t0x0\t4\t128\t0\n"
    "call\t1\tcuMemcpyHtoD_v2\t1000040000\t1000060000\t3\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcuMemcpyDtoHAsync_v2\t1000070000\t1000072000\t4\t0xa1\t0x0\t1024\t2\t0\n"
    "call\t1\tcuMemsetD32Async\t1000073000\t1000074000\t5\t0xa1\t0x0\t4096\t0\t0\n"
    "call\t1\tcuEventRecord\t1000075000\t1000076000\t6\t0xa1\t0xe1\t0\t0\t0\n"
    "call\t1\tcuStreamWaitEvent\t1000077000\t1000078000\t7\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcuStreamSynchronize\t1000080000\t1000090000\t8\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcuMemcpyHtoD_v2\t1000100000\t1000101000\t9\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcuLaunchKernel_ptsz\t1000110000\t1000112000\t10\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcuEventSynchronize\t1000120000\t1000121000\t11\t0x0\t0xe1\t0\t0\t0\n"
    "call\t1\tcuCtxSynchronize\t1000130000\t1000131000\t12\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcuLaunchHostFunc\t1000132000\t1000133000\t13\t0xa1\t0x0\t0\t0\t0\n"
    "kernel\t2\t1000020000\t1000030000\t4\t128\t512\t40\t_Z4gemmPf\n"
    "copy\t3\t0\t1000045000\t1000055000\t4096\t1\t1\t3\n"
    "copy\t4\t0\t1000080000\t1000081000\t1024\t2\t3\t2\n"
    "memset\t5\t1000082000\t1000083000\t4096\t0\t3\n"
    "kernel\t10\t1000115000\t1000116000\t1\t32\t0\t0\tk\n"
    "end\t13\t5\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "kernel s1 grid=4 block=128 smem=512B regs=40 time=10.000us label=gemm\n"
                            "host 25.000us\n"
                            "memcpy h2d 4KiB pageable\n"
                            "host 10.000us\n"
                            "d2h s1 1KiB\n"
                            "memset s1 4KiB\n"
                            "host 2.000us\n"
                            "record e1 s1\n"
                            "wait default e1\n"
                            "host 2.000us\n"
                            "sync s1\n"
                            "host 20.000us\n"
                            "stream per_thread\n"
                            "kernel per_thread grid=1 block=32 time=1.000us label=k\n"
                            "host 8.000us\n"
                            "sync e1\n"
                            "host 9.000us\n"
                            "sync device\n"
                            "hostfn s1 0.000us\n");
  g_assert_nonnull (strstr (rec->text, "# not modelled: cuMemcpyHtoD_v2 (no CUPTI record, and the "
                                       "log keeps no size for it)"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
  g_assert_cmpuint (rec->n_ops, ==, 18);
  assert_op_times (rec, 5, 63000, 72000, 73000);
  assert_op_times (rec, 17, 122000, 123000, 123000);
  /* the blocking driver copy's measured times: CUPTI's start, the call's return */
  assert_op_times (rec, 2, 30000, 35000, 50000);
}

/* A launch of 4 us into the legacy stream at `enter` ns after T0, and its
 * one-block kernel of 1 us a microsecond after the call returned, as log
 * lines: the call goes to `calls`, the kernel to `kernels` (the log lists
 * the kernels after the calls). */
static void
append_launch (GString *calls, GString *kernels, guint64 enter, guint id)
{
  g_string_append_printf (calls, "call\t1\tcudaLaunchKernel\t%" G_GUINT64_FORMAT "\t%"
                          G_GUINT64_FORMAT "\t%u\t0x0\t0x0\t1\t32\t0\n", (guint64) (T0 + enter),
                          (guint64) (T0 + enter + 4000), id);
  g_string_append_printf (kernels, "kernel\t%u\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT
                          "\t1\t32\t0\t0\tk\n", id, (guint64) (T0 + enter + 5000),
                          (guint64) (T0 + enter + 6000));
}

/* A call with no stream or work, `name` from `enter` to `exit` ns after T0. */
static void
append_call (GString *calls, const char *name, guint64 enter, guint64 exit, guint id)
{
  g_string_append_printf (calls, "call\t1\t%s\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT
                          "\t%u\t0x0\t0x0\t0\t0\t0\n", name, (guint64) (T0 + enter),
                          (guint64) (T0 + exit), id);
}

/* Short host gaps add up (us after T0): seven launches of 4 us each into
 * the legacy stream, 0.8 us apart, with a device synchronize (24-30)
 * after the fifth. Before the fourth launch the three gaps make 2.4 us, a
 * `host`; the fifth's gap and the sync's (1.6 us) are left out when the
 * sync waits for the GPU, and after it the two gaps make 1.6 us: left
 * out. Each kernel starts after its call returned and runs 1 us. */
static void
test_short_gaps (void)
{
  GString *log = g_string_new ("streamsim-record\t1\n");
  g_autoptr (GString) kernels = g_string_new (NULL);
  /* ns after T0 */
  const guint64 enter[] = { 0, 4800, 9600, 14400, 19200, 30800, 35600 };
  for (guint i = 0; i < 7; i++)
    append_launch (log, kernels, enter[i], i + 1);
  append_call (log, "cudaDeviceSynchronize", 24000, 30000, 8);
  g_string_append (log, kernels->str);
  g_string_append (log, "end\t8\t7\n");
  g_autofree char *text = g_string_free (log, FALSE);
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  const char *k = "kernel default grid=1 block=32 time=1.000us label=k\n";
  /* the first launch is k's first, and took the usual 4 us: `loads` */
  const char *first = "kernel default grid=1 block=32 time=1.000us loads label=k\n";
  g_autofree char *want = g_strconcat (first, k, k, "host 2.400us\n", k, k, "sync device\n", k, k,
                                       NULL);
  g_assert_cmpstr (got, ==, want);
  /* the added-up host time ends at the fourth launch's call, 14.4 us */
  assert_op_times (rec, 3, 12000, 12000, 14400);
}

/* --recorder-gap (RecordOptions' call_gap_ns, 0.5 us here; --min-host 1 us),
 * us after T0: launches (4 us calls, each kernel 1 us a microsecond after
 * its call returned) at 0, 7, 15, 22 and 26.2, and a cudaGetLastError at
 * 12-12.2. The gaps: 4-7 (one call began in it: 3 - 0.5 = 2.5 us), 11-15
 * (the cudaGetLastError and the launch: 4 - 1 = 3 us, its 0.2 us kept),
 * 19-22 (2.5 us), 26-26.2 (0.2 us, less than its 0.5: none). Without the
 * option, 3, 4 and 3 us, and 0.2 us left out under the minimum. */
static void
test_recorder_gap (void)
{
  GString *log = g_string_new ("streamsim-record\t1\n");
  g_autoptr (GString) kernels = g_string_new (NULL);
  const guint64 enter[] = { 0, 7000, 15000, 22000, 26200 };
  for (guint i = 0; i < 5; i++)
    {
      append_launch (log, kernels, enter[i], i + 1);
      if (i == 1)
        append_call (log, "cudaGetLastError", 12000, 12200, 9);
    }
  g_string_append (log, kernels->str);
  g_string_append (log, "end\t6\t5\n");
  g_autofree char *text = g_string_free (log, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) parsed = parse (text, &error);
  g_assert_no_error (error);
  const char *first = "kernel default grid=1 block=32 time=1.000us loads label=k\n";
  const char *k = "kernel default grid=1 block=32 time=1.000us label=k\n";
  for (guint gap = 0; gap <= 500; gap += 500)
    {
      RecordOptions opt = { .min_host_ns = 1000, .call_gap_ns = gap };
      g_autoptr (RecordSchedule) rec = record_schedule_build (parsed, &opt, &error);
      g_assert_no_error (error);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_autofree char *want
        = gap == 0 ? g_strconcat (first, "host 3.000us\n", k, "host 4.000us\n", k, "host 3.000us\n",
                                  k, k, NULL)
                   : g_strconcat (first, "host 2.500us\n", k, "host 3.000us\n", k, "host 2.500us\n",
                                  k, k, NULL);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpint (strstr (rec->text, "less the recorder's own time") != NULL, ==, gap > 0);
    }
}

static void
assert_log_error (const char *text, const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) log = parse (text, &error);
  g_assert_null (log);
  g_assert_error (error, RECORD_ERROR, RECORD_ERROR_PARSE);
  if (!g_str_has_prefix (error->message, expected))
    g_error ("expected a message starting \"%s\", got \"%s\"", expected, error->message);
}

static void
test_log_errors (void)
{
  assert_log_error ("", "test.log:1:1: empty");
  assert_log_error ("op,line\n", "test.log:1:1: not a streamsim recorder log");
  assert_log_error ("streamsim-record\t2\n", "test.log:1:18: log format 2");
  assert_log_error ("streamsim-record\t1\n"
                    "call\t1\tcudaMalloc\t10\t20\t1\tzz\t0x0\t0\t0\t0\n"
                    "end\t1\t0\n",
                    "test.log:2:27: expected a handle such as 0x7f3a00001000, found \"zz\"");
  assert_log_error ("streamsim-record\t1\n"
                    "call\t1\tcudaMalloc\t10\tx20\t1\t0x0\t0x0\t0\t0\t0\n"
                    "end\t1\t0\n",
                    "test.log:2:22: expected a whole number, found \"x20\"");
  assert_log_error ("streamsim-record\t1\n"
                    "call\t1\tcudaMalloc\t30\t20\t1\t0x0\t0x0\t0\t0\t0\n",
                    "test.log:2:22: the call returns (20) before it begins (30)");
  assert_log_error ("streamsim-record\t1\n"
                    "env\tCUDA_MODULE_LOADING\n",
                    "test.log:2:5: an env record needs 3 tab-separated fields, this line has 2");
  assert_log_error ("streamsim-record\t1\n"
                    "env\t\tEAGER\n",
                    "test.log:2:5: an env record needs the variable's name");
  assert_log_error ("streamsim-record\t1\n"
                    "kernel\t1\t10\t20\t1\t1\n",
                    "test.log:2:18: a kernel record needs 9 tab-separated fields, this line has 6");
  assert_log_error ("streamsim-record\t1\n"
                    "call\t1\tcudaMalloc\t10\t20\t1\t0x0\t0x0\t0\t0\t0\n",
                    "test.log:3:1: the log has no end line");
  assert_log_error ("streamsim-record\t1\n"
                    "end\t1\t0\n",
                    "test.log:2:5: the end line counts 1 calls");
  assert_log_error ("streamsim-record\t1\n"
                    "end\t0\t0\n"
                    "end\t0\t0\n",
                    "test.log:3:1: a record after the log's end line");
  assert_log_error ("streamsim-record\t1\n"
                    "buffer\t1\t0x10000000z\n",
                    "test.log:2:10: expected a whole number, found \"0x10000000z\"");
  assert_log_error ("streamsim-record\t1\n"
                    "buffer\t4294967296\t0x1000\n",
                    "test.log:2:8: a correlation id is a 32-bit number");
  assert_log_error ("streamsim-record\t1\n"
                    "buffer\t1\n",
                    "test.log:2:8: a buffer record needs 3 tab-separated fields, this line has 2");
  assert_log_error ("streamsim-record\t1\n"
                    "frob\n",
                    "test.log:2:1: unknown record \"frob\"");
  assert_log_error ("streamsim-record\t1\n\xff\n",
                    "test.log:2:1: invalid UTF-8; a recorder log is UTF-8 text");
}

/* Times past the middle of the 64-bit range (a damaged log), where the
 * host time inside a call has to be found without overflowing. The second
 * synchronize (10^18 to 9.3 * 10^18 ns) ran 8.3 * 10^18 ns after the GPU's
 * work (which ended at 40 ns), the first 10 ns: the usual is the lower
 * median, 10 ns, and the rest, 8.3 * 10^18 - 10 ns, is host time. */
static void
test_extreme_times (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaLaunchKernel\t10\t20\t1\t0x0\t0x0\t1\t32\t0\n"
    "call\t1\tcudaDeviceSynchronize\t40\t50\t2\t0x0\t0x0\t0\t0\t0\n"
    "call\t1\tcudaDeviceSynchronize\t1000000000000000000\t9300000000000000000\t3\t0x0\t0x0"
    "\t0\t0\t0\n"
    "kernel\t1\t30\t40\t1\t32\t0\t0\tk\n"
    "end\t3\t1\n";
  g_autoptr (RecordSchedule) rec = convert (text, 2000, 0);
  g_autofree char *got = schedule_text_statements (rec->text);
  /* the only launch: `loads` */
  g_assert_cmpstr (got, ==, "kernel default grid=1 block=32 time=0.010us loads label=k\n"
                            "sync device\n"
                            "host 999999999999999.950us\n"
                            "sync device\n"
                            "host 8299999999999999.990us\n");
}

/* A launch of no blocks cannot be a statement: the message names the log's line. */
static void
test_schedule_errors (void)
{
  const char *text =
    "streamsim-record\t1\n"
    "call\t1\tcudaLaunchKernel\t10\t20\t1\t0x0\t0x0\t0\t32\t0\n"
    "end\t1\t0\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) log = parse (text, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = 2000 };
  g_autoptr (RecordSchedule) rec = record_schedule_build (log, &opt, &error);
  g_assert_null (rec);
  g_assert_error (error, RECORD_ERROR, RECORD_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "test.log:2:1: cudaLaunchKernel with 0 blocks"));

  /* Past the language's own limits (CUDA's too: at most 1024 threads a
   * block), found by parsing the schedule back, named at the call's line. */
  const char *too_wide =
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1\t2\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t10\t20\t2\t0xa1\t0x0\t4\t2048\t0\n"
    "end\t2\t0\n";
  g_clear_error (&error);
  g_autoptr (RecordLog) wide = parse (too_wide, &error);
  g_assert_no_error (error);
  g_autoptr (RecordSchedule) none = record_schedule_build (wide, &opt, &error);
  g_assert_null (none);
  g_assert_error (error, RECORD_ERROR, RECORD_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "test.log:3:1: the schedule language cannot "
                                                   "express this call: block=2048"));

  /* A driver API blocking copy takes its direction from CUPTI's record
   * when the log has none: a host-to-host record (CUPTI's kind 9) gives it
   * none of the three, which is named at the call's line. */
  const char *host_to_host =
    "streamsim-record\t1\n"
    "call\t1\tcuMemcpy\t10\t20\t1\t0x0\t0x0\t0\t0\t0\n"
    "copy\t1\t0\t12\t18\t100\t9\t1\t1\n"
    "end\t1\t1\n";
  g_clear_error (&error);
  g_autoptr (RecordLog) hh = parse (host_to_host, &error);
  g_assert_no_error (error);
  g_autoptr (RecordSchedule) refused = record_schedule_build (hh, &opt, &error);
  g_assert_null (refused);
  g_assert_error (error, RECORD_ERROR, RECORD_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "test.log:2:1: cuMemcpy of 100 bytes with copy "
                                                   "kind 4, which is neither"));

  /* The same in a second thread's block: a call it cannot write, and a
   * statement the parser refuses, named at their calls' lines. */
  const char *in_thread[] = {
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1\t2\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t10\t20\t2\t0xa1\t0x0\t4\t32\t0\n"
    "call\t2\tcudaLaunchKernel\t30\t40\t3\t0xa1\t0x0\t0\t32\t0\n"
    "end\t3\t0\n",
    "streamsim-record\t1\n"
    "call\t1\tcudaStreamCreate\t1\t2\t1\t0xa1\t0x0\t0\t0\t0\n"
    "call\t1\tcudaLaunchKernel\t10\t20\t2\t0xa1\t0x0\t4\t32\t0\n"
    "call\t2\tcudaLaunchKernel\t30\t40\t3\t0xa1\t0x0\t4\t2048\t0\n"
    "end\t3\t0\n",
  };
  const char *why[] = { "test.log:4:1: cudaLaunchKernel with 0 blocks",
                        "test.log:4:1: the schedule language cannot express this call: block=2048" };
  for (guint i = 0; i < G_N_ELEMENTS (in_thread); i++)
    {
      g_clear_error (&error);
      g_autoptr (RecordLog) threads = parse (in_thread[i], &error);
      g_assert_no_error (error);
      g_autoptr (RecordSchedule) failed = record_schedule_build (threads, &opt, &error);
      g_assert_null (failed);
      g_assert_error (error, RECORD_ERROR, RECORD_ERROR_PARSE);
      g_assert_true (g_str_has_prefix (error->message, why[i]));
    }
}

/* Kernel names as profilers that demangle write them (Kineto, Nsight
 * Systems' demangledName): the label is the function's name with its scope
 * (at.native.vectorized_elementwise_kernel; the anonymous namespace left
 * out: softmax_warp_forward), without return type, template arguments or
 * parameters. Two launches of 1 us kernels, 10 us apart, one stream. */
static void
test_demangled_labels (void)
{
  const char *log =
    "streamsim-record\t1\n"
    "call\t1\tcudaLaunchKernel\t1000000000\t1000001000\t1\t0xa1\t0x0\t1\t32\t0\n"
    "call\t1\tcudaLaunchKernel\t1000010000\t1000011000\t2\t0xa1\t0x0\t1\t32\t0\n"
    "kernel\t1\t1000002000\t1000003000\t1\t32\t0\t16\tvoid at::native::vectorized_elementwise"
    "_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, "
    "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)\n"
    "kernel\t2\t1000012000\t1000013000\t1\t32\t0\t16\tvoid (anonymous namespace)::"
    "softmax_warp_forward<float, float, float, 9, false, false>(float*, float const*, int)\n"
    "end\t2\t2\n";
  g_autoptr (RecordSchedule) rec = convert (log, 2000, 0);
  g_assert_nonnull (strstr (rec->text, " label=at.native.vectorized_elementwise_kernel   #"));
  g_assert_nonnull (strstr (rec->text, " label=softmax_warp_forward   #"));
}

/* A conversion told where to begin (options.origin_ns: an importer's
 * traced region): the 30 us from there to the first launch's call is a
 * `host` statement, and every time counts from it. The launch at 1030 us
 * runs its kernel 1032-1033 us. */
static void
test_origin (void)
{
  const char *log =
    "streamsim-record\t1\n"
    "call\t1\tcudaLaunchKernel\t1000030000\t1000031000\t1\t0xa1\t0x0\t1\t32\t0\n"
    "kernel\t1\t1000032000\t1000033000\t1\t32\t0\t16\t_Z1kv\n"
    "end\t1\t1\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) parsed = parse (log, &error);
  g_assert_no_error (error);
  RecordOptions opt = { .min_host_ns = 2000, .origin_ns = T0 };
  g_autoptr (RecordSchedule) rec = record_schedule_build (parsed, &opt, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_true (g_str_has_prefix (got, "host 30.000us\nstream s1\nkernel s1 grid=1 block=32 "));
  assert_op_times (rec, 0, 0, 0, 30000);
  assert_op_times (rec, 1, 30000, 32000, 33000);
  /* an origin after the first op's call is not one: that call is time 0 */
  opt.origin_ns = T0 + 31000;
  g_autoptr (RecordSchedule) late = record_schedule_build (parsed, &opt, &error);
  g_assert_no_error (error);
  assert_op_times (late, 0, 0, 2000, 3000);
}

/* Call kinds from names, as CUPTI gives them (record_call.h). */
static void
test_call_kinds (void)
{
  gboolean per_thread;
  g_assert_cmpint (record_call_kind ("cudaLaunchKernel", &per_thread), ==, RECORD_CALL_KERNEL);
  g_assert_false (per_thread);
  g_assert_cmpint (record_call_kind ("cudaMemcpyAsync_ptsz", &per_thread), ==, RECORD_CALL_COPY);
  g_assert_true (per_thread);
  g_assert_cmpint (record_call_kind ("cudaMemcpy", &per_thread), ==, RECORD_CALL_MEMCPY);
  g_assert_cmpint (record_call_kind ("cudaMemcpy2DAsync", &per_thread), ==,
                   RECORD_CALL_NOT_MODELLED);
  /* a 2D or 3D copy is one with the rows its log line carries (A2): 16 rows
   * of 4 KiB; not with rows that do not divide its bytes, past 32 bits, or
   * none; copies of arrays never */
  RecordCall c = { .name = "cudaMemcpy3D_ptds", .a = { 65536, 1, 16 } };
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_MEMCPY);
  g_assert_true (per_thread);
  g_assert_cmpuint (record_call_rows (&c), ==, 16);
  c.name = "cudaMemcpy2DAsync_ptsz";
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_COPY);
  c.a[2] = 3;
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_NOT_MODELLED);
  c.a[0] = G_GUINT64_CONSTANT (1) << 40;
  c.a[2] = G_GUINT64_CONSTANT (1) << 32;
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_NOT_MODELLED);
  c.a[2] = 0;
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_NOT_MODELLED);
  c = (RecordCall) { .name = "cudaMemcpy2DToArrayAsync", .a = { 65536, 1, 16 } };
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_NOT_MODELLED);
  g_assert_cmpuint (record_call_rows (&c), ==, 0);
  c.name = "cudaMemcpyAsync"; /* A2: untouched bytes, not rows */
  g_assert_cmpint (record_call_kind_of (&c, &per_thread), ==, RECORD_CALL_COPY);
  g_assert_cmpuint (record_call_rows (&c), ==, 0);
  g_assert_cmpint (record_call_kind ("cudaMemsetAsync", &per_thread), ==, RECORD_CALL_MEMSET);
  g_assert_cmpint (record_call_kind ("cuLaunchKernelEx", &per_thread), ==, RECORD_CALL_KERNEL);
  g_assert_cmpint (record_call_kind ("cudaGetLastError", &per_thread), ==, RECORD_CALL_HOST);
  g_assert_true (record_call_is_driver ("cuLaunchKernel"));
  g_assert_false (record_call_is_driver ("cudaLaunchKernel"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record/program", test_program_statements);
  g_test_add_func ("/record/times-device", test_times_device);
  g_test_add_func ("/record/min-host", test_min_host);
  g_test_add_func ("/record/recorder-gap", test_recorder_gap);
  g_test_add_func ("/record/never-recorded", test_never_recorded);
  g_test_add_func ("/record/shared-kernels", test_shared_kernels);
  g_test_add_func ("/record/untimed-and-default-kind", test_untimed_and_default_kind);
  g_test_add_func ("/record/idle-blocking-copy", test_idle_blocking_copy);
  g_test_add_func ("/record/blocking-copy-setup", test_blocking_copy_setup);
  g_test_add_func ("/record/short-gaps-before-long", test_short_gaps_before_long);
  g_test_add_func ("/record/d2d-memcpy", test_d2d_memcpy);
  g_test_add_func ("/record/untouched-copies", test_untouched_copies);
  g_test_add_func ("/record/huge-pages", test_huge_pages);
  g_test_add_func ("/record/cached-buffers", test_cached_buffers);
  g_test_add_func ("/record/polls", test_polls);
  g_test_add_func ("/record/rows-copies", test_rows_copies);
  g_test_add_func ("/record/kernel-labels", test_kernel_labels);
  g_test_add_func ("/record/elapsed-and-driver", test_elapsed_and_driver);
  g_test_add_func ("/record/capture", test_capture);
  g_test_add_func ("/record/alone-inferred", test_alone_inferred);
  g_test_add_func ("/record/alone-peers", test_alone_peers);
  g_test_add_func ("/record/loads", test_loads);
  g_test_add_func ("/record/trace-extra", test_trace_extra);
  g_test_add_func ("/record/graph", test_graph);
  g_test_add_func ("/record/hostfn", test_hostfn);
  g_test_add_func ("/record/memsets", test_memsets);
  g_test_add_func ("/record/memsets-pinned", test_memsets_pinned);
  g_test_add_func ("/record/blocking-sync", test_blocking_sync);
  g_test_add_func ("/record/loads-contradicted", test_loads_contradicted);
  g_test_add_func ("/record/driver-copy-empty", test_driver_copy_empty);
  g_test_add_func ("/record/memset-records", test_memset_records);
  g_test_add_func ("/record/inside-async", test_inside_async);
  g_test_add_func ("/record/inside-threads", test_inside_threads);
  g_test_add_func ("/record/threads", test_threads);
  g_test_add_func ("/record/threads-taking-turns", test_threads_taking_turns);
  g_test_add_func ("/record/threads-costs", test_threads_costs);
  g_test_add_func ("/record/inside-alone", test_inside_alone);
  g_test_add_func ("/record/inside-blocking-copy", test_inside_blocking_copy);
  g_test_add_func ("/record/inside-sync", test_inside_sync);
  g_test_add_func ("/record/inside-free", test_inside_free);
  g_test_add_func ("/record/stream-alloc", test_stream_alloc);
  g_test_add_func ("/record/inside-waits", test_inside_waits);
  g_test_add_func ("/record/inside-charged", test_inside_charged);
  g_test_add_func ("/record/driver-calls", test_driver_calls);
  g_test_add_func ("/record/short-gaps", test_short_gaps);
  g_test_add_func ("/record/extreme-times", test_extreme_times);
  g_test_add_func ("/record/log-errors", test_log_errors);
  g_test_add_func ("/record/schedule-errors", test_schedule_errors);
  g_test_add_func ("/record/demangled-labels", test_demangled_labels);
  g_test_add_func ("/record/origin", test_origin);
  g_test_add_func ("/record/call-kinds", test_call_kinds);
  return g_test_run ();
}
