/* test_schedule_write.c: schedules written back as text (schedule_write.h) parse to the same schedule and predict the same timeline. */
#include <glib.h>
#include <string.h>

#include "engines/eng_sim.h"
#include "sim/core/schedule_edit.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/schedule_parse.h"
#include "sim/formats/schedule_write.h"
#include "sim/formats/units.h"

static Schedule *
parse (const char *name, const char *text)
{
  ScheduleParseOptions options = { NULL, 0 };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text (name, text, strlen (text), &options, &error);
  g_assert_no_error (error);
  return sched;
}

static char *
write_text (const Schedule *sched)
{
  return schedule_write_text (sched, NULL);
}

/* Every statement kind, with loops, parameters and two graph launches; the expected text is
 * written by hand from the language reference: loops expanded, `let`
 * substituted, sizes and times exact in the largest unit that holds them,
 * the event never recorded and the blocking_sync one declared after the
 * streams. */
static void
test_expected_text (void)
{
  static const char input[] =
    "device k20\n"
    "connections 4\n"
    "device_schedule blocking_sync\n"
    "let n = 2\n"
    "stream a priority=-1\n"
    "stream b nonblocking\n"
    "repeat i 1..$n\n"
    "  h2d a ${i}MiB label=in-$i\n"
    "end\n"
    "kernel a grid=4096 block=256 time=c2050:1.0815ms,k20:0.3672ms,2ms smem=1KiB regs=32 loads label=k\n"
    "kernel b grid=8 block=32 block_time=1.5us\n"
    "record done a\n"
    "wait b done\n"
    "wait a spare\n"
    "d2h b 1000B pageable untouched\n"
    "d2h b 8KiB untouched=4096B pageable\n"
    "d2h b 8MiB huge pageable untouched\n"
    "d2h b 8MiB pageable untouched=6MiB huge=4MiB\n"
    "h2d b 8KiB pageable untouched=8KiB\n"
    "h2d b 8KiB pageable untouched=0\n"
    "h2d b 4MiB rows=65536\n"
    "d2h b 12KiB rows=3 pageable label=cols\n"
    "memcpy h2d 12KiB pageable\n"
    "h2d b 4MiB cached pageable\n"
    "memset b 4KiB label=clear\n"
    "memset b 8B label=flag pinned\n"
    "hostfn a 20us\n"
    "repeat g 1..2\n"
    "  graph b\n"
    "    kernel b grid=1 block=32 time=${g}us\n"
    "    memset b 1KiB\n"
    "  end\n"
    "end\n"
    "host 0.25ms\n"
    "thread w1\n"
    "  h2d b 1KiB\n"
    "  graph b\n"
    "    kernel b grid=1 block=32 time=3us\n"
    "  end\n"
    "end\n"
    "thread w2\n"
    "end\n"
    "join w1\n"
    "sync done\n"
    "sync a\n"
    "poll a\n"
    "poll done label=p every=0.02ms\n"
    "sync device\n"
    "event spare\n"
    "event done blocking_sync\n";
  static const char expected[] =
    "# from t.sched\n"
    "device k20\n"
    "connections 4\n"
    "device_schedule blocking_sync\n"
    "stream a priority=-1\n"
    "stream b nonblocking\n"
    "event done blocking_sync\n"
    "event spare\n"
    "h2d a 1MiB label=in-1\n"
    "h2d a 2MiB label=in-2\n"
    "kernel a grid=4096 block=256 time=c2050:1.0815ms,k20:367.2us,2ms smem=1KiB regs=32 loads label=k\n"
    "kernel b grid=8 block=32 block_time=1.5us\n"
    "record done a\n"
    "wait b done\n"
    "wait a spare\n"
    "d2h b 1000B pageable untouched\n"
    "d2h b 8KiB pageable untouched=4KiB\n"
    "d2h b 8MiB pageable untouched huge\n"
    "d2h b 8MiB pageable untouched=6MiB huge=4MiB\n"
    "h2d b 8KiB pageable untouched\n"
    "h2d b 8KiB pageable\n"
    "h2d b 4MiB rows=65536\n"
    "d2h b 12KiB pageable rows=3 label=cols\n"
    "memcpy h2d 12KiB pageable\n"
    "h2d b 4MiB pageable cached\n"
    "memset b 4KiB label=clear\n"
    "memset b 8B pinned label=flag\n"
    "hostfn a 20us\n"
    "graph b\n"
    "kernel b grid=1 block=32 time=1us\n"
    "memset b 1KiB\n"
    "end\n"
    "graph b\n"
    "kernel b grid=1 block=32 time=2us\n"
    "memset b 1KiB\n"
    "end\n"
    "host 250us\n"
    "thread w1\n"
    "h2d b 1KiB\n"
    "graph b\n"
    "kernel b grid=1 block=32 time=3us\n"
    "end\n"
    "end\n"
    "thread w2\n"
    "end\n"
    "join w1\n"
    "sync done\n"
    "sync a\n"
    "poll a\n"
    "poll done every=20us label=p\n"
    "sync device\n";
  g_autoptr (Schedule) sched = parse ("t.sched", input);
  const char *header[] = { "from t.sched", NULL };
  g_autofree char *text = schedule_write_text (sched, header);
  g_assert_cmpstr (text, ==, expected);
  /* and it parses back: the declaration makes the wait on `spare` legal */
  g_autoptr (Schedule) again = parse ("w.sched", text);
  g_assert_cmpuint (schedule_n_ops (again), ==, schedule_n_ops (sched));
  g_assert_cmpint (schedule_device_schedule (again), ==, SCHED_SCHEDULE_BLOCKING_SYNC);
  g_assert_cmpstr (schedule_event_name (again, 0), ==, "done");
  g_assert_true (schedule_event_blocking_sync (again, 0));
  g_assert_false (schedule_event_blocking_sync (again, 1));
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      g_assert_cmpuint (schedule_op (again, i)->graph, ==, schedule_op (sched, i)->graph);
      g_assert_cmpuint (schedule_op (again, i)->graph_launch, ==,
                        schedule_op (sched, i)->graph_launch);
      g_assert_cmpuint (schedule_op_thread (again, i), ==, schedule_op_thread (sched, i));
    }
}

