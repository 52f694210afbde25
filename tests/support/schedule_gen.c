/* schedule_gen.c: writes random valid schedules from a seed, for benchmarks and property tests.
 *
 * The text is built statement by statement into one GString; the numbers are
 * formatted by hand because a benchmark asks for ten million statements and
 * printf per field would dominate the time it takes to produce them.
 *
 * Randomness comes from splitmix64 rather than GRand so that a seed names the
 * same schedule on every GLib version and machine (a failing property test
 * must be reproducible from its seed alone). For the same reason nothing here
 * uses floating point: log-uniform draws pick a power-of-two range first and
 * then a value inside it, which needs no libm. */
#include "schedule_gen.h"

#include <string.h>
#include "sim/core/str_append.h"

typedef struct
{
  guint64 state;
} GenRand;

static guint64
gen_next (GenRand *r)
{
  guint64 z = (r->state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n > 0), by multiply-and-shift; the bias, below 2^-32,
 * does not matter for test inputs. */
static guint32
gen_below (GenRand *r, guint32 n)
{
  return (guint32) (((gen_next (r) >> 32) * n) >> 32);
}

static gboolean
gen_percent (GenRand *r, guint pct)
{
  return gen_below (r, 100) < pct;
}

static guint
bit_width (guint64 v)
{
  guint bits = 0;
  while (v != 0)
    {
      bits++;
      v >>= 1;
    }
  return bits;
}

/* Roughly log-uniform in lo..hi (1 <= lo <= hi): a uniform bit width, then a
 * uniform value of that width, clamped to the range. */
static guint64
gen_log_uniform (GenRand *r, guint64 lo, guint64 hi)
{
  guint blo = bit_width (lo), bhi = bit_width (hi);
  guint b = blo + gen_below (r, bhi - blo + 1);
  guint64 base = (guint64) 1 << (b - 1);
  guint64 v = base + (gen_next (r) & (base - 1));
  return CLAMP (v, lo, hi);
}

/* A size as people write it, in one of several units so that the parser's
 * unit handling is exercised: 4MiB, 512KiB, 3MB, 123456 (bytes). */
static void
append_size (GString *s, GenRand *r, guint64 bytes)
{
  switch (gen_below (r, 4))
    {
    case 0:
      if (bytes >= 1024 * 1024)
        {
          str_append_uint (s, bytes >> 20);
          g_string_append (s, "MiB");
          return;
        }
      /* fall through */
    case 1:
      if (bytes >= 1024)
        {
          str_append_uint (s, bytes >> 10);
          g_string_append (s, "KiB");
          return;
        }
      break;
    case 2:
      if (bytes >= 1000 * 1000)
        {
          str_append_uint (s, bytes / 1000000);
          g_string_append (s, "MB");
          return;
        }
      break;
    default:
      break;
    }
  str_append_uint (s, bytes);
  g_string_append_c (s, 'B');
}

/* A duration in ns, written in us when it is whole microseconds, else in ns,
 * or as a decimal in ms. */
static void
append_time (GString *s, GenRand *r, guint64 ns)
{
  if (ns % 1000 == 0 && gen_below (r, 4) != 0)
    {
      if (ns % 100000 == 0 && gen_below (r, 2) == 0)
        {
          /* decimal milliseconds: 1.2ms, 0.4ms */
          str_append_uint (s, ns / 1000000);
          g_string_append_c (s, '.');
          str_append_uint (s, ns / 100000 % 10);
          g_string_append (s, "ms");
          return;
        }
      str_append_uint (s, ns / 1000);
      g_string_append (s, "us");
      return;
    }
  str_append_uint (s, ns);
  g_string_append (s, "ns");
}

#define N_LABELS 16

static void
append_label (GString *s, GenRand *r, guint pct)
{
  if (!gen_percent (r, pct))
    return;
  g_string_append (s, " label=op-");
  str_append_uint (s, gen_below (r, N_LABELS));
}

typedef struct
{
  guint32 grid;
  guint block;
  guint smem; /* 0: none */
  guint regs; /* 0: none */
  GString *timing; /* " block_time=..." or " time=..." */
} KernelType;

static void
kernel_type_init (KernelType *k, GenRand *r, const ScheduleGenOptions *o)
{
  static const guint blocks[] = { 32, 64, 128, 128, 192, 256, 256, 256, 384, 512, 512, 1024 };

  k->grid = o->big_kernels ? SCHEDULE_GEN_BIG_GRID
                           : (guint32) gen_log_uniform (r, 1, MAX (o->max_grid, 1));
  do
    k->block = gen_below (r, 4) == 0 ? 1 + gen_below (r, o->max_block)
                                     : blocks[gen_below (r, G_N_ELEMENTS (blocks))];
  while (k->block > o->max_block);

  k->smem = 0;
  if (o->max_smem >= 1024 && gen_below (r, 2) == 0)
    k->smem = 1024 * (1 + gen_below (r, o->max_smem / 1024));

  /* Registers are counted per warp-rounded block, as the occupancy rule does. */
  guint warps_threads = (k->block + 31) / 32 * 32;
  guint regs_max = MIN (o->max_regs_per_block / warps_threads, 255);
  k->regs = 0;
  if (regs_max >= 8 && gen_below (r, 2) == 0)
    k->regs = 8 + gen_below (r, regs_max - 7);

  /* Isolated times from 1 us to 2 ms; per-device lists scale one time by
   * each device's speed and always end with a fallback entry, so that the
   * kernel runs on any profile. */
  k->timing = g_string_new (NULL);
  guint64 t = gen_log_uniform (r, 1, 2000) * 1000;
  switch (gen_below (r, 3))
    {
    case 0:
      g_string_append (k->timing, " block_time=");
      append_time (k->timing, r, MAX (t / 8, 1));
      break;
    case 1:
      g_string_append (k->timing, " time=");
      append_time (k->timing, r, t);
      break;
    default:
      g_string_append (k->timing, " time=c1060:");
      append_time (k->timing, r, t * 4);
      g_string_append (k->timing, ",c2050:");
      append_time (k->timing, r, t * 2);
      g_string_append (k->timing, ",k20:");
      append_time (k->timing, r, t);
      g_string_append_c (k->timing, ',');
      append_time (k->timing, r, t);
      break;
    }
}

static void
append_kernel (GString *s, GenRand *r, const KernelType *k)
{
  g_string_append (s, " grid=");
  str_append_uint (s, k->grid);
  g_string_append (s, " block=");
  str_append_uint (s, k->block);
  if (k->smem != 0)
    {
      g_string_append (s, " smem=");
      append_size (s, r, k->smem);
    }
  if (k->regs != 0)
    {
      g_string_append (s, " regs=");
      str_append_uint (s, k->regs);
    }
  g_string_append_len (s, k->timing->str, k->timing->len);
}

typedef struct
{
  GenRand rand;
  const ScheduleGenOptions *o;
  GString *s;
  guint n_events;
  gboolean *recorded;
  gboolean *never;       /* never<N> was waited on */
  guint32 last_recorded; /* G_MAXUINT32: none yet */
} Gen;

static void
append_stream (Gen *g)
{
  g_string_append_c (g->s, ' ');
  if (gen_percent (&g->rand, g->o->pct_default_stream))
    g_string_append (g->s, "default");
  else
    {
      g_string_append_c (g->s, 's');
      str_append_uint (g->s, gen_below (&g->rand, g->o->n_streams));
    }
}

/* An event to wait on: mostly one recorded before (so the wait means
 * something), sometimes one that is never recorded (a no-op in CUDA). */
static void
append_event_to_wait (Gen *g)
{
  guint32 e = gen_below (&g->rand, g->n_events);
  if (gen_percent (&g->rand, g->o->pct_never_recorded) || g->last_recorded == G_MAXUINT32)
    {
      g_string_append (g->s, " never");
      str_append_uint (g->s, e);
      g->never[e] = TRUE;
      return;
    }
  if (!g->recorded[e])
    e = g->last_recorded;
  g_string_append (g->s, " e");
  str_append_uint (g->s, e);
}

static void
append_copy (Gen *g, const char *keyword, gboolean on_stream)
{
  GenRand *r = &g->rand;
  g_string_append (g->s, keyword);
  if (on_stream)
    append_stream (g);
  g_string_append_c (g->s, ' ');
  append_size (g->s, r, gen_log_uniform (r, 1024, 16 * 1024 * 1024));
  if (gen_percent (r, g->o->pct_pageable))
    g_string_append (g->s, " pageable");
  else if (gen_below (r, 8) == 0)
    g_string_append (g->s, " pinned");
}

void
schedule_gen_options_init (ScheduleGenOptions *o)
{
  g_return_if_fail (o != NULL);
  memset (o, 0, sizeof *o);
  o->seed = 1;
  o->n_ops = 1000;
  o->n_streams = 8;
  o->mix = (ScheduleGenMix) { .h2d = 24, .d2h = 20, .d2d = 2, .memcpy = 1, .kernel = 36,
                              .record = 7, .wait = 7, .sync = 2, .host = 1 };
  o->kernel_types = 32;
  o->max_grid = 65536;
  o->max_block = 512;
  o->max_smem = 16 * 1024;
  o->max_regs_per_block = 16384;
  o->pct_default_stream = 1;
  o->pct_pageable = 2;
  o->pct_never_recorded = 5;
  o->pct_label = 5;
  o->pct_nonblocking = 10;
  o->pct_priority = 10;
}

void
schedule_gen_append (const ScheduleGenOptions *o, GString *out)
{
  g_return_if_fail (o != NULL && out != NULL);
  g_return_if_fail (o->n_streams >= 1 && o->n_streams <= SCHEDULE_GEN_MAX_STREAMS);
  g_return_if_fail (o->connections <= 32);
  g_return_if_fail (o->max_block >= 1 && o->max_block <= 1024);
  g_return_if_fail (o->kernel_types >= 1);
  const ScheduleGenMix *m = &o->mix;
  guint total = m->h2d + m->d2h + m->d2d + m->memcpy + m->kernel + m->record + m->wait + m->sync
                + m->host;
  g_return_if_fail (total > 0);

  Gen g = { { o->seed }, o, out, 0, NULL, NULL, G_MAXUINT32 };
  GenRand *r = &g.rand;
  GString *s = out;

  g_string_append_printf (s, "# schedule_gen: seed %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                          " ops, %u streams\n", o->seed, o->n_ops, o->n_streams);
  if (o->device != NULL)
    g_string_append_printf (s, "device %s\n", o->device);
  if (o->connections != 0)
    g_string_append_printf (s, "connections %u\n", o->connections);
  for (guint i = 0; i < o->n_streams; i++)
    {
      g_string_append (s, "stream s");
      str_append_uint (s, i);
      if (gen_percent (r, o->pct_priority))
        g_string_append (s, " priority=-1");
      if (gen_percent (r, o->pct_nonblocking))
        g_string_append (s, " nonblocking");
      g_string_append_c (s, '\n');
    }

  KernelType *types = g_new (KernelType, o->kernel_types);
  for (guint i = 0; i < o->kernel_types; i++)
    kernel_type_init (&types[i], r, o);

  /* Events are reused, as programs reuse theirs; a wait names the most
   * recent record of its event. */
  g.n_events = (guint) CLAMP (o->n_ops / 16, 4, 4096);
  g.recorded = g_new0 (gboolean, g.n_events);
  g.never = g_new0 (gboolean, g.n_events);

  for (guint64 i = 0; i < o->n_ops; i++)
    {
      guint pick = gen_below (r, total);
      if (pick < m->h2d)
        append_copy (&g, "h2d", TRUE);
      else if ((pick -= m->h2d) < m->d2h)
        append_copy (&g, "d2h", TRUE);
      else if ((pick -= m->d2h) < m->d2d)
        {
          g_string_append (s, "d2d");
          append_stream (&g);
          g_string_append_c (s, ' ');
          append_size (s, r, gen_log_uniform (r, 1024, 64 * 1024 * 1024));
        }
      else if ((pick -= m->d2d) < m->memcpy)
        {
          static const char *const dirs[] = { "memcpy h2d", "memcpy d2h", "memcpy d2d" };
          append_copy (&g, dirs[gen_below (r, 3)], FALSE);
        }
      else if ((pick -= m->memcpy) < m->kernel)
        {
          g_string_append (s, "kernel");
          append_stream (&g);
          append_kernel (s, r, &types[gen_below (r, o->kernel_types)]);
        }
      else if ((pick -= m->kernel) < m->record)
        {
          guint32 e = gen_below (r, g.n_events);
          g_string_append (s, "record e");
          str_append_uint (s, e);
          append_stream (&g);
          g.recorded[e] = TRUE;
          g.last_recorded = e;
        }
      else if ((pick -= m->record) < m->wait)
        {
          g_string_append (s, "wait");
          append_stream (&g);
          append_event_to_wait (&g);
        }
      else if ((pick -= m->wait) < m->sync)
        {
          g_string_append (s, "sync");
          switch (gen_below (r, 3))
            {
            case 0:
              append_stream (&g);
              break;
            case 1:
              append_event_to_wait (&g);
              break;
            default:
              g_string_append (s, " device");
              break;
            }
        }
      else
        {
          g_string_append (s, "host ");
          append_time (s, r, gen_log_uniform (r, 1, 50) * 1000);
        }
      append_label (s, r, o->pct_label);
      g_string_append_c (s, '\n');
    }

  /* The events waited on but never recorded, declared (LANGUAGE.md): after
   * the ops, where the declarations move no op's line number. */
  for (guint i = 0; i < g.n_events; i++)
    if (g.never[i])
      {
        g_string_append (s, "event never");
        str_append_uint (s, i);
        g_string_append_c (s, '\n');
      }

  for (guint i = 0; i < o->kernel_types; i++)
    g_string_free (types[i].timing, TRUE);
  g_free (types);
  g_free (g.recorded);
  g_free (g.never);
}

char *
schedule_gen_text (const ScheduleGenOptions *o, gsize *length)
{
  g_return_val_if_fail (o != NULL, NULL);
  /* About 30 bytes a statement: one allocation for the usual case. */
  GString *s = g_string_sized_new (256 + o->n_ops * 32 + (gsize) o->n_streams * 32);
  schedule_gen_append (o, s);
  if (length != NULL)
    *length = s->len;
  return g_string_free (s, FALSE);
}
