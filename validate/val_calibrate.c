/* val_calibrate.c: microbenchmarks that measure a GPU and write its device profile (see val_calibrate.h).
 *
 * Each profile number is measured the way the engine model uses it
 * (engines/eng_host.c, eng_deps.c, eng_copy.c), so that the model fed with
 * these numbers reproduces the microbenchmarks themselves:
 *   a device call arrives at its queue at call start + host cost + submit
 *   latency (launch latency for kernels, copy_submit for copies);
 *   a copy alone takes latency + bytes / bandwidth; back-to-back copies of
 *   one stream follow each other with no gap, so the time between their end
 *   events is exactly one copy's latency + bytes / bandwidth;
 *   a kernel follows a kernel after kernel_gap, any other cross-engine
 *   dependency costs dependency latency;
 *   a blocking call returns its host cost after its condition holds.
 * Every number is a median over many trials. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "profile_file.h"
#include "schedule.h"
#include "spin.h"
#include "val_calibrate.h"
#include "val_clock.h"
#include "val_cuda.h"
#include "val_untouched.h"

#define KiB ((guint64) 1024)
#define MiB (KiB * 1024)
#define N_SIZES 9          /* 4 KiB * 4^k, k = 0..8: 4 KiB .. 256 MiB */
#define MAX_SIZE (256 * MiB)
#define BIG (64 * MiB)     /* duplex and same-direction tests */
#define SMALL (4 * KiB)    /* latency tests */
#define BLOCKER_NS 200000ull
#define N_SLOTS 4096
#define HOST_CALLS 2000
#define HOST_BATCH 100
#define LAT_TRIALS 200

/* ---- Probes in child processes ---- */

/* Results of the probes, kept between val_calibrate_probes and _run. */
static struct
{
  guint default_connections, connections4, connections32;
  gboolean rr_default, rr4, rr32;
  char *delayed_default, *delayed4, *delayed32;
  char *cold_default, *cold4, *cold32;
  double overlap_one_connection, overlap_two_connections;
  guint max_concurrent;
  gboolean done;
} probes;

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
                   char **delayed, char **cold, GError **error)
{
  char *out = run_probe (self, "connections", connections, error);
  if (out == NULL)
    return FALSE;
  char *c = NULL, *r = NULL;
  gboolean ok = probe_value (out, "connections", &c) && probe_value (out, "round_robin", &r)
                && probe_value (out, "delayed", delayed) && probe_value (out, "cold_delayed", cold);
  if (ok)
    {
      *count = (guint) g_ascii_strtoull (c, NULL, 10);
      *rr = strcmp (r, "1") == 0;
    }
  else
    g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE, "probe 'connections' printed no answer");
  g_free (c);
  g_free (r);
  g_free (out);
  return ok;
}

static gboolean
probe_number (const char *self, const char *name, guint connections, const char *key,
              double *value, GError **error)
{
  char *out = run_probe (self, name, connections, error);
  if (out == NULL)
    return FALSE;
  char *v = NULL;
  gboolean ok = probe_value (out, key, &v);
  if (ok)
    *value = g_ascii_strtod (v, NULL);
  else
    g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE, "probe '%s' printed no %s", name, key);
  g_free (v);
  g_free (out);
  return ok;
}

/* A probe that fails (a driver that refuses 32 connections, say) costs its
 * own numbers only: the profile then gets the documented value, and its
 * comment says it was not measured. */
