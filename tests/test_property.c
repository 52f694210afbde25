/* test_property.c: 10,000 random valid schedules on every profile, each run through the invariant checker.
 *
 * The schedules come from the seeded generator of tests/support (valid by
 * construction for the limits given); each is parsed, simulated and handed
 * to eng_check_results(), which knows the contract, not the model's code.
 * Any violation fails the test and prints what reproduces it: the base seed
 * (set STREAMSIM_PROPERTY_SEED to rerun with another), the schedule's own
 * seed, the profile and the schedule's text. */
#include <glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engines/eng_check.h"
#include "engines/eng_sim.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "support/schedule_gen.h"

#define N_SCHEDULES 10000
#define DEFAULT_SEED 20240611u
/* Failing schedules printed in full; the rest are counted. */
#define N_SHOWN 3

typedef struct
{
  char *path;
  GpuProfile profile;
} Profile;

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static GPtrArray *
load_profiles (void)
{
  GPtrArray *profiles = g_ptr_array_new ();
  const char *dirs[] = { "engines/profiles", "tests/profiles" };
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autofree char *dir = g_build_filename (SRCDIR, dirs[d], NULL);
      g_autoptr (GDir) gdir = g_dir_open (dir, 0, NULL);
      g_assert_nonnull (gdir);
      GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
      const char *name;
      while ((name = g_dir_read_name (gdir)) != NULL)
        if (g_str_has_suffix (name, ".ini")
            && (d == 0 || g_str_has_prefix (name, "schematic-")))
          g_ptr_array_add (names, g_strdup (name));
      /* Directory order differs between file systems: sort for a stable seed mapping. */
      g_ptr_array_sort (names, compare_names);
      /* STREAMSIM_PROPERTY_PROFILES=k20,c1060 keeps only those (to reproduce). */
      const char *only = g_getenv ("STREAMSIM_PROPERTY_PROFILES");
      g_auto (GStrv) keep = only != NULL ? g_strsplit (only, ",", -1) : NULL;
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *base = g_strndup (g_ptr_array_index (names, i),
                                             strlen (g_ptr_array_index (names, i)) - 4);
          if (keep != NULL && !g_strv_contains ((const char *const *) keep, base))
            continue;
          Profile *p = g_new0 (Profile, 1);
          p->path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
          g_autoptr (GError) error = NULL;
          g_assert_true (profile_load (p->path, &p->profile, &error));
          g_assert_no_error (error);
          g_ptr_array_add (profiles, p);
        }
      g_ptr_array_unref (names);
    }
  return profiles;
}

static void
profiles_free (GPtrArray *profiles)
{
  for (guint i = 0; i < profiles->len; i++)
    {
      Profile *p = g_ptr_array_index (profiles, i);
      gpu_profile_clear (&p->profile);
      g_free (p->path);
      g_free (p);
    }
  g_ptr_array_unref (profiles);
}

/* The schedule being run, so that a crash of the model (an assertion, say)
 * still says which one it was. */
static const char *current_text;
static char current_header[256];

static void
on_abort (int sig)
{
  if (current_text != NULL)
    {
      ssize_t ignored = write (2, current_header, strlen (current_header));
      ignored = write (2, current_text, strlen (current_text));
      ignored = write (2, "--- end ---\n", 12);
      (void) ignored;
    }
  signal (sig, SIG_DFL);
  raise (sig);
}

static guint64
base_seed (void)
{
  const char *env = g_getenv ("STREAMSIM_PROPERTY_SEED");
  return env != NULL ? g_ascii_strtoull (env, NULL, 10) : DEFAULT_SEED;
}

/* The largest block whose warp-rounded threads, at the profile's default
 * registers, fit one SM: kernels without regs= use default_regs. */
static guint
largest_block (const GpuProfile *p)
{
  guint block = MIN (MIN (p->max_threads_per_block, p->max_threads_per_sm), 1024u);
  while (block > 32 && ((block + 31) / 32 * 32) * (guint64) p->default_regs > p->regs_per_sm)
    block -= 32;
  return block;
}

/* Draws the generator's options for schedule `i` from `rand`: small
 * schedules (a few dozen ops), so that 10,000 of them take seconds, with
 * every feature's frequency varied from none to often. */
