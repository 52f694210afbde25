/* test_sm.c: the kernel engine's shortcuts against its reference: per-SM placement and batched group ends.
 *
 * eng_sm_place() computes the block scheduler's round robin a dispatch at a
 * time, and eng_kernel.c runs a kernel's pure group ends in batches, so that
 * a kernel of 100,000 blocks costs about as much as one of a few waves
 * (eng_kernel.c). Both must give exactly what the block-by-block scan and
 * one event per group end give. These tests drive the placement directly
 * (eng_sm.h), and compare whole
 * runs with the engine's reference mode (eng_sim_set_reference), on random
 * SM states and random schedules from tests/support/schedule_gen. Every
 * comparison is exact; a failure prints its seed. */
#include <glib.h>
#include <string.h>
#include "engines/eng_sim.h"
#include "engines/eng_sm.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "support/schedule_gen.h"

/* ---- Placement on random SMs ---- */

static void
random_profile (GRand *r, GpuProfile *p)
{
  memset (p, 0, sizeof *p);
  p->sm_count = g_rand_int_range (r, 1, 140);
  p->max_blocks_per_sm = g_rand_int_range (r, 1, 33);
  p->max_threads_per_sm = 32 * g_rand_int_range (r, 8, 65);
  p->smem_per_sm = 1024 * g_rand_int_range (r, 16, 229);
  p->regs_per_sm = 1024 * g_rand_int_range (r, 16, 65);
  p->max_threads_per_block = 1024;
  p->max_smem_per_block = p->smem_per_sm;
  p->default_regs = 16;
}

/* A footprint that fits an empty SM of `p`. */
static void
random_need (GRand *r, const GpuProfile *p, GpuBlockFootprint *need)
{
  do
    {
      need->threads = 32 * g_rand_int_range (r, 1, 33);
      need->smem = g_rand_boolean (r) ? 0 : 256 * g_rand_int_range (r, 1, 64);
      need->regs = need->threads * g_rand_int_range (r, 0, 64);
    }
  while (need->threads > p->max_threads_per_sm || need->smem > p->smem_per_sm
         || need->regs > p->regs_per_sm);
}

static gboolean
fits (const GpuProfile *p, const EngSm *sm, const GpuBlockFootprint *need)
{
  return sm->blocks < p->max_blocks_per_sm && sm->threads + need->threads <= p->max_threads_per_sm
         && (guint64) sm->smem + need->smem <= p->smem_per_sm
         && (guint64) sm->regs + need->regs <= p->regs_per_sm;
}

static void
add (EngSm *sm, const GpuBlockFootprint *need)
{
  sm->blocks++;
  sm->threads += need->threads;
  sm->smem += need->smem;
  sm->regs += need->regs;
}

/* The SMs of `sim` hold `per_sm`. */
static void
assert_sms (const EngSms *sim, const EngSm *per_sm)
{
  guint n = sim->profile->sm_count;
  g_autofree EngSm *got = g_new0 (EngSm, n);
  eng_sm_read (sim, got);
  g_assert_cmpmem (got, n * sizeof (EngSm), per_sm, n * sizeof (EngSm));
}

/* A placement's blocks per SM index; none on the lanes past the last SM,
 * and its chunks exactly those of LANES SMs (eng_sm.c) with blocks. */
static guint32 *
placement_counts (const EngSms *sim, const EngPlacement *pl)
{
  guint n_sms = sim->profile->sm_count, lanes = ENG_SM_LANES;
  guint32 *count = g_new0 (guint32, n_sms);
  for (guint s = 0; s < n_sms; s++)
    count[s] = (guint32) pl->count[s];
  for (guint s = n_sms; s < sim->pad; s++)
    g_assert_cmpuint (pl->count[s], ==, 0);
  guint32 listed = 0;
  for (guint c = 0; c < sim->pad; c += lanes)
    {
      gboolean any = FALSE;
      for (guint s = c; s < c + lanes; s++)
        any |= pl->count[s] != 0;
      if (any)
        g_assert_cmpuint (pl->chunks[listed++], ==, c);
    }
  g_assert_cmpuint (listed, ==, pl->n_chunks);
  return count;
}

/* A placement that stands for the SMs where open[s] is set: eng_sm_place
 * looks only at its chunks. */