gboolean
val_calibrate_probes (const char *self, GError **error)
{
  (void) error;
  double concurrent = 0;
  GError *e = NULL;
  fprintf (stderr, "calibrate: probes in child processes\n");
  if (!probe_connections (self, 0, &probes.default_connections, &probes.rr_default,
                          &probes.delayed_default, &probes.cold_default, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      probes.delayed_default = g_strdup_printf ("NOT MEASURED (%s)", e->message);
      g_clear_error (&e);
    }
  if (!probe_connections (self, 4, &probes.connections4, &probes.rr4, &probes.delayed4,
                          &probes.cold4, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      probes.delayed4 = g_strdup_printf ("NOT MEASURED (%s)", e->message);
      g_clear_error (&e);
    }
  if (!probe_connections (self, 32, &probes.connections32, &probes.rr32, &probes.delayed32,
                          &probes.cold32, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      probes.delayed32 = g_strdup_printf ("NOT MEASURED (%s)", e->message);
      g_clear_error (&e);
    }
  probes.overlap_one_connection = probes.overlap_two_connections = -1;
  if (!probe_number (self, "share", 1, "overlap", &probes.overlap_one_connection, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  if (!probe_number (self, "share", 8, "overlap", &probes.overlap_two_connections, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  if (!probe_number (self, "concurrency", 32, "max_overlap", &concurrent, &e))
    {
      fprintf (stderr, "  probe failed: %s\n", e->message);
      g_clear_error (&e);
    }
  probes.max_concurrent = (guint) concurrent;
  probes.done = TRUE;
  return TRUE;
}

/* ---- The probes themselves (child side) ---- */

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
  char *busy = held_back (start, N, until);
  printf ("connections=%u\nround_robin=%d\ndelayed=%s\ncold_delayed=%s\n", c, rr ? 1 : 0, busy,
          idle);
  g_free (idle);
  g_free (busy);
  for (int i = 0; i < N; i++)
    cudaStreamDestroy (s[i]);
  return TRUE;
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
val_calibrate_probe_main (const char *name)
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
      else
        {
          fprintf (stderr, "streamsim-validate: unknown probe '%s' (connections, share, "
                           "concurrency)\n", name);
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

/* ---- In-process benchmarks ---- */

typedef struct
{
  const ValDevice *dev;
  cudaStream_t a, b, helper;
  cudaStream_t rot[4]; /* a, b and two more: calls that go round streams */
  ValClock *clock;
  cudaEvent_t ev[6];
  cudaEvent_t plain; /* timing disabled, as a program's own events */
  void *dev_src, *dev_dst, *pinned, *pinned2, *pageable;
  SpinSlot *slots, *slots_host;
  EngProfile prof;
  SimTime launch_one, memcpy_one; /* call costs into a single stream */
  GPtrArray *comments; /* key, comment, key, comment, ... */
} Bench;

static void G_GNUC_PRINTF (3, 4)
note (Bench *b, const char *key, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *text = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "  %-26s %s\n", key, text);
  g_ptr_array_add (b->comments, g_strdup (key));
  g_ptr_array_add (b->comments, text);
}

static double
us (SimTime ns)
{
  return (double) ns / 1000.0;
}

static gboolean
elapsed (cudaEvent_t from, cudaEvent_t to, SimTime *ns, GError **error)
{
  float ms = 0;
  if (!VAL_CUDA (cudaEventElapsedTime (&ms, from, to), error))
    return FALSE;
  *ns = (SimTime) ((double) ms * 1e6 + 0.5);
  return TRUE;
}

static gboolean
read_slots (Bench *b, guint n, GError **error)
{
  return VAL_CUDA (cudaDeviceSynchronize (), error)
         && VAL_CUDA (cudaMemcpy (b->slots_host, b->slots, n * sizeof (SpinSlot),
                                  cudaMemcpyDeviceToHost), error);
}

static gboolean
reset_slots (Bench *b, guint n, GError **error)
{
  return VAL_CUDA (spin_reset_slots (b->slots, n, b->helper), error)
         && VAL_CUDA (cudaStreamSynchronize (b->helper), error);
}

/* The host memory a copy benchmark uses. */
typedef enum
{
  HOST_PINNED,
  HOST_PAGEABLE,  /* malloc'ed and written once, as a program's buffers */
  HOST_UNTOUCHED, /* fresh from mmap for every copy: no page resident */
} HostMemory;

static void
copy_args (Bench *b, SchedCopyDir dir, void *host, void **dst, const void **src,
           enum cudaMemcpyKind *kind)
{
  switch (dir)
    {
    case SCHED_DIR_H2D:
      *dst = b->dev_dst;
      *src = host;
      *kind = cudaMemcpyHostToDevice;
      break;
    case SCHED_DIR_D2H:
      *dst = host;
      *src = b->dev_src;
      *kind = cudaMemcpyDeviceToHost;
      break;
    default:
      *dst = b->dev_dst;
      *src = b->dev_src;
      *kind = cudaMemcpyDeviceToDevice;
      break;
    }
}

/* One copy, from an event before its call to one after it. Pageable
 * copies are timed so, being synchronous for the host (they cannot be
 * queued behind a blocker), and so are big pinned ones alone. */
static gboolean
time_copy_between_events (Bench *b, void *dst, const void *src, guint64 bytes,
                    enum cudaMemcpyKind kind, SimTime *ns, GError **error)
{
  return VAL_CUDA (cudaEventRecord (b->ev[0], b->a), error)
         && VAL_CUDA (cudaMemcpyAsync (dst, src, bytes, kind, b->a), error)
         && VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
         && VAL_CUDA (cudaStreamSynchronize (b->a), error)
         && elapsed (b->ev[0], b->ev[1], ns, error);
}

/* A copy from or into memory no page of which has been touched, mapped for
 * it and unmapped after (val_untouched.h). */
static gboolean
time_untouched_copy (Bench *b, SchedCopyDir dir, guint64 bytes, SimTime *ns, GError **error)
{
  void *host = val_untouched_map (bytes, error);
  if (host == NULL)
    return FALSE;
  void *dst;
  const void *src;
  enum cudaMemcpyKind kind;
  copy_args (b, dir, host, &dst, &src, &kind);
  gboolean ok = time_copy_between_events (b, dst, src, bytes, kind, ns, error);
  val_untouched_unmap (host, bytes);
  return ok;
}

/* One copy's time. Pinned and device copies: a blocker kernel holds the
 * stream while a first copy, an event, `k` more copies and an event are
 * queued behind it; the time between the two events over `k` is one copy
 * exactly as the model counts it (each copy starts when the one before it
 * in its stream ends). `k` copies between the events, not one, because an
 * event between two copies costs the engine time too: with one copy per
 * event pair a 4 KiB copy measured about 3.8 us, the untimed program paid
 * about 2 us per copy (validate/FINDINGS.md). */
static gboolean
time_copy (Bench *b, SchedCopyDir dir, HostMemory memory, guint64 bytes, SimTime *ns,
           GError **error)
{
  if (memory == HOST_UNTOUCHED)
    return time_untouched_copy (b, dir, bytes, ns, error);
  void *dst;
  const void *src;
  enum cudaMemcpyKind kind;
  copy_args (b, dir, memory == HOST_PAGEABLE ? b->pageable : b->pinned, &dst, &src, &kind);
  if (memory == HOST_PAGEABLE)
    return time_copy_between_events (b, dst, src, bytes, kind, ns, error);
  int k = bytes <= MiB ? 8 : 2;
  if (!VAL_CUDA (spin_launch (1, 32, 0, b->a, BLOCKER_NS, NULL), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst, src, bytes, kind, b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error))
    return FALSE;
  for (int i = 0; i < k; i++)
    if (!VAL_CUDA (cudaMemcpyAsync (dst, src, bytes, kind, b->a), error))
      return FALSE;
  SimTime total;
  if (!VAL_CUDA (cudaEventRecord (b->ev[2], b->a), error)
      || !VAL_CUDA (cudaStreamSynchronize (b->a), error)
      || !elapsed (b->ev[1], b->ev[2], &total, error))
    return FALSE;
  *ns = total / k;
  return TRUE;
}

static int
trials_for (guint64 bytes, HostMemory memory)
{
  gboolean blocking = memory != HOST_PINNED;
  if (bytes <= MiB)
    return blocking ? 9 : 21;
  if (bytes <= 16 * MiB)
    return blocking ? 5 : 9;
  return blocking ? 3 : 5;
}

/* How a sweep's copies were timed, for the profile's comments. */
static const char *
sweep_method (HostMemory memory)
{
  switch (memory)
    {
    case HOST_PINNED:
      return "time between two events with back-to-back copies between them (8 up to 1 MiB, "
             "2 above), queued behind a blocker kernel, over the copies";
    case HOST_PAGEABLE:
      return "event before the call to event after it (pageable copies block the host)";
    default:
      return "each copy from or into memory fresh from mmap (no page resident, as a large "
             "malloc gives), event before the call to event after it";
    }
}

/* Fits `link` to copies of 4 KiB and up in one direction from one kind of
 * host memory. Untouched memory stops at 64 MiB: a 256 MiB D2H into fresh
 * pages took 0.16 s on an H100. */
static gboolean
sweep_link (Bench *b, SchedCopyDir dir, HostMemory memory, EngLink *link, const char *name,
            GError **error)
{
  guint64 sizes[N_SIZES];
  SimTime times[N_SIZES];
  GString *points = g_string_new (NULL);
  int n_sizes = memory == HOST_UNTOUCHED ? N_SIZES - 1 : N_SIZES;
  /* Trials go round the sizes rather than repeating one size, so that each
   * size sees the caches (and, for pageable memory, the pages) as a
   * program copying buffers of several sizes would. */
  SimTime t[N_SIZES][32];
  int max_trials = trials_for (4 * KiB, memory);
  for (int i = 0; i < max_trials; i++)
    for (int k = 0; k < n_sizes; k++)
      {
        sizes[k] = 4 * KiB << (2 * k);
        if (i < trials_for (sizes[k], memory)
            && !time_copy (b, dir, memory, sizes[k], &t[k][i], error))
          {
            g_string_free (points, TRUE);
            return FALSE;
          }
      }
  for (int k = 0; k < n_sizes; k++)
    {
      times[k] = calib_fit_median (t[k], trials_for (sizes[k], memory));
      char *size = g_format_size_full (sizes[k], G_FORMAT_SIZE_IEC_UNITS);
      g_string_append_printf (points, "%s%s %.1fus", k ? ", " : "", size, us (times[k]));
      g_free (size);
    }
  CalibLinkFit fit;
  if (!calib_fit_link (sizes, times, n_sizes, &fit))
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_PROBE,
                   "%s copies gave no usable fit (times: %s)", name, points->str);
      g_string_free (points, TRUE);
      return FALSE;
    }
  link->latency = fit.latency;
  link->bandwidth = fit.bandwidth;
  char *bw_key = g_strdup_printf ("copy.%s_bandwidth", name);
  char *lat_key = g_strdup_printf ("copy.%s_latency", name);
  note (b, bw_key, "measured: least-squares fit of latency + bytes/bandwidth (weights 1/t^2) "
        "over 4 KiB..%s, trials interleaved across sizes, %s;\nmedian times: %s;\n"
        "largest misfit %.1f%%",
        n_sizes == N_SIZES ? "256 MiB" : "64 MiB", sweep_method (memory), points->str,
        100 * fit.max_residual);
  note (b, lat_key, "measured: intercept of the same fit (%.2f us; bandwidth %.3f GB/s)",
        us (fit.latency), fit.bandwidth / 1e9);
  g_free (bw_key);
  g_free (lat_key);
  g_string_free (points, TRUE);
  return TRUE;
}

/* Two big copies issued back to back in two idle streams; each one's time
 * from the event before it to the event after it. */
static gboolean
time_pair (Bench *b, SchedCopyDir d1, SchedCopyDir d2, SimTime s[2], SimTime e[2],
           GError **error)
{
  void *dst1, *dst2;
  const void *src1, *src2;
  enum cudaMemcpyKind k1, k2;
  copy_args (b, d1, b->pinned, &dst1, &src1, &k1);
  copy_args (b, d2, b->pinned, &dst2, &src2, &k2);
  if (d1 == d2 && d1 == SCHED_DIR_D2H)
    dst2 = b->pinned2;
  if (d1 == d2 && d1 == SCHED_DIR_H2D)
    src2 = b->pinned2;
  if (!VAL_CUDA (cudaEventRecord (b->ev[0], b->a), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst1, src1, BIG, k1, b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[2], b->b), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst2, src2, BIG, k2, b->b), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[3], b->b), error)
      || !VAL_CUDA (cudaDeviceSynchronize (), error))
    return FALSE;
  s[0] = 0;
  return elapsed (b->ev[0], b->ev[1], &e[0], error) && elapsed (b->ev[0], b->ev[2], &s[1], error)
         && elapsed (b->ev[0], b->ev[3], &e[1], error);
}

static gboolean
time_solo (Bench *b, SchedCopyDir d, SimTime *ns, GError **error)
{
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;
  copy_args (b, d, b->pinned, &dst, &src, &k);
  return time_copy_between_events (b, dst, src, BIG, k, ns, error);
}

static gboolean
bench_duplex (Bench *b, GError **error)
{
  enum { T = 5 };
  SimTime solo_h[T], solo_d[T], both_h[T], both_d[T];
  double ov[T];
  for (int t = 0; t < T; t++)
    {
      SimTime s[2], e[2];
      if (!time_solo (b, SCHED_DIR_H2D, &solo_h[t], error)
          || !time_solo (b, SCHED_DIR_D2H, &solo_d[t], error)
          || !time_pair (b, SCHED_DIR_H2D, SCHED_DIR_D2H, s, e, error))
        return FALSE;
      both_h[t] = e[0] - s[0];
      both_d[t] = e[1] - s[1];
      ov[t] = calib_fit_overlap (s[0], e[0], s[1], e[1]);
    }
  SimTime sh = calib_fit_median (solo_h, T), sd = calib_fit_median (solo_d, T);
  SimTime bh = calib_fit_median (both_h, T), bd = calib_fit_median (both_d, T);
  double overlap = calib_fit_median_double (ov, T);
  b->prof.duplex_factor = calib_fit_duplex (sh, bh, sd, bd);
  note (b, "copy.duplex_factor",
        "measured: 64 MiB H2D and 64 MiB D2H (pinned) issued together in two streams: "
        "H2D %.1f us alone, %.1f us together; D2H %.1f us alone, %.1f us together; "
        "they overlapped %.0f%% (median of %d); factor = mean of alone/together",
        us (sh), us (bh), us (sd), us (bd), 100 * overlap, T);

  int engines = b->dev->prop.asyncEngineCount;
  b->prof.copy_engines = (guint) CLAMP (engines, 1, 8);
  note (b, "copy.engines",
        "cudaDeviceProp.asyncEngineCount = %d; checked: opposite directions %s (overlap %.0f%%)",
        engines, overlap > 0.5 ? "ran together" : "did NOT run together", 100 * overlap);

  /* Same direction from two streams: serial or side by side? Informational:
   * the model serializes them (one engine per direction). */
  const SchedCopyDir dirs[2] = { SCHED_DIR_H2D, SCHED_DIR_D2H };
  GString *text = g_string_new (NULL);
  for (int d = 0; d < 2; d++)
    {
      double o[T];
      SimTime span[T];
      for (int t = 0; t < T; t++)
        {
          SimTime s[2], e[2];
          if (!time_pair (b, dirs[d], dirs[d], s, e, error))
            {
              g_string_free (text, TRUE);
              return FALSE;
            }
          o[t] = calib_fit_overlap (s[0], e[0], s[1], e[1]);
          span[t] = MAX (e[0], e[1]) - MIN (s[0], s[1]);
        }
      g_string_append_printf (text, "%s%s: two 64 MiB copies in two streams overlapped %.0f%%, "
                              "took %.1f us together (%.2f x one alone)", d ? "; " : "",
                              d ? "D2H" : "H2D", 100 * calib_fit_median_double (o, T),
                              us (calib_fit_median (span, T)),
                              (double) calib_fit_median (span, T) / (double) (d ? sd : sh));
    }
  note (b, "copy", "[copy] measured by streamsim-validate --calibrate.\nSame direction from two "
        "streams (the model runs them one after the other): %s", text->str);
  g_string_free (text, TRUE);
  return TRUE;
}

/* Median duration of `n` calls of one kind, in batches with a sync between
 * so that no queue fills up. */
typedef enum
{
  CALL_LAUNCH,
  CALL_LAUNCH_ROTATE,       /* into four streams in turn */
  CALL_MEMCPY_ASYNC,
  CALL_MEMCPY_ASYNC_ROTATE, /* into two streams in turn */
  CALL_RECORD,
  CALL_WAIT,
  CALL_SYNC_IDLE,
} CallKind;

/* A call's cost: the time from one call to the next, the median over the
 * batches of each batch's mean (calib_fit_median_of_means says why). */
static gboolean
time_calls (Bench *b, CallKind kind, SimTime *cost, GError **error)
{
  SimTime *t = g_new (SimTime, HOST_CALLS);
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;
  copy_args (b, SCHED_DIR_H2D, b->pinned, &dst, &src, &k);
  gboolean ok = VAL_CUDA (cudaEventRecord (b->plain, b->b), error)
                && VAL_CUDA (cudaDeviceSynchronize (), error);
  /* One clock read between calls, as the harness issues a schedule: each
   * call's cost includes one read of the host clock, which the harness also
   * adds to every op it measures. */
  SimTime t0 = val_cuda_now ();
  for (int i = 0; i < HOST_CALLS && ok; i++)
    {
      cudaError_t rc = cudaSuccess;
      switch (kind)
        {
        case CALL_LAUNCH:
          rc = spin_launch (1, 32, 0, b->a, 0, NULL);
          break;
        case CALL_LAUNCH_ROTATE:
          rc = spin_launch (1, 32, 0, b->rot[i % 4], 0, NULL);
          break;
        case CALL_MEMCPY_ASYNC:
          rc = cudaMemcpyAsync (dst, src, SMALL, k, b->a);
          break;
        case CALL_MEMCPY_ASYNC_ROTATE:
          rc = cudaMemcpyAsync (dst, src, SMALL, k, b->rot[i % 2]);
          break;
        case CALL_RECORD:
          rc = cudaEventRecord (b->plain, b->a);
          break;
        case CALL_WAIT:
          rc = cudaStreamWaitEvent (b->a, b->plain, 0);
          break;
        case CALL_SYNC_IDLE:
          rc = cudaStreamSynchronize (b->a);
          break;
        }
      SimTime t1 = val_cuda_now ();
      t[i] = t1 - t0;
      t0 = t1;
      ok = VAL_CUDA (rc, error);
      /* Work between calls (a fresh record to wait on, a sync after each
       * batch) must not count: restart the clock after it. */
      if (ok && kind == CALL_WAIT)
        ok = VAL_CUDA (cudaEventRecord (b->plain, b->b), error);
      if (ok && (i + 1) % HOST_BATCH == 0)
        ok = VAL_CUDA (cudaDeviceSynchronize (), error);
      if (kind == CALL_WAIT || (i + 1) % HOST_BATCH == 0)
        t0 = val_cuda_now ();
    }
  if (ok)
    *cost = calib_fit_median_of_means (t, HOST_CALLS, HOST_BATCH);
  g_free (t);
  return ok;
}

static gboolean
bench_host_calls (Bench *b, GError **error)
{
  SimTime idle_sync = 0;
  if (!time_calls (b, CALL_LAUNCH, &b->launch_one, error)
      || !time_calls (b, CALL_LAUNCH_ROTATE, &b->prof.host_kernel_launch, error)
      || !time_calls (b, CALL_MEMCPY_ASYNC, &b->memcpy_one, error)
      || !time_calls (b, CALL_MEMCPY_ASYNC_ROTATE, &b->prof.host_memcpy_async, error)
      || !time_calls (b, CALL_RECORD, &b->prof.host_event_record, error)
      || !time_calls (b, CALL_WAIT, &b->prof.host_stream_wait, error)
      || !time_calls (b, CALL_SYNC_IDLE, &idle_sync, error))
    return FALSE;
  SimTime reads[1000];
  for (int i = 0; i < 1000; i++)
    {
      SimTime a = val_cuda_now ();
      reads[i] = val_cuda_now () - a;
    }
  note (b, "host", "[host] measured: time from one call to the next over %d calls, in "
        "batches of %d with a cudaDeviceSynchronize between; the median over the batches of "
        "each batch's mean (a host-bound run pays the mean); it includes one read of the "
        "host clock (CLOCK_MONOTONIC, %.3f us here), as every op the harness measures does",
        HOST_CALLS, HOST_BATCH, us (calib_fit_median (reads, 1000)));
  /* Programs with several streams alternate between them, and a call into
   * another stream than the previous one costs more: that is the number the
   * suite's multi-stream schedules see. */
  note (b, "host.kernel_launch", "measured: launch of an empty 1-block kernel into four streams "
        "in turn, %.2f us; into one stream %.2f us", us (b->prof.host_kernel_launch),
        us (b->launch_one));
  note (b, "host.memcpy_async", "measured: cudaMemcpyAsync of 4 KiB pinned H2D into two streams "
        "in turn, %.2f us; into one stream %.2f us", us (b->prof.host_memcpy_async),
        us (b->memcpy_one));
  note (b, "host.event_record", "measured: cudaEventRecord (timing disabled), %.2f us",
        us (b->prof.host_event_record));
  note (b, "host.stream_wait", "measured: cudaStreamWaitEvent on a completed event, %.2f us",
        us (b->prof.host_stream_wait));

  /* host.sync: a sync returns this long after its condition holds: a 50 us
   * kernel, then cudaStreamSynchronize; its return minus the kernel's end. */
  SimTime t[LAT_TRIALS];
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!reset_slots (b, 1, error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 50000ull, &b->slots[0]), error)
          || !VAL_CUDA (cudaStreamSynchronize (b->a), error))
        return FALSE;
      SimTime back = val_cuda_now ();
      if (!read_slots (b, 1, error))
        return FALSE;
      t[i] = back - val_clock_from_gpu (b->clock, b->slots_host[0].end);
    }
  SimTime wake = calib_fit_median (t, LAT_TRIALS);
  b->prof.host_sync = MAX (wake, 0);
  note (b, "host.sync", "measured: cudaStreamSynchronize returned %.2f us after the kernel it "
        "waited for ended (globaltimer tied to the host clock; median of %d); the call on an "
        "idle stream takes %.2f us", us (wake), LAT_TRIALS, us (idle_sync));
  return TRUE;
}