static void
draw_options (GRand *rand, const GpuProfile *p, guint64 seed, ScheduleGenOptions *o)
{
  static const guint32 grids[] = { 1, 2, 4, 13, 64, 1024, 65536 };
  schedule_gen_options_init (o);
  o->seed = seed;
  o->n_ops = (guint64) g_rand_int_range (rand, 1, 49);
  o->n_streams = (guint) g_rand_int_range (rand, 1, 7);
  o->connections = g_rand_boolean (rand) ? 0 : (guint) g_rand_int_range (rand, 1, 33);
  o->mix.h2d = (guint) g_rand_int_range (rand, 0, 10);
  o->mix.d2h = (guint) g_rand_int_range (rand, 0, 10);
  o->mix.d2d = (guint) g_rand_int_range (rand, 0, 3);
  o->mix.memcpy = (guint) g_rand_int_range (rand, 0, 3);
  o->mix.kernel = (guint) g_rand_int_range (rand, 1, 12);
  o->mix.record = (guint) g_rand_int_range (rand, 0, 6);
  o->mix.wait = (guint) g_rand_int_range (rand, 0, 6);
  o->mix.sync = (guint) g_rand_int_range (rand, 0, 3);
  o->mix.host = (guint) g_rand_int_range (rand, 0, 2);
  o->kernel_types = (guint) g_rand_int_range (rand, 1, 5);
  o->max_grid = grids[g_rand_int_range (rand, 0, G_N_ELEMENTS (grids))];
  o->big_kernels = g_rand_int_range (rand, 0, 100) == 0;
  o->max_block = largest_block (p);
  o->max_smem = (guint) MIN (p->max_smem_per_block, (guint64) G_MAXUINT);
  o->max_regs_per_block = p->regs_per_sm;
  o->pct_default_stream = (guint) g_rand_int_range (rand, 0, 31);
  o->pct_pageable = (guint) g_rand_int_range (rand, 0, 31);
  o->pct_never_recorded = (guint) g_rand_int_range (rand, 0, 21);
  o->pct_label = 0;
  o->pct_nonblocking = (guint) g_rand_int_range (rand, 0, 51);
  o->pct_priority = (guint) g_rand_int_range (rand, 0, 51);
}

static void
show_failure (guint64 base, guint64 seed, const Profile *p, const char *text, const EngCheck *check)
{
  g_printerr ("\nproperty: base seed %" G_GUINT64_FORMAT " (STREAMSIM_PROPERTY_SEED), schedule seed %"
              G_GUINT64_FORMAT ", profile %s: %" G_GSIZE_FORMAT " violation(s)\n",
              base, seed, p->path, eng_check_n_violations (check));
  for (gsize v = 0; v < eng_check_n_kept (check) && v < 10; v++)
    {
      const EngCheckViolation *x = eng_check_violation (check, v);
      g_printerr ("  op %u [%s]: %s\n", x->op, eng_check_rule_name (x->rule), x->message);
    }
  g_printerr ("--- schedule ---\n%s--- end ---\n", text);
}

/* 10,000 schedules, each on one profile in turn; every run must satisfy
 * every rule of eng_check.c and report a makespan equal to its latest end. */