static EngPlacement *
placement_over (const EngSms *sim, const gboolean *open)
{
  guint lanes = ENG_SM_LANES;
  EngPlacement *pl = g_malloc0 (sizeof (EngPlacement) + sim->pad / lanes * sizeof (guint16));
  pl->chunks = (guint16 *) (pl + 1);
  for (guint c = 0; c < sim->pad; c += lanes)
    {
      gboolean any = FALSE;
      for (guint s = c; s < c + lanes && s < sim->profile->sm_count; s++)
        any |= open[s];
      if (any)
        pl->chunks[pl->n_chunks++] = (guint16) c;
    }
  return pl;
}

/* Same blocks on the same SMs, same most and mask. */
static void
assert_same_placement (const EngSms *sim, const EngPlacement *a, const EngPlacement *b,
                       guint32 seed)
{
  guint n_sms = sim->profile->sm_count, words = sim->words;
  if (a == NULL || b == NULL)
    {
      if (a != b)
        g_error ("seed %u: one placement is empty, the other is not", seed);
      return;
    }
  g_autofree guint32 *ca = placement_counts (sim, a);
  g_autofree guint32 *cb = placement_counts (sim, b);
  if (a->blocks != b->blocks || a->most != b->most
      || memcmp (ca, cb, n_sms * sizeof (guint32)) != 0
      || memcmp (a->most_mask, b->most_mask, words * sizeof (guint64)) != 0)
    g_error ("seed %u: placements differ (%u blocks, most %u vs %u blocks, most %u)", seed,
             a->blocks, a->most, b->blocks, b->most);
}

/* eng_sm_place equals the block-by-block scan, for random SM loads, shapes,
 * starting SMs and counts wanted; now and then with only some SMs not full
 * for the kernel, as after a group of a kernel that filled the SMs ends
 * (eng_kernel.c's `full_for`). */
static void
test_place_equals_scan (void)
{
  for (guint32 seed = 1; seed <= 3000; seed++)
    {
      g_autoptr (GRand) r = g_rand_new_with_seed (seed);
      GpuProfile p;
      random_profile (r, &p);
      GpuBlockFootprint need, other;
      random_need (r, &p, &need);
      random_need (r, &p, &other);
      EngSmNeed sm_need;
      eng_sm_need (&need, &sm_need);

      EngSms fast, ref;
      eng_sm_init (&fast, &p);
      /* load: random blocks of another shape, then, with `freed`, SMs
       * other than a third of them (`open`) full for this one */
      gboolean freed = g_rand_boolean (r);
      g_autofree gboolean *open = g_new0 (gboolean, p.sm_count);
      /* often neighbours in one state, as after a group's blocks leave:
       * the same load as the SM before */
      gboolean runs = g_rand_boolean (r);
      guint prev_n = 0;
      g_autofree EngSm *load = g_new0 (EngSm, p.sm_count);
      for (guint s = 0; s < p.sm_count; s++)
        {
          guint n = g_rand_int_range (r, 0, p.max_blocks_per_sm + 1);
          if (runs && s > 0 && g_rand_int_range (r, 0, 4) != 0)
            n = prev_n;
          prev_n = n;
          for (guint i = 0; i < n && fits (&p, &load[s], &other); i++)
            add (&load[s], &other);
          open[s] = !freed || g_rand_int_range (r, 0, 3) == 0;
          if (!open[s])
            while (fits (&p, &load[s], &need))
              add (&load[s], &need);
        }
      fast.next = g_rand_int_range (r, 0, p.sm_count);
      guint32 want = g_rand_int_range (r, 0, p.sm_count * p.max_blocks_per_sm * 2 + 2);
      if (g_rand_int_range (r, 0, 4) == 0)
        want = g_rand_int_range (r, 0, p.sm_count + 1); /* a small grid */

      eng_sm_init (&ref, &p);
      eng_sm_load (&fast, load);
      eng_sm_load (&ref, load);
      assert_sms (&fast, load);
      ref.next = fast.next;

      g_autofree EngPlacement *within = freed ? placement_over (&fast, open) : NULL;
      EngPlacement *a = eng_sm_place (&fast, &sm_need, want, within);
      EngPlacement *b = eng_sm_place_one_by_one (&ref, &sm_need, want);
      assert_same_placement (&fast, a, b, seed);
      g_assert_cmpuint (fast.next, ==, ref.next);
      eng_sm_read (&ref, load);
      assert_sms (&fast, load);
      assert_sms (&ref, load);

      /* Filling the same SMs again after the blocks leave, with more wanted
       * than they hold: the shortcut's sm_next equals the scan's. */
      if (a != NULL)
        {
          guint start = g_rand_int_range (r, 0, p.sm_count);
          guint expect_next = eng_sm_next_after_refill (&fast, a, start);
          eng_sm_give_back (&ref, b, &sm_need);
          eng_sm_read (&ref, load);
          ref.next = start;
          EngPlacement *again = eng_sm_place_one_by_one (&ref, &sm_need, G_MAXUINT32 / 2);
          if (again == NULL)
            g_error ("seed %u: nothing placed again", seed);
          /* Only a kernel that filled every SM refills its own SMs exactly. */
          if (want >= a->blocks + 1 && a->blocks == again->blocks)
            {
              assert_same_placement (&fast, a, again, seed);
              g_assert_cmpuint (expect_next, ==, ref.next);
            }
          /* giving back by counts gives back the same, and leaves the
           * placement as it was (its chunks are `within` for what it left) */
          guint32 n_chunks = a->n_chunks, blocks = a->blocks;
          eng_sm_give_back (&fast, a, &sm_need);
          assert_sms (&fast, load);
          g_assert_cmpuint (a->blocks, ==, blocks);
          g_assert_cmpuint (a->n_chunks, ==, n_chunks);
          eng_sm_placement_free (&ref, again);
          eng_sm_placement_free (&fast, a);
          eng_sm_placement_free (&ref, b);
        }
      eng_sm_free (&fast);
      eng_sm_free (&ref);
    }
}