static gboolean
bench_latencies (Bench *b, GError **error)
{
  SimTime t[LAT_TRIALS], raw[LAT_TRIALS];
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;

  /* launch: first block start - (call start + host.kernel_launch). */
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!reset_slots (b, 1, error))
        return FALSE;
      SimTime t0 = val_cuda_now ();
      if (!VAL_CUDA (spin_launch (1, 32, 0, b->a, 0, &b->slots[0]), error)
          || !read_slots (b, 1, error))
        return FALSE;
      raw[i] = val_clock_from_gpu (b->clock, b->slots_host[0].start) - t0;
    }
  SimTime launch = calib_fit_median (raw, LAT_TRIALS);
  b->prof.launch_latency = MAX (0, launch - b->launch_one);
  note (b, "latency.launch", "measured: an idle GPU started a 1-block kernel %.2f us after the "
        "launch call began (median of %d); minus the call's %.2f us (one stream)", us (launch),
        LAT_TRIALS, us (b->launch_one));

  /* copy_submit: a 4 KiB H2D into an idle stream ends host.memcpy_async +
   * copy_submit + latency + bytes/bandwidth after its call began. */
  copy_args (b, SCHED_DIR_H2D, b->pinned, &dst, &src, &k);
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!VAL_CUDA (cudaDeviceSynchronize (), error))
        return FALSE;
      SimTime t0 = val_cuda_now ();
      SimTime end;
      if (!VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->a), error)
          || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
          || !VAL_CUDA (cudaStreamSynchronize (b->a), error)
          || !val_clock_from_event (b->clock, b->ev[1], &end, error))
        return FALSE;
      raw[i] = end - t0;
    }
  SimTime copy_total = calib_fit_median (raw, LAT_TRIALS);
  SimTime copy4k = b->prof.h2d_pinned.latency
                   + (SimTime) ((double) SMALL / b->prof.h2d_pinned.bandwidth * 1e9);
  b->prof.copy_submit = MAX (0, copy_total - b->memcpy_one - copy4k);
  note (b, "latency.copy_submit", "measured: a 4 KiB pinned H2D into an idle stream ended %.2f us "
        "after its call began (median of %d); minus the call's %.2f us (one stream) and the "
        "copy's own %.2f us", us (copy_total), LAT_TRIALS, us (b->memcpy_one), us (copy4k));

  /* host.memcpy_sync: cudaMemcpy returns memcpy_sync after its copy ends. */
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      SimTime t0 = val_cuda_now ();
      if (!VAL_CUDA (cudaMemcpy (dst, src, SMALL, k), error))
        return FALSE;
      raw[i] = val_cuda_now () - t0;
    }
  SimTime sync_total = calib_fit_median (raw, LAT_TRIALS);
  b->prof.host_memcpy_sync = MAX (0, sync_total - b->memcpy_one - b->prof.copy_submit - copy4k);
  note (b, "host.memcpy_sync", "measured: cudaMemcpy of 4 KiB pinned H2D took %.2f us (median of "
        "%d); minus the async call's cost, latency.copy_submit and the copy itself",
        us (sync_total), LAT_TRIALS);

  /* dependency: kernel end -> a 4 KiB D2H behind it in the same stream. */
  copy_args (b, SCHED_DIR_D2H, b->pinned, &dst, &src, &k);
  SimTime copy4k_d2h = b->prof.d2h_pinned.latency
                       + (SimTime) ((double) SMALL / b->prof.d2h_pinned.bandwidth * 1e9);
  SimTime cross[LAT_TRIALS];
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      SimTime end, end2;
      if (!reset_slots (b, 2, error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 30000ull, &b->slots[0]), error)
          || !VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->a), error)
          || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
          /* across streams through an event: kernel in a, record, wait in b, copy in b */
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 30000ull, &b->slots[1]), error)
          || !VAL_CUDA (cudaEventRecord (b->plain, b->a), error)
          || !VAL_CUDA (cudaStreamWaitEvent (b->b, b->plain, 0), error)
          || !VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->b), error)
          || !VAL_CUDA (cudaEventRecord (b->ev[2], b->b), error)
          || !read_slots (b, 2, error)
          || !val_clock_from_event (b->clock, b->ev[1], &end, error)
          || !val_clock_from_event (b->clock, b->ev[2], &end2, error))
        return FALSE;
      t[i] = end - val_clock_from_gpu (b->clock, b->slots_host[0].end) - copy4k_d2h;
      cross[i] = end2 - val_clock_from_gpu (b->clock, b->slots_host[1].end) - copy4k_d2h;
    }
  SimTime dep = calib_fit_median (t, LAT_TRIALS), dep_cross = calib_fit_median (cross, LAT_TRIALS);
  b->prof.dependency_latency = MAX (0, dep);
  note (b, "latency.dependency", "measured: a 4 KiB D2H queued behind a kernel in the same stream "
        "ended %.2f us after the kernel plus the copy's own %.2f us (median of %d); through an "
        "event into another stream: %.2f us", us (dep), us (copy4k_d2h), LAT_TRIALS,
        us (dep_cross));

  /* kernel_gap: a kernel queued behind a kernel of the same stream; and
   * behind a kernel of another stream through an event, for comparison. */
  if (!val_clock_sync (b->clock, error))
    return FALSE;
  for (int i = 0; i < LAT_TRIALS; i++)
    {
      if (!reset_slots (b, 4, error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 50000ull, &b->slots[0]), error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 0, &b->slots[1]), error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 50000ull, &b->slots[2]), error)
          || !VAL_CUDA (cudaEventRecord (b->plain, b->a), error)
          || !VAL_CUDA (cudaStreamWaitEvent (b->b, b->plain, 0), error)
          || !VAL_CUDA (spin_launch (1, 32, 0, b->b, 0, &b->slots[3]), error)
          || !read_slots (b, 4, error))
        return FALSE;
      t[i] = (SimTime) (b->slots_host[1].start - b->slots_host[0].end);
      cross[i] = (SimTime) (b->slots_host[3].start - b->slots_host[2].end);
    }
  SimTime gap = calib_fit_median (t, LAT_TRIALS), gap_cross = calib_fit_median (cross, LAT_TRIALS);
  b->prof.kernel_gap = MAX (0, gap);
  note (b, "latency.kernel_gap", "measured: a kernel queued behind a kernel of its stream started "
        "%.2f us after it ended (globaltimer, median of %d); behind a kernel of another stream "
        "through an event: %.2f us", us (gap), LAT_TRIALS, us (gap_cross));
  return TRUE;
}