/* Exact times: each written time reads back to the same nanosecond. */
static void
test_exact_times (void)
{
  static const SimTime cases[] = { 0, 1, 999, 1000, 1001, 1500, 999999, 1000000, 1081500,
                                   1234567, 999999999, 1000000000, 1001000000, 1000000001,
                                   G_GINT64_CONSTANT (86400000000000) };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = units_format_exact_time (cases[i]);
      SimTime back = -1;
      const char *why = NULL;
      g_assert_true (units_parse_time (text, &back, &why));
      g_assert_cmpint (back, ==, cases[i]);
    }
  g_autofree char *a = units_format_exact_time (1081500);
  g_assert_cmpstr (a, ==, "1.0815ms");
  g_autofree char *b = units_format_exact_time (2000000000);
  g_assert_cmpstr (b, ==, "2s");
  g_autofree char *c = units_format_exact_time (1000000001);
  g_assert_cmpstr (c, ==, "1000.000001ms");
}

static void
assert_same_results (const Schedule *a, const Schedule *b, const char *device)
{
  GpuProfile profile = { 0 };
  GError *error = NULL;
  g_assert_true (profile_load (device, &profile, &error));
  g_assert_no_error (error);
  g_autoptr (EngSim) sa = eng_sim_new (&profile, a, 0, &error);
  g_assert_no_error (error);
  g_autoptr (EngSim) sb = eng_sim_new (&profile, b, 0, &error);
  g_assert_no_error (error);
  eng_sim_run (sa);
  eng_sim_run (sb);
  g_assert_cmpuint (schedule_n_ops (a), ==, schedule_n_ops (b));
  g_assert_cmpmem (eng_sim_results (sa), schedule_n_ops (a) * sizeof (EngOpResult),
                   eng_sim_results (sb), schedule_n_ops (b) * sizeof (EngOpResult));
  gpu_profile_clear (&profile);
}