/* The SMs are kept per resource and changed eight at a time (eng_sm.c):
 * random sequences of placements (shortcut and reference) and give-backs in
 * any order, of several shapes, against the same blocks added and taken
 * away SM by SM on a plain array. After every step each SM holds what the
 * plain array says. */
static void
test_state_equals_plain (void)
{
  for (guint32 seed = 1; seed <= 1000; seed++)
    {
      g_autoptr (GRand) r = g_rand_new_with_seed (seed);
      GpuProfile p;
      random_profile (r, &p);
      GpuBlockFootprint needs[3];
      EngSmNeed sm_needs[3];
      for (guint i = 0; i < 3; i++)
        {
          random_need (r, &p, &needs[i]);
          eng_sm_need (&needs[i], &sm_needs[i]);
        }
      EngSms sim;
      eng_sm_init (&sim, &p);
      g_autofree EngSm *plain = g_new0 (EngSm, p.sm_count);
      EngPlacement *live[16];
      guint shape[16], n_live = 0;
      for (guint step = 0; step < 60; step++)
        {
          if (n_live > 0 && (n_live == 16 || g_rand_int_range (r, 0, 3) == 0))
            {
              /* a group leaves, any of them */
              guint i = g_rand_int_range (r, 0, n_live);
              g_autofree guint32 *count = placement_counts (&sim, live[i]);
              for (guint s = 0; s < p.sm_count; s++)
                for (guint32 c = 0; c < count[s]; c++)
                  {
                    plain[s].blocks--;
                    plain[s].threads -= needs[shape[i]].threads;
                    plain[s].smem -= needs[shape[i]].smem;
                    plain[s].regs -= needs[shape[i]].regs;
                  }
              eng_sm_give_back (&sim, live[i], &sm_needs[shape[i]]);
              eng_sm_placement_free (&sim, live[i]);
              live[i] = live[--n_live];
              shape[i] = shape[n_live];
            }
          else
            {
              guint k = g_rand_int_range (r, 0, 3);
              guint32 want = g_rand_int_range (r, 1, p.sm_count * 3 + 2);
              gboolean one_by_one = g_rand_int_range (r, 0, 4) == 0;
              sim.next = g_rand_int_range (r, 0, p.sm_count);
              EngPlacement *pl = one_by_one ? eng_sm_place_one_by_one (&sim, &sm_needs[k], want)
                                            : eng_sm_place (&sim, &sm_needs[k], want, NULL);
              if (pl != NULL)
                {
                  g_autofree guint32 *count = placement_counts (&sim, pl);
                  for (guint s = 0; s < p.sm_count; s++)
                    for (guint32 c = 0; c < count[s]; c++)
                      add (&plain[s], &needs[k]);
                  live[n_live] = pl;
                  shape[n_live++] = k;
                }
            }
          assert_sms (&sim, plain);
        }
      while (n_live > 0)
        eng_sm_placement_free (&sim, live[--n_live]);
      eng_sm_free (&sim);
    }
}