/* Fermi's deferred completion: a D2H waiting on a short kernel, while a long
 * kernel of another stream was launched right after the short one. */
static gboolean
bench_deferred (Bench *b, GError **error)
{
  void *dst;
  const void *src;
  enum cudaMemcpyKind k;
  copy_args (b, SCHED_DIR_D2H, b->pinned, &dst, &src, &k);
  SimTime end, long_end;
  if (!val_clock_sync (b->clock, error) || !reset_slots (b, 2, error)
      || !VAL_CUDA (spin_launch (1, 32, 0, b->a, 100000ull, &b->slots[0]), error)
      || !VAL_CUDA (spin_launch (1, 32, 0, b->b, 1000000ull, &b->slots[1]), error)
      || !VAL_CUDA (cudaMemcpyAsync (dst, src, SMALL, k, b->a), error)
      || !VAL_CUDA (cudaEventRecord (b->ev[1], b->a), error)
      || !read_slots (b, 2, error)
      || !val_clock_from_event (b->clock, b->ev[1], &end, error))
    return FALSE;
  long_end = val_clock_from_gpu (b->clock, b->slots_host[1].end);
  b->prof.deferred_completion = end >= long_end;
  note (b, "kernel.deferred_completion", "measured: a D2H behind a 100 us kernel ended %.1f us "
        "%s the 1 ms kernel launched after it in another stream ended",
        us (ABS (long_end - end)), end >= long_end ? "after" : "before");
  return TRUE;
}

