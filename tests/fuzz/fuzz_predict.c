/* fuzz_predict.c: libFuzzer target for a whole prediction: the parser, the engine model and the invariant checker.
 *
 * The input is a schedule; its first byte picks the profile: one of the
 * shipped ones, or from 0x80 one of the test profiles that reach the model's
 * corners (tests/support/fuzz_profiles.h).
 * Whatever the parser accepts must simulate without a crash, an assertion or
 * a sanitizer report, the results must break none of the rules of
 * engines/eng_check.c, and the critical path's links must pass
 * tests/support/path_links.c: a failure aborts, so libFuzzer keeps the input. The
 * op limit is small so that one input stays fast. To look past a known model
 * bug, STREAMSIM_FUZZ_IGNORE=queue,stream (rule names) lets those rules pass. */
#include <stdint.h>
#include <stdio.h>
#include <glib.h>
#include "engines/eng_check.h"
#include "engines/eng_sim.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"
#include "sim/core/schedule_device.h"
#include "support/fuzz_profiles.h"
#include "support/path_links.h"

/* the profile each first byte picks: each file loaded once, the bytes that
 * pick it sharing it */
static const GpuProfile *profiles[256];
static gboolean ignored[ENG_CHECK_N_RULES];

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  fuzz_profiles_search_path (SRCDIR);
  /* path -> its profile, kept for the run */
  GHashTable *loaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint b = 0; b < G_N_ELEMENTS (profiles); b++)
    {
      char *path = fuzz_profile_path (SRCDIR, (guchar) b);
      GpuProfile *p = g_hash_table_lookup (loaded, path);
      if (p == NULL)
        {
          GError *error = NULL;
          p = g_new0 (GpuProfile, 1);
          if (!profile_load (path, p, &error))
            g_error ("fuzz_predict: %s", error->message);
          g_hash_table_insert (loaded, g_strdup (path), p);
        }
      profiles[b] = p;
      g_free (path);
    }
  g_hash_table_unref (loaded);
  const char *ignore = g_getenv ("STREAMSIM_FUZZ_IGNORE");
  char **rules = g_strsplit (ignore != NULL ? ignore : "", ",", -1);
  for (guint r = 0; r < ENG_CHECK_N_RULES; r++)
    ignored[r] = g_strv_contains ((const char *const *) rules, eng_check_rule_name ((EngCheckRule) r));
  g_strfreev (rules);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  const GpuProfile *profile = profiles[data[0]];
  ScheduleParseOptions options = { NULL, 2000 };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text ("fuzz.sched", (const char *) data + 1, size - 1,
                                         &options, &error);
  if (sched == NULL)
    {
      g_clear_error (&error);
      return 0;
    }
  EngSim *sim = NULL;
  if (schedule_select_device (sched, (const char *const *) profile->names, &error))
    sim = eng_sim_new (profile, sched, 0, &error);
  if (sim == NULL)
    {
      /* Refused for this device: the message names the op. */
      g_assert (g_str_has_prefix (error->message, "fuzz.sched:"));
      g_clear_error (&error);
      schedule_free (sched);
      return 0;
    }
  eng_sim_run (sim);
  EngCheck *check = eng_check_results (profile, sched, eng_sim_connections (sim),
                                       eng_sim_copy_connections (sim), eng_sim_results (sim));
  for (gsize i = 0; i < eng_check_n_kept (check); i++)
    {
      const EngCheckViolation *v = eng_check_violation (check, i);
      if (ignored[v->rule])
        continue;
      fprintf (stderr, "fuzz_predict: on %s, op %u broke rule %s: %s\n",
               gpu_profile_name (profile), v->op, eng_check_rule_name (v->rule), v->message);
      abort ();
    }
  eng_check_free (check);

  /* The links a critical path follows end, going back in time, and the
   * host links agree with the times. */
  char *broken = path_links_check (sim, sched, profile);
  if (broken != NULL)
    {
      fprintf (stderr, "fuzz_predict: on %s, %s\n", gpu_profile_name (profile), broken);
      abort ();
    }
  eng_sim_free (sim);
  schedule_free (sched);
  return 0;
}
