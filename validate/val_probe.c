/* val_probe.c: the calibration's probes that need a CUDA context of their own, each in a child process (see val_probe.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "kernels/spin.h"
#include "val_clock.h"
#include "val_cuda.h"
#include "val_device.h"
#include "val_probe.h"

#define N_SLOTS 4096

/* ---- Parent side: start each probe and read its answer ---- */

static gboolean
probe_value (const char *out, const char *key, char **value)
{
  char **lines = g_strsplit (out, "\n", -1);
  gboolean found = FALSE;
  gsize klen = strlen (key);
  for (char **l = lines; *l != NULL && !found; l++)
    if (strncmp (*l, key, klen) == 0 && (*l)[klen] == '=')
      {
        *value = g_strdup (*l + klen + 1);
        found = TRUE;
      }
  g_strfreev (lines);
  return found;
}

/* Runs `self --probe name` with CUDA_DEVICE_MAX_CONNECTIONS = connections
 * (0: unset) and returns its stdout. */
static char *
run_probe (const char *self, const char *name, guint connections, GError **error)
{
  char **env = g_get_environ ();
  if (connections > 0)
    {
      char value[16];
      g_snprintf (value, sizeof value, "%u", connections);
      env = g_environ_setenv (env, "CUDA_DEVICE_MAX_CONNECTIONS", value, TRUE);
    }
  else
    env = g_environ_unsetenv (env, "CUDA_DEVICE_MAX_CONNECTIONS");
  const char *argv[] = { self, "--probe", name, NULL };
  char *out = NULL;
  int status = 0;
  gboolean ok = g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                              &out, NULL, &status, error);
  g_strfreev (env);
  if (!ok)
    return NULL;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE,
                   "calibration probe '%s' (%u connections) failed; its messages are above",
                   name, connections);
      g_free (out);
      return NULL;
    }
  fprintf (stderr, "  probe %s (CUDA_DEVICE_MAX_CONNECTIONS=%u): %s", name, connections, out);
  return out;
}

static gboolean
probe_connections (const char *self, guint connections, guint *count, gboolean *rr,
                   gboolean *on_submit, char **delayed, char **cold, GError **error)
{
  char *out = run_probe (self, "connections", connections, error);
  if (out == NULL)
    return FALSE;
  char *c = NULL, *r = NULL, *a = NULL;
  gboolean ok = probe_value (out, "connections", &c) && probe_value (out, "round_robin", &r)
                && probe_value (out, "assign_on_submit", &a)
                && probe_value (out, "delayed", delayed) && probe_value (out, "cold_delayed", cold);
  if (ok)
    {
      *count = (guint) g_ascii_strtoull (c, NULL, 10);
      *rr = strcmp (r, "1") == 0;
      if (on_submit != NULL)
        *on_submit = strcmp (a, "1") == 0;
    }
  else
    g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE, "probe 'connections' printed no answer");
  g_free (c);
  g_free (r);
  g_free (a);
  g_free (out);
  return ok;
}

/* Runs one probe and reads `n` numbers from what it printed, keys[i] into
 * values[i]: all from the same run. */
static gboolean
probe_numbers (const char *self, const char *name, guint connections, const char *const *keys,
               double *values, gsize n, GError **error)
{
  char *out = run_probe (self, name, connections, error);
  if (out == NULL)
    return FALSE;
  gboolean ok = TRUE;
  for (gsize i = 0; i < n && ok; i++)
    {
      char *v = NULL;
      ok = probe_value (out, keys[i], &v);
      if (ok)
        values[i] = g_ascii_strtod (v, NULL);
      else
        g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE, "probe '%s' printed no %s", name,
                     keys[i]);
      g_free (v);
    }
  g_free (out);
  return ok;
}

static gboolean
probe_number (const char *self, const char *name, guint connections, const char *key,
              double *value, GError **error)
{
  return probe_numbers (self, name, connections, &key, value, 1, error);
}

/* A probe that fails (a driver that refuses 32 connections, say) costs its
 * own numbers only: the profile then gets the documented value, and its
 * comment says it was not measured. */