static void
fill_kernel_limits (Bench *b)
{
  const struct cudaDeviceProp *p = &b->dev->prop;
  EngProfile *f = &b->prof;
  f->sm_count = (guint) p->multiProcessorCount;
  f->max_threads_per_sm = (guint) p->maxThreadsPerMultiProcessor;
  f->max_blocks_per_sm = (guint) p->maxBlocksPerMultiProcessor;
  f->smem_per_sm = p->sharedMemPerMultiprocessor;
  f->regs_per_sm = (guint) p->regsPerMultiprocessor;
  f->max_threads_per_block = (guint) p->maxThreadsPerBlock;
  f->max_smem_per_block = p->sharedMemPerBlockOptin;
  note (b, "kernel", "[kernel] limits from cudaGetDeviceProperties (multiProcessorCount, "
        "maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor, sharedMemPerMultiprocessor, "
        "regsPerMultiprocessor, maxThreadsPerBlock, sharedMemPerBlockOptin); each block also "
        "reserves %zu bytes of shared memory (reservedSharedMemPerBlock), which the model "
        "does not count", p->reservedSharedMemPerBlock);
}

static gboolean
bench_kernel_keys (Bench *b, GError **error)
{
  int regs = 0;
  if (!VAL_CUDA (spin_registers (&regs), error))
    return FALSE;
  /* Registers are allocated per warp in units of 256, i.e. per thread in
   * units of 8: the count the occupancy rule sees. */
  b->prof.default_regs = (guint) CLAMP ((regs + 7) / 8 * 8, 1, 255);
  note (b, "kernel.default_regs", "the harness's spin kernel uses %d registers per thread, "
        "allocated as %u (warps take registers in units of 256)", regs, b->prof.default_regs);

  b->prof.max_concurrent_kernels = probes.max_concurrent > 0 ? probes.max_concurrent : 128;
  note (b, "kernel.max_concurrent_kernels", "measured: 160 single-block 5 ms kernels in 160 "
        "streams (32 connections): at most %u ran at once (the programming guide says 128 for "
        "compute capability 9.0)", probes.max_concurrent);

  /* Not measured (-1): the model's default, kernels of one connection overlap. */
  b->prof.connection_serializes = probes.overlap_one_connection >= 0
                                  && probes.overlap_one_connection < 0.5;
  note (b, "kernel.connection_serializes", "measured: two kernels of %d blocks x %d threads "
        "(half of every SM each) in two streams overlapped %.0f%% with "
        "CUDA_DEVICE_MAX_CONNECTIONS=1 (one connection) and %.0f%% with 8 (one each)",
        b->dev->prop.multiProcessorCount,
        MIN (b->dev->prop.maxThreadsPerMultiProcessor / 2, b->dev->prop.maxThreadsPerBlock),
        100 * probes.overlap_one_connection, 100 * probes.overlap_two_connections);
  return TRUE;
}

