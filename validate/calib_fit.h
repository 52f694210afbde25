/* calib_fit.h: the arithmetic of calibration, free of CUDA: fits and summaries of microbenchmark timings.
 *
 * The harness measures; this module turns the measurements into profile
 * numbers. Kept apart so that CI, which has no GPU, can test it on synthetic
 * data with known answers. Times are SimTime nanoseconds. */
#ifndef CALIB_FIT_H
#define CALIB_FIT_H

#include <glib.h>
#include "sim/core/sim_time.h"

/* A copy's solo time as latency + bytes / bandwidth. */
typedef struct
{
  SimTime latency;     /* ns, >= 0 */
  double bandwidth;    /* bytes per second, > 0 */
  double max_residual; /* largest |model - measured| / measured over the points */
} CalibLinkFit;

/* Least squares fit of times[i] = latency + bytes[i] / bandwidth, each point
 * weighted by 1 / times[i]^2 so that a 4 KiB copy counts as much as a 256 MiB
 * one (the error that matters is relative). A negative intercept is clamped
 * to 0 and the bandwidth refitted through the origin. Returns FALSE when
 * fewer than two distinct sizes are given, a time is not positive, or the
 * data have no positive slope. */
gboolean calib_fit_link (const guint64 *bytes, const SimTime *times, gsize n,
                         CalibLinkFit *fit);

/* A blocking (pageable or untouched) link's latency as the model charges
 * it. Those copies are timed from an event recorded before the call to one
 * after it, a span that holds the call and the copy's submission, which the
 * model charges before a copy starts (`before`: the host's memcpy_async and
 * copy_submit); the model's latency is the fit's intercept less them, at
 * least 0, so that its whole copy is the span measured. */
SimTime calib_fit_net_latency (SimTime intercept, SimTime before);

/* The median of n > 0 values (the mean of the two middle ones for even n);
 * `values` is not changed. */
SimTime calib_fit_median (const SimTime *values, gsize n);
double calib_fit_median_double (const double *values, gsize n);

/* The mean of n > 0 values, rounded to the nearest nanosecond. Call costs
 * use it rather than the median: a host-bound run's makespan is the sum of
 * its calls' gaps, so the occasional slow call counts (in the suite's
 * host-bound schedules the mean gap was 3.3 to 8.6% above the median). */
SimTime calib_fit_mean (const SimTime *values, gsize n);

/* The median over the consecutive batches of `batch` values (the last one
 * may be shorter) of each batch's mean: the mean's weight for the usual
 * slow calls, without letting one stall of the whole process (a batch
 * with a millisecond in it) move the answer. */
SimTime calib_fit_median_of_means (const SimTime *values, gsize n, gsize batch);

/* Speed of each direction while both run, relative to alone: the mean of
 * solo / both over the two directions, clamped to (0, 1]. */
double calib_fit_duplex (SimTime solo_a, SimTime both_a, SimTime solo_b, SimTime both_b);

/* How much of the shorter of two intervals the other one covers, 0..1: 0 for
 * copies that ran one after the other, 1 when one ran wholly inside the other. */
double calib_fit_overlap (SimTime a_start, SimTime a_end, SimTime b_start, SimTime b_end);

/* The largest number of the intervals [start, end) open at one instant.
 * Intervals that only touch do not overlap. */
guint calib_fit_max_overlap (const SimTime *start, const SimTime *end, gsize n);

/* The connection probe: stream 0 holds its connection's compute queue until
 * `blocked_until` (a kernel waiting behind a long one), and streams 1..n-1
 * each issued one short kernel after it. A stream whose kernel started at or
 * after `blocked_until` shares stream 0's connection. Returns the smallest
 * such j (the connection count under round-robin assignment), or 0 when no
 * stream was held back. *round_robin says whether exactly the multiples of
 * that j were held back, as round-robin in creation order predicts. */
guint calib_fit_connections (const SimTime *start, gsize n, SimTime blocked_until,
                             gboolean *round_robin);

/* The calibration's [queues] assign_on_submit, from the same probe (its
 * round where every connection is busy). Round-robin in creation order
 * holds back every stream that shares stream 0's connection, the first of
 * them at the connection count, at most CALIB_FIT_MAX_CONNECTIONS. When no
 * stream was held back although there were more streams than that, they took
 * connections that were not held (engines/eng_connection.c). With too few
 * streams to tell, FALSE: the documented rule. */
#define CALIB_FIT_MAX_CONNECTIONS 32 /* CUDA_DEVICE_MAX_CONNECTIONS' range */
gboolean calib_fit_assign_on_submit (const SimTime *start, gsize n, SimTime blocked_until);

/* FP32 add, multiply or multiply-add results per clock per SM for a compute
 * capability, from the CUDA C++ Programming Guide's table of arithmetic
 * instruction throughput (64 on 6.0, 7.x and 8.0, 128 on 5.x, 6.1, 6.2, 8.6
 * to 12.x); 0 for one the table here does not know. */
guint calib_fit_fp32_per_sm (int major, int minor);

/* The FP32 rate the data sheets give, an FMA counting as two operations:
 * 2 x sm_count x calib_fit_fp32_per_sm x clock. 0 when the per-SM rate is
 * unknown. */
double calib_fit_fp32_flops (int major, int minor, guint sm_count, double clock_hz);

/* Device memory's peak bandwidth, bytes per second, from the peak memory
 * clock (cudaDevAttrMemoryClockRate, kHz) and the bus width
 * (cudaDevAttrGlobalMemoryBusWidth, bits): two transfers per clock, as the
 * CUDA samples' deviceQuery and bandwidthTest count them (an H100 SXM5's
 * 2619 MHz and 5120 bits give its data sheet's 3.35 TB/s). 0 when either is
 * not positive. */
double calib_fit_memory_bandwidth (int memory_clock_khz, int bus_width_bits);

#endif /* CALIB_FIT_H */