void
val_probe_run_all (const char *self, ValProbeResults *r)
{
  memset (r, 0, sizeof *r);
  double concurrent = 0;
  GError *e = NULL;
  fprintf (stderr, "calibrate: probes in child processes\n");
  if (!probe_connections (self, 0, &r->default_connections, &r->rr_default, &r->assign_on_submit,
                          &r->delayed_default, &r->cold_default, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      r->delayed_default = g_strdup_printf ("NOT MEASURED (%s)", e->message);
      g_clear_error (&e);
    }
  else
    r->default_measured = TRUE;
  if (!probe_connections (self, 4, &r->connections4, &r->rr4, NULL, &r->delayed4,
                          &r->cold4, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      r->delayed4 = g_strdup_printf ("NOT MEASURED (%s)", e->message);
      g_clear_error (&e);
    }
  if (!probe_connections (self, 32, &r->connections32, &r->rr32, NULL, &r->delayed32,
                          &r->cold32, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      r->delayed32 = g_strdup_printf ("NOT MEASURED (%s)", e->message);
      g_clear_error (&e);
    }
  r->overlap_one_connection = r->overlap_two_connections = -1;
  if (!probe_number (self, "share", 1, "overlap", &r->overlap_one_connection, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  if (!probe_number (self, "share", 8, "overlap", &r->overlap_two_connections, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  if (!probe_number (self, "concurrency", 32, "max_overlap", &concurrent, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  r->max_concurrent = (guint) concurrent;
  /* the count and the least size, from one run of the probe */
  static const char *const copy_keys[] = { "copy_connections", "shared_copy_min" };
  double copy[G_N_ELEMENTS (copy_keys)] = { 0, 0 };
  if (probe_numbers (self, "copy_queues", 0, copy_keys, copy, G_N_ELEMENTS (copy_keys), &e))
    r->copy_measured = TRUE;
  else
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  r->default_copy_connections = r->copy_measured ? (guint) copy[0] : 0;
  r->shared_copy_min = r->copy_measured ? (guint64) copy[1] : 0;
}

void
val_probe_results_clear (ValProbeResults *r)
{
  char **texts[] = { &r->delayed_default, &r->delayed4, &r->delayed32,
                     &r->cold_default, &r->cold4, &r->cold32 };
  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    g_clear_pointer (texts[i], g_free);
}

/* ---- Child side: the probes themselves ---- */

typedef struct
{
  ValDevice dev;
  ValClock *clock;
  cudaStream_t helper;
  SpinSlot *slots, *slots_host;
} Probe;

static gboolean
probe_open (Probe *p, GError **error)
{
  memset (p, 0, sizeof *p);
  if (!val_device_open (&p->dev, NULL, error))
    return FALSE;
  if (!VAL_CUDA (cudaMalloc ((void **) &p->slots, N_SLOTS * sizeof (SpinSlot)), error))
    return FALSE;
  p->slots_host = g_new0 (SpinSlot, N_SLOTS);
  return TRUE;
}

/* The helper stream is created after the probe's own streams, so it does
 * not shift their connections. */
static gboolean
probe_clock (Probe *p, GError **error)
{
  if (!VAL_CUDA (cudaStreamCreateWithFlags (&p->helper, cudaStreamNonBlocking), error))
    return FALSE;
  p->clock = val_clock_new (p->helper, error);
  return p->clock != NULL && VAL_CUDA (spin_reset_slots (p->slots, N_SLOTS, p->helper), error)
         && VAL_CUDA (cudaStreamSynchronize (p->helper), error)
         && val_clock_sync (p->clock, error);
}

static gboolean
probe_read_slots (Probe *p, GError **error)
{
  return VAL_CUDA (cudaDeviceSynchronize (), error)
         && VAL_CUDA (cudaMemcpy (p->slots_host, p->slots, N_SLOTS * sizeof (SpinSlot),
                                  cudaMemcpyDeviceToHost), error);
}

static void
probe_close (Probe *p)
{
  val_clock_free (p->clock);
  cudaFree (p->slots);
  g_free (p->slots_host);
  val_device_clear (&p->dev);
}

/* Stream 0 runs a long kernel and then a short one, which waits in stream 0's
 * connection's compute queue until the long one ends. Streams 1..64 then
 * launch one kernel each, issued after stream 0's. Under the queue model the
 * streams that share stream 0's connection are held back until the long
 * kernel ends; with round-robin assignment in creation order those are the
 * multiples of the connection count. Two variants: short (10 us) kernels,
 * which leave most connections idle most of the time, and long (2 ms) ones,
 * which keep every connection busy. On an H100 with short kernels no stream
 * was held back at all, while the suite's busy schedules followed
 * round-robin: the driver seems to place a stream's work on an idle
 * connection when there is one. Both run on streams that have run work
 * before (a warm-up round), as the harness's measured repeats do. */
static gboolean
connection_round (Probe *p, cudaStream_t *s, int n, unsigned long long others_ns,
                  SimTime *start, SimTime *blocked_until, GError **error)
{
  if (!VAL_CUDA (spin_reset_slots (p->slots, N_SLOTS, p->helper), error)
      || !VAL_CUDA (cudaStreamSynchronize (p->helper), error)
      || !VAL_CUDA (spin_launch (1, 32, 0, s[0], 2000000ull, &p->slots[0]), error)
      || !VAL_CUDA (spin_launch (1, 32, 0, s[0], 1000ull, &p->slots[1]), error))
    return FALSE;
  for (int i = 1; i < n; i++)
    if (!VAL_CUDA (spin_launch (1, 32, 0, s[i], others_ns, &p->slots[1 + i]), error))
      return FALSE;
  if (!probe_read_slots (p, error))
    return FALSE;
  start[0] = (SimTime) p->slots_host[0].start;
  for (int i = 1; i < n; i++)
    start[i] = (SimTime) p->slots_host[1 + i].start;
  *blocked_until = (SimTime) p->slots_host[0].end;
  return TRUE;
}

static char *
held_back (const SimTime *start, int n, SimTime blocked_until)
{
  GString *delayed = g_string_new (NULL);
  for (int i = 1; i < n; i++)
    if (start[i] >= blocked_until)
      g_string_append_printf (delayed, "%s%d", delayed->len ? "," : "", i);
  if (delayed->len == 0)
    g_string_append (delayed, "none");
  return g_string_free (delayed, FALSE);
}

static gboolean
probe_connections_child (Probe *p, GError **error)
{
  enum { N = 65 };
  cudaStream_t s[N];
  SimTime start[N], until;
  for (int i = 0; i < N; i++)
    if (!VAL_CUDA (cudaStreamCreate (&s[i]), error))
      return FALSE;
  if (!VAL_CUDA (cudaStreamCreateWithFlags (&p->helper, cudaStreamNonBlocking), error))
    return FALSE;
  if (!connection_round (p, s, N, 10000ull, start, &until, error)) /* warm-up */
    return FALSE;
  if (!connection_round (p, s, N, 10000ull, start, &until, error))
    return FALSE;
  char *idle = held_back (start, N, until);
  if (!connection_round (p, s, N, 2000000ull, start, &until, error))
    return FALSE;
  gboolean rr = FALSE;
  guint c = calib_fit_connections (start, N, until, &rr);
  gboolean on_submit = calib_fit_assign_on_submit (start, N, until);
  char *busy = held_back (start, N, until);
  printf ("connections=%u\nround_robin=%d\nassign_on_submit=%d\ndelayed=%s\ncold_delayed=%s\n",
          c, rr ? 1 : 0, on_submit ? 1 : 0, busy, idle);
  g_free (idle);
  g_free (busy);
  for (int i = 0; i < N; i++)
    cudaStreamDestroy (s[i]);
  return TRUE;
}

/* How many connections have copy queues of their own, with
 * CUDA_DEVICE_MAX_CONNECTIONS as the parent set it (unset: the driver's
 * default), and from what copy size. Stream 0 runs a 2 ms kernel and then a
 * D2H, which waits at the head of its copy queue; streams 1..32 then issue
 * one D2H each, which together take well under 2 ms. A stream whose D2H
 * ended after stream 0's kernel shares stream 0's copy queue; the first
 * such stream's index is the count (calib_fit_connections), 0 when none was
 * held back. Measured at 1 MiB, then twice at each smaller size down to
 * 64 KiB: the smallest size from which every run gave the same pattern is
 * the least that shares. On an H100 and an H200 with the variable unset: 4
 * (where kernels get 8 connections), from 512 KiB; smaller D2H copies were
 * held back by none, or at random (engines/eng_connection.c, COPY QUEUES). */
enum { COPY_PROBE_STREAMS = 33 };

static gboolean
copy_queue_round (cudaStream_t *s, char *host, char *dev, size_t bytes, Probe *p, guint *count,
                  gboolean *rr, GError **error)
{
  enum { N = COPY_PROBE_STREAMS };
  cudaEvent_t origin, kernel_end, end[N];
  gboolean ok = VAL_CUDA (cudaEventCreate (&origin), error)
                && VAL_CUDA (cudaEventCreate (&kernel_end), error);
  for (int i = 0; i < N && ok; i++)
    ok = VAL_CUDA (cudaEventCreate (&end[i]), error);
  ok = ok && VAL_CUDA (cudaEventRecord (origin, s[0]), error)
       && VAL_CUDA (spin_launch (1, 32, 0, s[0], 2000000ull, &p->slots[0]), error)
       && VAL_CUDA (cudaEventRecord (kernel_end, s[0]), error);
  for (int i = 0; i < N && ok; i++)
    ok = VAL_CUDA (cudaMemcpyAsync (host + i * bytes, dev + i * bytes, bytes,
                                    cudaMemcpyDeviceToHost, s[i]), error)
         && VAL_CUDA (cudaEventRecord (end[i], s[i]), error);
  ok = ok && VAL_CUDA (cudaDeviceSynchronize (), error);
  SimTime ends[N], blocked_until = 0;
  float ms = 0;
  if (ok && (ok = VAL_CUDA (cudaEventElapsedTime (&ms, origin, kernel_end), error)))
    blocked_until = (SimTime) (ms * 1e6);
  for (int i = 0; i < N && ok; i++)
    if ((ok = VAL_CUDA (cudaEventElapsedTime (&ms, origin, end[i]), error)))
      ends[i] = (SimTime) (ms * 1e6);
  if (ok)
    *count = calib_fit_connections (ends, N, blocked_until, rr);
  cudaEventDestroy (origin);
  cudaEventDestroy (kernel_end);
  for (int i = 0; i < N; i++)
    cudaEventDestroy (end[i]);
  return ok;
}

static gboolean
probe_copy_queues_child (Probe *p, GError **error)
{
  enum { N = COPY_PROBE_STREAMS, MAX_BYTES = 1 << 20, MIN_BYTES = 64 << 10 };
  cudaStream_t s[N];
  char *host = NULL, *dev = NULL;
  gboolean ok = VAL_CUDA (cudaMallocHost ((void **) &host, (size_t) N * MAX_BYTES), error)
                && VAL_CUDA (cudaMalloc ((void **) &dev, (size_t) N * MAX_BYTES), error);
  for (int i = 0; i < N && ok; i++)
    ok = VAL_CUDA (cudaStreamCreateWithFlags (&s[i], cudaStreamNonBlocking), error);
  guint count = 0, c = 0;
  gboolean rr = FALSE, r = FALSE;
  ok = ok && copy_queue_round (s, host, dev, MAX_BYTES, p, &count, &rr, error);
  size_t least = MAX_BYTES;
  for (size_t bytes = MAX_BYTES / 2; ok && count > 0 && bytes >= MIN_BYTES; bytes /= 2)
    {
      gboolean same = TRUE;
      for (int rep = 0; rep < 2 && ok && same; rep++)
        {
          ok = copy_queue_round (s, host, dev, bytes, p, &c, &r, error);
          same = c == count && r == rr;
        }
      if (!same)
        break;
      least = bytes;
    }
  if (ok)
    printf ("copy_connections=%u\nround_robin=%d\nshared_copy_min=%zu\n", count, rr ? 1 : 0,
            count > 0 ? least : 0);
  for (int i = 0; i < N; i++)
    cudaStreamDestroy (s[i]);
  cudaFreeHost (host);
  cudaFree (dev);
  return ok;
}

/* Two kernels in two streams, each one block of half an SM's threads on
 * every SM: together they fit. Overlap near 1 means their blocks shared the
 * SMs; near 0 that the second waited for the first. Run with one connection
 * (both streams on it) and with eight (one each). */
static gboolean
probe_share_child (Probe *p, GError **error)
{
  cudaStream_t a, b;
  if (!VAL_CUDA (cudaStreamCreateWithFlags (&a, cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b, cudaStreamNonBlocking), error))
    return FALSE;
  if (!probe_clock (p, error))
    return FALSE;
  unsigned int grid = (unsigned int) p->dev.prop.multiProcessorCount;
  unsigned int block = (unsigned int) MIN (p->dev.prop.maxThreadsPerMultiProcessor / 2,
                                           p->dev.prop.maxThreadsPerBlock);
  double overlaps[5];
  for (int t = 0; t < 5; t++)
    {
      if (!VAL_CUDA (spin_reset_slots (p->slots, 2, p->helper), error)
          || !VAL_CUDA (cudaStreamSynchronize (p->helper), error)
          || !VAL_CUDA (spin_launch (grid, block, 0, a, 1000000ull, &p->slots[0]), error)
          || !VAL_CUDA (spin_launch (grid, block, 0, b, 1000000ull, &p->slots[1]), error)
          || !probe_read_slots (p, error))
        return FALSE;
      const SpinSlot *x = &p->slots_host[0], *y = &p->slots_host[1];
      overlaps[t] = calib_fit_overlap ((SimTime) x->start, (SimTime) x->end, (SimTime) y->start,
                                       (SimTime) y->end);
    }
  printf ("overlap=%.3f\ngrid=%u\nblock=%u\n", calib_fit_median_double (overlaps, 5), grid, block);
  cudaStreamDestroy (a);
  cudaStreamDestroy (b);
  return TRUE;
}

/* 160 streams, one single-block kernel each, all issued before the first
 * ends: how many run at once is the concurrency limit. */
static gboolean
probe_concurrency_child (Probe *p, GError **error)
{
  enum { N = 160 };
  cudaStream_t s[N];
  for (int i = 0; i < N; i++)
    if (!VAL_CUDA (cudaStreamCreateWithFlags (&s[i], cudaStreamNonBlocking), error))
      return FALSE;
  if (!probe_clock (p, error))
    return FALSE;
  for (int i = 0; i < N; i++)
    if (!VAL_CUDA (spin_launch (1, 32, 0, s[i], 5000000ull, &p->slots[i]), error))
      return FALSE;
  if (!probe_read_slots (p, error))
    return FALSE;
  SimTime start[N], end[N];
  for (int i = 0; i < N; i++)
    {
      start[i] = (SimTime) p->slots_host[i].start;
      end[i] = (SimTime) p->slots_host[i].end;
    }
  printf ("max_overlap=%u\nkernels=%d\n", calib_fit_max_overlap (start, end, N), N);
  for (int i = 0; i < N; i++)
    cudaStreamDestroy (s[i]);
  return TRUE;
}

int
val_probe_main (const char *name)
{
  GError *error = NULL;
  Probe p;
  gboolean ok = probe_open (&p, &error);
  if (ok)
    {
      if (strcmp (name, "connections") == 0)
        ok = probe_connections_child (&p, &error);
      else if (strcmp (name, "share") == 0)
        ok = probe_share_child (&p, &error);
      else if (strcmp (name, "concurrency") == 0)
        ok = probe_concurrency_child (&p, &error);
      else if (strcmp (name, "copy_queues") == 0)
        ok = probe_copy_queues_child (&p, &error);
      else
        {
          fprintf (stderr, "streamsim-validate: unknown probe '%s' (connections, share, "
                           "concurrency, copy_queues)\n", name);
          probe_close (&p);
          return 2;
        }
    }
  probe_close (&p);
  if (!ok)
    {
      fprintf (stderr, "streamsim-validate: probe %s: %s\n", name, error->message);
      g_error_free (error);
      return 3;
    }
  return 0;
}