static void
fill_queues (Bench *b)
{
  b->prof.default_connections = probes.default_connections > 0 ? probes.default_connections : 8;
  b->prof.max_connections = MAX (probes.connections32 > 0 ? probes.connections32 : 32,
                                 b->prof.default_connections);
  note (b, "queues", "[queues] measured: stream 0 holds its connection with a kernel waiting "
        "behind a 2 ms kernel; streams 1..64 then launch one kernel each, 2 ms long (every "
        "connection busy) or 10 us (connections mostly idle); the streams held back share "
        "stream 0's connection");
  note (b, "queues.default_connections", "measured with CUDA_DEVICE_MAX_CONNECTIONS unset: "
        "held back: streams %s (%s)%s; with 10 us kernels: %s",
        probes.delayed_default,
        probes.rr_default ? "round-robin in creation order" : "NOT a round-robin pattern",
        probes.default_connections > 0 ? "" : "; no stream held back, 8 assumed",
        probes.cold_default ? probes.cold_default : "not measured");
  note (b, "queues.max_connections", "measured with CUDA_DEVICE_MAX_CONNECTIONS=32: held back: "
        "streams %s (%s), with 10 us kernels %s; with 4: streams %s (%s), with 10 us kernels %s",
        probes.delayed32, probes.rr32 ? "round-robin" : "NOT round-robin",
        probes.cold32 ? probes.cold32 : "not measured", probes.delayed4,
        probes.rr4 ? "round-robin" : "NOT round-robin", probes.cold4 ? probes.cold4 : "not measured");
}

