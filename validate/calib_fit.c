/* calib_fit.c: fits and summaries of microbenchmark timings (see calib_fit.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"

/* The largest |model - measured| / measured over the points. */
static double
max_misfit (const guint64 *bytes, const SimTime *times, gsize n, const CalibLinkFit *fit)
{
  double worst = 0;
  for (gsize i = 0; i < n; i++)
    {
      double model = (double) fit->latency + (double) bytes[i] / fit->bandwidth * 1e9;
      double r = fabs (model - (double) times[i]) / (double) times[i];
      if (r > worst)
        worst = r;
    }
  return worst;
}

gboolean
calib_fit_link (const guint64 *bytes, const SimTime *times, gsize n, CalibLinkFit *fit)
{
  g_return_val_if_fail (fit != NULL, FALSE);
  g_return_val_if_fail (n == 0 || (bytes != NULL && times != NULL), FALSE);

  /* Work in MiB and microseconds so the sums stay well inside a double's
   * precision for 4 KiB..256 MiB and nanoseconds..seconds. */
  double w_sum = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  gboolean distinct = FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (times[i] <= 0)
        return FALSE;
      if (bytes[i] != bytes[0])
        distinct = TRUE;
      double x = (double) bytes[i] / (1024.0 * 1024.0);
      double y = (double) times[i] / 1000.0;
      double w = 1.0 / (y * y);
      w_sum += w;
      sx += w * x;
      sy += w * y;
      sxx += w * x * x;
      sxy += w * x * y;
    }
  if (!distinct)
    return FALSE;

  double denom = w_sum * sxx - sx * sx;
  if (denom <= 0)
    return FALSE;
  double slope = (w_sum * sxy - sx * sy) / denom; /* us per MiB */
  double intercept = (sy - slope * sx) / w_sum;   /* us */
  if (intercept < 0)
    {
      intercept = 0;
      slope = sxy / sxx;
    }
  if (!(slope > 0))
    return FALSE;

  fit->latency = (SimTime) llround (intercept * 1000.0);
  fit->bandwidth = (1024.0 * 1024.0) / (slope * 1e-6);
  fit->max_residual = max_misfit (bytes, times, n, fit);
  return TRUE;
}