static void
test_property_random_schedules (void)
{
  GPtrArray *profiles = load_profiles ();
  if (g_getenv ("STREAMSIM_PROPERTY_PROFILES") == NULL)
    g_assert_cmpuint (profiles->len, >=, 6); /* c1060, c2050, k20, ... and three schematic */
  g_assert_cmpuint (profiles->len, >=, 1);
  guint64 base = base_seed ();
  g_test_message ("base seed %" G_GUINT64_FORMAT " (set STREAMSIM_PROPERTY_SEED to change)", base);
  g_autoptr (GRand) rand = g_rand_new_with_seed ((guint32) (base ^ (base >> 32)));
  guint failures = 0;
  guint64 ops = 0;
  guint64 per_rule[ENG_CHECK_N_RULES] = { 0 };
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < N_SCHEDULES; i++)
    {
      const Profile *p = g_ptr_array_index (profiles, i % profiles->len);
      guint64 seed = base * N_SCHEDULES + i;
      ScheduleGenOptions o;
      draw_options (rand, &p->profile, seed, &o);
      g_string_truncate (text, 0);
      schedule_gen_append (&o, text);

      g_snprintf (current_header, sizeof current_header,
                  "\nproperty: the model crashed on base seed %" G_GUINT64_FORMAT
                  ", schedule seed %" G_GUINT64_FORMAT ", profile %s\n--- schedule ---\n",
                  base, seed, p->path);
      current_text = text->str;

      g_autoptr (GError) error = NULL;
      ScheduleParseOptions parse = { NULL, 0 };
      g_autoptr (Schedule) sched = schedule_parse_text ("generated.sched", text->str, text->len,
                                                        &parse, &error);
      if (sched == NULL)
        g_error ("seed %" G_GUINT64_FORMAT ": the generator wrote a schedule the parser refuses: "
                 "%s\n%s", seed, error->message, text->str);
      g_autoptr (EngSim) sim = eng_sim_new (&p->profile, sched, 0, &error);
      if (sim == NULL)
        g_error ("seed %" G_GUINT64_FORMAT " on %s: the model refuses a generated schedule: %s\n%s",
                 seed, p->path, error->message, text->str);
      eng_sim_run (sim);

      const EngOpResult *results = eng_sim_results (sim);
      SimTime latest = 0;
      for (gsize k = 0; k < schedule_n_ops (sched); k++)
        latest = MAX (latest, results[k].end);
      g_assert_cmpint (eng_sim_makespan (sim), ==, latest);

      g_autoptr (EngCheck) check = eng_check_results (&p->profile, sched, eng_sim_connections (sim),
                                                      eng_sim_copy_connections (sim), results);
      if (eng_check_n_violations (check) > 0)
        {
          if (failures < N_SHOWN)
            show_failure (base, seed, p, text->str, check);
          else if (g_getenv ("STREAMSIM_PROPERTY_LIST") != NULL)
            g_printerr ("property: schedule seed %" G_GUINT64_FORMAT " on %s: %" G_GSIZE_FORMAT
                        " violation(s)\n", seed, p->path, eng_check_n_violations (check));
          failures++;
        }
      ops += schedule_n_ops (sched);
      for (guint r = 0; r < ENG_CHECK_N_RULES; r++)
        per_rule[r] += eng_check_count (check, (EngCheckRule) r);
    }
  current_text = NULL;
  g_string_free (text, TRUE);
  g_test_message ("%u schedules, %" G_GUINT64_FORMAT " ops, %u with violations", N_SCHEDULES,
                  ops, failures);
  for (guint r = 0; r < ENG_CHECK_N_RULES; r++)
    if (per_rule[r] > 0)
      g_printerr ("property: %" G_GUINT64_FORMAT " violations of %s\n", per_rule[r],
                  eng_check_rule_name ((EngCheckRule) r));
  profiles_free (profiles);
  /* The sizes drawn average about 24 ops a schedule. */
  g_assert_cmpuint (ops, >, N_SCHEDULES * 10);
  if (failures > 0)
    g_error ("%u of %d random schedules broke the model's rules (base seed %" G_GUINT64_FORMAT
             "; the first %d are shown above)", failures, N_SCHEDULES, base, N_SHOWN);
}

/* The checker takes blocks per SM from gpu_profile_blocks_per_sm(); that rule
 * must stay within the raw limits (block count, threads, shared memory,
 * registers), and give at least one block whenever one block fits them
 * with its threads rounded to a warp. */
static void
test_property_occupancy (void)
{
  GPtrArray *profiles = load_profiles ();
  g_autoptr (GRand) rand = g_rand_new_with_seed ((guint32) base_seed ());
  for (guint i = 0; i < profiles->len; i++)
    {
      const GpuProfile *p = &((Profile *) g_ptr_array_index (profiles, i))->profile;
      for (guint k = 0; k < 2000; k++)
        {
          guint block = (guint) g_rand_int_range (rand, 1, (gint32) p->max_threads_per_block + 1);
          guint64 smem = g_rand_boolean (rand)
                         ? 0 : (guint64) g_rand_int_range (rand, 0, (gint32) p->max_smem_per_block + 1);
          guint regs = g_rand_boolean (rand) ? 0 : (guint) g_rand_int_range (rand, 1, 256);
          guint bps = gpu_profile_blocks_per_sm (p, block, smem, regs);
          guint64 warp_threads = (block + 31) / 32 * 32;
          guint64 r = (regs != 0 ? regs : p->default_regs) * warp_threads;
          g_assert_cmpuint (bps, <=, p->max_blocks_per_sm);
          g_assert_cmpuint ((guint64) bps * block, <=, p->max_threads_per_sm);
          g_assert_cmpuint ((guint64) bps * smem, <=, p->smem_per_sm);
          g_assert_cmpuint ((guint64) bps * regs * block, <=, p->regs_per_sm);
          gboolean fits = warp_threads <= p->max_threads_per_sm && smem <= p->smem_per_sm
                          && r <= p->regs_per_sm;
          g_assert_cmpint (bps > 0, ==, fits);
        }
    }
  profiles_free (profiles);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  signal (SIGABRT, on_abort);
  g_test_add_func ("/property/occupancy", test_property_occupancy);
  g_test_add_func ("/property/random-schedules", test_property_random_schedules);
  return g_test_run ();
}