/* Every shipped schedule: written, read back, written again gives the same
 * text, and both schedules predict the same results on their device. */
static void
test_round_trip_traces (void)
{
  static const char *const folders[] = { "traces/seed", "traces/examples", "traces/validation",
                                         "validate/results/h100/real",
                                         "validate/results/h200/real", NULL };
  guint n = 0;
  for (const char *const *folder = folders; *folder != NULL; folder++)
    {
      g_autofree char *dir_path = g_build_filename (SRCDIR, *folder, NULL);
      g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
      if (dir == NULL)
        continue;
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          if (!g_str_has_suffix (name, ".sched"))
            continue;
          g_autofree char *path = g_build_filename (dir_path, name, NULL);
          ScheduleParseOptions options = { NULL, 0 };
          GError *error = NULL;
          g_autoptr (Schedule) sched = schedule_parse_file (path, &options, &error);
          g_assert_no_error (error);
          g_autofree char *text = write_text (sched);
          g_autoptr (Schedule) back = parse (path, text);
          g_autofree char *again = write_text (back);
          g_assert_cmpstr (text, ==, again);
          const char *device = schedule_device (sched) != NULL ? schedule_device (sched) : "h100";
          assert_same_results (sched, back, device);
          n++;
        }
    }
  g_test_message ("%u schedules written and read back", n);
  g_assert_cmpuint (n, >, 50);
}

/* A copy keeps every setting, so writes the same text; with its ops put
 * back in their own order too; a reversed order of two independent streams
 * writes them reversed. */
static void
test_copy_and_order (void)
{
  g_autoptr (Schedule) sched =
    parse ("o.sched", "stream a\nstream b\nh2d a 1KiB label=x\nh2d b 2KiB label=y\n");
  g_autoptr (Schedule) copy = schedule_copy (sched);
  g_autofree char *text = write_text (sched);
  const guint32 same[] = { 0, 1 }, swapped[] = { 1, 0 };
  schedule_set_order (copy, same);
  g_autofree char *copied = write_text (copy);
  g_assert_cmpstr (text, ==, copied);
  schedule_set_order (copy, swapped);
  g_autofree char *reordered = write_text (copy);
  g_assert_cmpstr (reordered, ==, "stream a\nstream b\nh2d b 2KiB label=y\nh2d a 1KiB label=x\n");
  schedule_set_stream_priority (copy, 2, -1);
  schedule_set_connections (copy, 2);
  schedule_set_order (copy, same);
  g_autofree char *edited = write_text (copy);
  g_assert_cmpstr (edited, ==,
                   "connections 2\nstream a\nstream b priority=-1\nh2d a 1KiB label=x\nh2d b 2KiB label=y\n");
  static const char settings[] = "device h100\nconnections 4\npool_threshold 1GiB\n"
                                 "device_schedule blocking_sync\nstream a\nevent e blocking_sync\n"
                                 "record e a\nsync e\n";
  g_autoptr (Schedule) set = parse ("s.sched", settings);
  g_autoptr (Schedule) set_copy = schedule_copy (set);
  g_autofree char *set_text = write_text (set);
  g_autofree char *set_copied = write_text (set_copy);
  g_assert_cmpstr (set_copied, ==, set_text);
  g_assert_cmpuint (schedule_pool_threshold (set_copy), ==, G_GUINT64_CONSTANT (1) << 30);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/write/expected-text", test_expected_text);
  g_test_add_func ("/write/exact-times", test_exact_times);
  g_test_add_func ("/write/round-trip-traces", test_round_trip_traces);
  g_test_add_func ("/write/copy-and-order", test_copy_and_order);
  return g_test_run ();
}