static gboolean
bench_open (Bench *b, const ValDevice *dev, GError **error)
{
  b->dev = dev;
  b->comments = g_ptr_array_new_with_free_func (g_free);
  if (!VAL_CUDA (cudaStreamCreateWithFlags (&b->a, cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->b, cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->rot[2], cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->rot[3], cudaStreamNonBlocking), error)
      || !VAL_CUDA (cudaStreamCreateWithFlags (&b->helper, cudaStreamNonBlocking), error))
    return FALSE;
  b->rot[0] = b->a;
  b->rot[1] = b->b;
  for (int i = 0; i < 6; i++)
    if (!VAL_CUDA (cudaEventCreate (&b->ev[i]), error))
      return FALSE;
  if (!VAL_CUDA (cudaEventCreateWithFlags (&b->plain, cudaEventDisableTiming), error)
      || !VAL_CUDA (cudaMalloc (&b->dev_src, MAX_SIZE), error)
      || !VAL_CUDA (cudaMalloc (&b->dev_dst, MAX_SIZE), error)
      || !VAL_CUDA (cudaMallocHost (&b->pinned, MAX_SIZE), error)
      || !VAL_CUDA (cudaMallocHost (&b->pinned2, BIG), error)
      || !VAL_CUDA (cudaMalloc ((void **) &b->slots, N_SLOTS * sizeof (SpinSlot)), error)
      || !VAL_CUDA (spin_configure (dev->prop.sharedMemPerBlockOptin), error))
    return FALSE;
  b->pageable = malloc (MAX_SIZE);
  if (b->pageable == NULL)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "cannot allocate 256 MiB of host memory");
      return FALSE;
    }
  memset (b->pageable, 1, MAX_SIZE);
  memset (b->pinned, 1, MAX_SIZE);
  memset (b->pinned2, 1, BIG);
  b->slots_host = g_new0 (SpinSlot, N_SLOTS);
  b->clock = val_clock_new (b->helper, error);
  return b->clock != NULL && VAL_CUDA (cudaMemset (b->dev_src, 1, MAX_SIZE), error);
}