/* Each SM's room for a block, at the top of the profile files' ranges
 * (4,096 threads, 1 MiB of shared memory, 2^20 registers per SM), where the
 * rooms' quotients are closest to losing exactness (eng_sm.c,
 * lanes_quotient): the free amount of each resource just at, just past and
 * just short of a multiple of the block's need. Placing more blocks than fit
 * gives every SM its room, which must be the least of the quotients by
 * integer division, computed here. */
static void
test_rooms_at_range_limits (void)
{
  GpuProfile p;
  memset (&p, 0, sizeof p);
  p.sm_count = 64;
  p.max_blocks_per_sm = 64;
  p.max_threads_per_sm = 4096;
  p.smem_per_sm = 1024 * 1024;
  p.regs_per_sm = 1024 * 1024;
  p.max_threads_per_block = 4096;
  p.max_smem_per_block = p.smem_per_sm;
  p.default_regs = 16;
  const guint64 limit[3] = { p.max_threads_per_sm, p.smem_per_sm, p.regs_per_sm };
  for (guint32 seed = 1; seed <= 2000; seed++)
    {
      g_autoptr (GRand) r = g_rand_new_with_seed (seed);
      /* needs large enough that the quotients, not the 64 slots, decide */
      GpuBlockFootprint need = { 32 * g_rand_int_range (r, 2, 129),
                                 g_rand_int_range (r, 16385, 1024 * 1024 + 1),
                                 g_rand_int_range (r, 16385, 1024 * 1024 + 1) };
      const guint64 per[3] = { need.threads, need.smem, need.regs };
      EngSmNeed sm_need;
      eng_sm_need (&need, &sm_need);
      EngSms sim;
      eng_sm_init (&sim, &p);
      g_autofree EngSm *load = g_new0 (EngSm, p.sm_count);
      g_autofree guint32 *expect = g_new0 (guint32, p.sm_count);
      for (guint s = 0; s < p.sm_count; s++)
        {
          guint64 used[3], room = p.max_blocks_per_sm;
          for (guint i = 0; i < 3; i++)
            {
              /* free = k x need + {0, 1, need - 1}, or anything */
              guint64 k = g_rand_int_range (r, 0, (gint32) (limit[i] / per[i]) + 1);
              const guint64 off[4] = { 0, 1, per[i] - 1, g_rand_int_range (r, 0, (gint32) per[i]) };
              guint64 free = k * per[i] + off[g_rand_int_range (r, 0, 4)];
              free = MIN (free, limit[i]);
              used[i] = limit[i] - free;
              room = MIN (room, free / per[i]);
            }
          load[s] = (EngSm) { (guint32) used[0], 0, (guint32) used[1], (guint32) used[2] };
          expect[s] = (guint32) room;
        }
      eng_sm_load (&sim, load);
      EngPlacement *pl = eng_sm_place (&sim, &sm_need, G_MAXUINT32 / 2, NULL);
      g_autofree guint32 *count = pl != NULL ? placement_counts (&sim, pl) : g_new0 (guint32, p.sm_count);
      for (guint s = 0; s < p.sm_count; s++)
        if (count[s] != expect[s])
          g_error ("seed %u: SM %u got %u blocks, room for %u", seed, s, count[s], expect[s]);
      if (pl != NULL)
        eng_sm_placement_free (&sim, pl);
      eng_sm_free (&sim);
    }
}

/* ---- Whole runs against the reference mode ---- */

static void
assert_same_run (EngSim *a, EngSim *b, gsize n, const char *what)
{
  const EngOpResult *x = eng_sim_results (a), *y = eng_sim_results (b);
  for (gsize i = 0; i < n; i++)
    if (x[i].issue != y[i].issue || x[i].start != y[i].start || x[i].end != y[i].end
        || x[i].cause != y[i].cause || x[i].cause_ref != y[i].cause_ref
        || x[i].engine != y[i].engine || x[i].conn != y[i].conn || x[i].queue != y[i].queue)
      g_error ("%s: op %" G_GSIZE_FORMAT " differs: %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
               " (%s %u) vs %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " (%s %u)",
               what, i, x[i].start, x[i].end, eng_cause_name (x[i].cause), x[i].cause_ref,
               y[i].start, y[i].end, eng_cause_name (y[i].cause), y[i].cause_ref);
  g_assert_cmpint (eng_sim_makespan (a), ==, eng_sim_makespan (b));
  g_assert_cmpuint (eng_sim_events (a), ==, eng_sim_events (b));
}