static int
cmp_time (const void *a, const void *b)
{
  SimTime x = *(const SimTime *) a, y = *(const SimTime *) b;
  return (x > y) - (x < y);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

SimTime
calib_fit_median (const SimTime *values, gsize n)
{
  g_return_val_if_fail (values != NULL && n > 0, 0);

  SimTime *v = g_memdup2 (values, n * sizeof *v);
  qsort (v, n, sizeof *v, cmp_time);
  /* (a + b) / 2 written so that it cannot overflow for times near the limit. */
  SimTime m = n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
  g_free (v);
  return m;
}

SimTime
calib_fit_mean (const SimTime *values, gsize n)
{
  g_return_val_if_fail (values != NULL && n > 0, 0);

  /* In double: n calls of at most seconds each stay far inside 2^53 ns. */
  double sum = 0;
  for (gsize i = 0; i < n; i++)
    sum += (double) values[i];
  return (SimTime) llround (sum / (double) n);
}

SimTime
calib_fit_median_of_means (const SimTime *values, gsize n, gsize batch)
{
  g_return_val_if_fail (values != NULL && n > 0 && batch > 0, 0);

  gsize n_batches = (n + batch - 1) / batch;
  SimTime *means = g_new (SimTime, n_batches);
  for (gsize b = 0; b < n_batches; b++)
    means[b] = calib_fit_mean (values + b * batch, MIN (batch, n - b * batch));
  SimTime m = calib_fit_median (means, n_batches);
  g_free (means);
  return m;
}

double
calib_fit_median_double (const double *values, gsize n)
{
  g_return_val_if_fail (values != NULL && n > 0, 0);

  double *v = g_memdup2 (values, n * sizeof *v);
  qsort (v, n, sizeof *v, cmp_double);
  double m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  g_free (v);
  return m;
}

double
calib_fit_duplex (SimTime solo_a, SimTime both_a, SimTime solo_b, SimTime both_b)
{
  g_return_val_if_fail (solo_a > 0 && both_a > 0 && solo_b > 0 && both_b > 0, 1.0);

  double f = ((double) solo_a / (double) both_a + (double) solo_b / (double) both_b) / 2;
  return CLAMP (f, 0.01, 1.0);
}

double
calib_fit_overlap (SimTime a_start, SimTime a_end, SimTime b_start, SimTime b_end)
{
  SimTime shorter = MIN (a_end - a_start, b_end - b_start);
  SimTime common = MIN (a_end, b_end) - MAX (a_start, b_start);
  if (shorter <= 0 || common <= 0)
    return 0;
  return MIN (1.0, (double) common / (double) shorter);
}

typedef struct
{
  SimTime t;
  int delta; /* +1 start, -1 end */
} Edge;

static int
cmp_edge (const void *a, const void *b)
{
  const Edge *x = a, *y = b;
  if (x->t != y->t)
    return (x->t > y->t) - (x->t < y->t);
  /* Ends before starts at the same instant: touching intervals do not overlap. */
  return x->delta - y->delta;
}

guint
calib_fit_max_overlap (const SimTime *start, const SimTime *end, gsize n)
{
  g_return_val_if_fail (n == 0 || (start != NULL && end != NULL), 0);

  Edge *edges = g_new (Edge, 2 * n);
  gsize m = 0;
  for (gsize i = 0; i < n; i++)
    if (end[i] > start[i])
      {
        edges[m++] = (Edge) { start[i], +1 };
        edges[m++] = (Edge) { end[i], -1 };
      }
  if (m > 0)
    qsort (edges, m, sizeof *edges, cmp_edge);
  int open = 0, most = 0;
  for (gsize i = 0; i < m; i++)
    {
      open += edges[i].delta;
      most = MAX (most, open);
    }
  g_free (edges);
  return (guint) most;
}

guint
calib_fit_connections (const SimTime *start, gsize n, SimTime blocked_until,
                       gboolean *round_robin)
{
  g_return_val_if_fail (n == 0 || start != NULL, 0);

  guint first = 0;
  for (gsize j = 1; j < n && first == 0; j++)
    if (start[j] >= blocked_until)
      first = (guint) j;

  if (round_robin != NULL)
    {
      *round_robin = first > 0;
      for (gsize j = 1; j < n && first > 0; j++)
        if ((start[j] >= blocked_until) != (j % first == 0))
          *round_robin = FALSE;
    }
  return first;
}

gboolean
calib_fit_assign_on_submit (const SimTime *start, gsize n, SimTime blocked_until)
{
  return n > CALIB_FIT_MAX_CONNECTIONS && calib_fit_connections (start, n, blocked_until, NULL) == 0;
}

guint
calib_fit_fp32_per_sm (int major, int minor)
{
  switch (major)
    {
    case 5:
      return 128;
    case 6:
      return minor == 0 ? 64 : 128;
    case 7:
      return 64;
    case 8:
      return minor == 0 ? 64 : 128;
    case 9:
    case 10:
    case 11:
    case 12:
      return 128;
    default:
      return 0;
    }
}

double
calib_fit_fp32_flops (int major, int minor, guint sm_count, double clock_hz)
{
  return 2.0 * sm_count * calib_fit_fp32_per_sm (major, minor) * clock_hz;
}

double
calib_fit_memory_bandwidth (int memory_clock_khz, int bus_width_bits)
{
  if (memory_clock_khz <= 0 || bus_width_bits <= 0)
    return 0;
  return 2.0 * memory_clock_khz * 1e3 * bus_width_bits / 8;
}

SimTime
calib_fit_net_latency (SimTime intercept, SimTime before)
{
  return intercept > before ? intercept - before : 0;
}