static void
bench_close (Bench *b)
{
  cudaDeviceSynchronize ();
  val_clock_free (b->clock);
  for (int i = 0; i < 6; i++)
    if (b->ev[i] != NULL)
      cudaEventDestroy (b->ev[i]);
  for (int i = 2; i < 4; i++)
    if (b->rot[i] != NULL)
      cudaStreamDestroy (b->rot[i]);
  if (b->plain != NULL)
    cudaEventDestroy (b->plain);
  cudaFree (b->dev_src);
  cudaFree (b->dev_dst);
  cudaFreeHost (b->pinned);
  cudaFreeHost (b->pinned2);
  cudaFree (b->slots);
  free (b->pageable);
  g_free (b->slots_host);
  if (b->comments != NULL)
    g_ptr_array_unref (b->comments);
  eng_profile_clear (&b->prof);
}

static char *
profile_name_of (const char *path)
{
  char *base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".ini"))
    base[strlen (base) - 4] = '\0';
  return base;
}

gboolean
val_calibrate_run (const ValDevice *dev, const char *path, GError **error)
{
  g_return_val_if_fail (probes.done, FALSE);

  Bench b = { 0 };
  gboolean ok = bench_open (&b, dev, error);
  SimTime started = val_cuda_now ();
  if (ok)
    {
      /* A warm-up pass of everything the benchmarks call. */
      SimTime t;
      ok = time_copy (&b, SCHED_DIR_H2D, HOST_PINNED, MiB, &t, error)
           && time_copy (&b, SCHED_DIR_D2H, HOST_PAGEABLE, MiB, &t, error)
           && val_clock_sync (b.clock, error);
    }
  unsigned long long resolution = 0, *res_dev = NULL;
  if (ok)
    ok = VAL_CUDA (cudaMalloc ((void **) &res_dev, sizeof *res_dev), error)
         && VAL_CUDA (spin_resolution (res_dev, 100000, b.a), error)
         && VAL_CUDA (cudaStreamSynchronize (b.a), error)
         && VAL_CUDA (cudaMemcpy (&resolution, res_dev, sizeof resolution,
                                  cudaMemcpyDeviceToHost), error);
  cudaFree (res_dev);

  if (ok)
    {
      fprintf (stderr, "calibrate: copies\n");
      ok = sweep_link (&b, SCHED_DIR_H2D, HOST_PINNED, &b.prof.h2d_pinned, "h2d_pinned", error)
           && sweep_link (&b, SCHED_DIR_D2H, HOST_PINNED, &b.prof.d2h_pinned, "d2h_pinned", error)
           && sweep_link (&b, SCHED_DIR_H2D, HOST_PAGEABLE, &b.prof.h2d_pageable, "h2d_pageable",
                          error)
           && sweep_link (&b, SCHED_DIR_D2H, HOST_PAGEABLE, &b.prof.d2h_pageable, "d2h_pageable",
                          error)
           && sweep_link (&b, SCHED_DIR_H2D, HOST_UNTOUCHED, &b.prof.h2d_untouched,
                          "h2d_untouched", error)
           && sweep_link (&b, SCHED_DIR_D2H, HOST_UNTOUCHED, &b.prof.d2h_untouched,
                          "d2h_untouched", error)
           && sweep_link (&b, SCHED_DIR_D2D, HOST_PINNED, &b.prof.d2d, "d2d", error)
           && bench_duplex (&b, error);
    }
  if (ok)
    {
      fprintf (stderr, "calibrate: host calls and latencies\n");
      ok = bench_host_calls (&b, error) && bench_latencies (&b, error)
           && bench_deferred (&b, error);
    }
  if (ok)
    {
      fprintf (stderr, "calibrate: limits\n");
      fill_kernel_limits (&b);
      fill_queues (&b);
      ok = bench_kernel_keys (&b, error);
    }
  if (ok)
    {
      char *name = profile_name_of (path);
      g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
      b.prof.names[0] = name;
      b.prof.description = g_strdup_printf ("%s, calibrated by streamsim-validate", dev->gpu);
      b.prof.gpu = g_strdup (dev->gpu);
      b.prof.driver = g_strdup (dev->driver);
      b.prof.cuda = g_strdup (dev->cuda);
      b.prof.date = g_date_time_format_iso8601 (now);
      b.prof.source = g_strdup_printf (
        "streamsim-validate --calibrate (%.1f s of benchmarks); globaltimer resolution %llu ns; "
        "CUDA_DEVICE_MAX_CONNECTIONS %s", (double) (val_cuda_now () - started) / 1e9,
        resolution, g_getenv ("CUDA_DEVICE_MAX_CONNECTIONS") ? g_getenv ("CUDA_DEVICE_MAX_CONNECTIONS") : "unset");
      note (&b, "info", "[info] the GPU and software of the measurements");
      g_ptr_array_add (b.comments, NULL);
      ok = profile_save (&b.prof, path, (const char *const *) b.comments->pdata, error);
      if (ok)
        fprintf (stderr, "calibrate: wrote %s\n", path);
    }
  bench_close (&b);
  return ok;
}