/* Random schedules (big grids included, so that kernels run many waves and
 * their ends batch) on the shipped profiles and the zero-latency schematic
 * ones, where ties on one nanosecond are common: every result equal. */
static void
test_model_equals_reference (void)
{
  static const char *const profiles[] = {
    "engines/profiles/c1060.ini", "engines/profiles/c2050.ini", "engines/profiles/k20.ini",
    "engines/profiles/h200.ini",
    "tests/profiles/schematic-k20.ini", "tests/profiles/schematic-c2050.ini",
    "tests/profiles/slots4.ini",
  };
  GString *text = g_string_new (NULL);
  guint64 compared = 0;
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *path = g_build_filename (SRCDIR, profiles[i], NULL);
      GpuProfile profile = { 0 };
      g_autoptr (GError) error = NULL;
      g_assert_true (profile_load (path, &profile, &error));
      for (guint64 seed = 1; seed <= 60; seed++)
        {
          ScheduleGenOptions o;
          schedule_gen_options_init (&o);
          o.seed = seed * 131 + i;
          o.n_ops = 40 + seed * 7;
          o.n_streams = 1 + seed % 9;
          o.connections = seed % 3 == 0 ? 0 : 1 + seed % 8;
          o.max_grid = seed % 4 == 0 ? 100000 : 4096;
          o.kernel_types = 1 + seed % 5;
          o.pct_priority = seed % 2 == 0 ? 30 : 0;
          o.mix.kernel = 40 + seed % 30;
          g_string_truncate (text, 0);
          schedule_gen_append (&o, text);
          ScheduleParseOptions parse = { NULL, 0 };
          g_autoptr (Schedule) sched = schedule_parse_text ("gen.sched", text->str, text->len,
                                                            &parse, &error);
          g_assert_no_error (error);
          g_autoptr (EngSim) fast = eng_sim_new (&profile, sched, 0, &error);
          g_assert_no_error (error);
          g_autoptr (EngSim) ref = eng_sim_new (&profile, sched, 0, &error);
          g_assert_no_error (error);
          eng_sim_set_reference (ref, TRUE);
          eng_sim_run (fast);
          eng_sim_run (ref);
          g_autofree char *what = g_strdup_printf ("%s, schedule seed %" G_GUINT64_FORMAT,
                                                   profiles[i], o.seed);
          assert_same_run (fast, ref, schedule_n_ops (sched), what);
          compared += schedule_n_ops (sched);
        }
      gpu_profile_clear (&profile);
    }
  g_string_free (text, TRUE);
  /* 7 profiles (h200: 132 SMs, masks of three words) x 60 schedules of 47..460 ops */
  g_assert_cmpuint (compared, >, 7 * 60 * 47);
}

/* eng_sm_mask_last's select for one word of SMs equals the plain word-by-word
 * scan, for random non-empty masks, SM counts below 64 and starting SMs. */
static void
test_mask_last_one_word (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  for (guint i = 0; i < 100000; i++)
    {
      GpuProfile p = { 0 };
      p.sm_count = g_rand_int_range (r, 1, 65);
      EngSms sms = { 0 };
      sms.profile = &p;
      sms.sm_count = p.sm_count;
      sms.words = 1;
      guint64 all = p.sm_count == 64 ? ~(guint64) 0 : ((guint64) 1 << p.sm_count) - 1;
      guint64 mask = ((guint64) g_rand_int (r) << 32 | g_rand_int (r)) & all;
      if (g_rand_int_range (r, 0, 4) == 0)
        mask &= (guint64) 1 << g_rand_int_range (r, 0, (gint32) p.sm_count); /* one SM */
      if (mask == 0)
        mask = 1;
      guint start = g_rand_int_range (r, 0, (gint32) p.sm_count);
      g_assert_cmpuint (eng_sm_mask_last (&sms, &mask, start), ==,
                        eng_sm_mask_last_words (&sms, &mask, start));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sm/place-equals-scan", test_place_equals_scan);
  g_test_add_func ("/sm/mask-last-one-word", test_mask_last_one_word);
  g_test_add_func ("/sm/state-equals-plain", test_state_equals_plain);
  g_test_add_func ("/sm/rooms-at-range-limits", test_rooms_at_range_limits);
  g_test_add_func ("/sm/model-equals-reference", test_model_equals_reference);
  return g_test_run ();
}
