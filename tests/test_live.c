/* test_live.c: the slots of ops in flight (engines/eng_live.c) are as many as the ops in flight at once, not as the ops.
 *
 * White-box, like test_sm.c: it includes eng_state.h to read how many
 * slots a run made (EngSim.n_live, their high-water mark). The expected
 * counts are worked out by hand from each schedule below. That a slot is
 * never read after it is given back is checked elsewhere: the sanitizer
 * build poisons given-back slots, and every test that runs the model then
 * fails on such a read. */
#include <glib.h>
#include <string.h>
#include "engines/eng_state.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/formats/schedule_parse.h"

/* Runs `text` on the k20 profile; returns how many slots the run made. */
static guint32
slots_made (const char *text)
{
  g_autofree char *path = g_build_filename (SRCDIR, "engines/profiles/k20.ini", NULL);
  GpuProfile profile = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (profile_load (path, &profile, &error));
  ScheduleParseOptions parse = { NULL, 0 };
  g_autoptr (Schedule) sched = schedule_parse_text ("live.sched", text, strlen (text), &parse,
                                                    &error);
  g_assert_no_error (error);
  g_autoptr (EngSim) sim = eng_sim_new (&profile, sched, 0, &error);
  g_assert_no_error (error);
  eng_sim_run (sim);
  gpu_profile_clear (&profile);
  /* every op signaled, so every slot is back on the free list */
  guint32 free_slots = 0;
  for (guint32 s = sim->free_live; s != ENG_NONE; s = sim->live[s].next)
    free_slots++;
  g_assert_cmpuint (free_slots, ==, sim->n_live);
  return sim->n_live;
}

/* 2,000 rounds of a copy and a kernel, each round ended by `sync device`:
 * the host issues the round's two device calls, then waits until both have
 * signaled, so never more than two ops are in flight. Two slots, reused
 * 1,999 times (made anew each time, it would be 4,000). */
static void
test_synced_rounds_reuse (void)
{
  const char *text = "device k20\n"
                     "stream a\n"
                     "repeat i 1..2000\n"
                     "  h2d a 64KiB pinned\n"
                     "  kernel a grid=64 block=256 time=k20:20us\n"
                     "  sync device\n"
                     "end\n";
  g_assert_cmpuint (slots_made (text), ==, 2);
}

/* Ten rounds between syncs: 20 ops in flight at most, and 20 exactly, since
 * the host issues all twenty (about 5 us a call on the k20) before the first
 * copy ends (64 MiB: milliseconds). */
static void
test_slots_follow_ops_in_flight (void)
{
  const char *text = "device k20\n"
                     "stream a\n"
                     "stream b\n"
                     "repeat j 1..100\n"
                     "  repeat i 1..10\n"
                     "    h2d a 64MiB pinned\n"
                     "    kernel b grid=64 block=256 time=k20:10ms\n"
                     "  end\n"
                     "  sync device\n"
                     "end\n";
  g_assert_cmpuint (slots_made (text), ==, 20);
}

/* 1,000 kernels of a second each on one stream: the host issues them all
 * (the profile's 3 us a launch, 3 ms in all) long before the first ends, so
 * every one is in flight at once and needs a slot of its own. */
static void
test_all_in_flight (void)
{
  const char *text = "device k20\n"
                     "stream a\n"
                     "repeat i 1..1000\n"
                     "  kernel a grid=64 block=256 time=k20:1000ms\n"
                     "end\n"
                     "sync device\n";
  g_assert_cmpuint (slots_made (text), ==, 1000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live/synced-rounds-reuse", test_synced_rounds_reuse);
  g_test_add_func ("/live/slots-follow-ops-in-flight", test_slots_follow_ops_in_flight);
  g_test_add_func ("/live/all-in-flight", test_all_in_flight);
  return g_test_run ();
}
