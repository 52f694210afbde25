/* val_main.c: `streamsim-validate`: run a schedule on the GPU and write the measured timeline, or calibrate a profile.
 *
 * Exit status: 0 success; 2 bad input (usage, a schedule that does not parse
 * or does not fit this GPU); 3 no GPU, a failing CUDA call or an I/O error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_fit.h"
#include "calib_order.h"
#include "sim/recorded/measured_row.h"
#include "sim/formats/profile_file.h"
#include "sim/core/schedule.h"
#include "sim/core/schedule_device.h"
#include "sim/formats/schedule_parse.h"
#include "sim/formats/timeline_writer.h"
#include "val_calibrate.h"
#include "val_cuda.h"
#include "val_device.h"
#include "val_hostcost.h"
#include "val_probe.h"
#include "val_record.h"
#include "val_run.h"
#include "sim/formats/units.h"

enum
{
  EXIT_INPUT = 2,
  EXIT_SYSTEM = 3,
};

typedef struct
{
  int reps, warmup, connections;
  char *csv, *device, *output, *probe, *timing, *record, *log, *min_host, *recorder_gap;
  char **defines;
  gboolean calibrate;
} Options;

static int
report (const GError *error)
{
  fprintf (stderr, "streamsim-validate: %s\n", error->message);
  if (error->domain == SCHEDULE_ERROR)
    return error->code == SCHEDULE_ERROR_IO ? EXIT_SYSTEM : EXIT_INPUT;
  if (error->domain == G_OPTION_ERROR || error->domain == PROFILE_ERROR)
    return EXIT_INPUT;
  if (error->domain == VAL_ERROR && error->code == VAL_ERROR_SCHEDULE)
    return EXIT_INPUT;
  return EXIT_SYSTEM;
}

/* The names the schedule's time= lists are matched against: the device
 * profile's own names (with those it inherits) when there is one on the
 * profile path, else the device name alone. */
static char **
device_names (const char *profile_name)
{
  GpuProfile profile = { 0 };
  GError *ignored = NULL;
  if (profile_load (profile_name, &profile, &ignored))
    {
      char **names = g_strdupv (profile.names);
      gpu_profile_clear (&profile);
      return names;
    }
  g_clear_error (&ignored);
  char **names = g_new0 (char *, 2);
  names[0] = g_strdup (profile_name);
  return names;
}

/* Median over repeats of one field, each repeat taken from its own origin
 * (its first API call). -1 when no repeat saw the field. */
static SimTime
median_field (SimTime **field, const SimTime *origin, int reps, gsize op)
{
  SimTime *v = g_new (SimTime, reps);
  int n = 0;
  for (int r = 0; r < reps; r++)
    if (field[r][op] >= 0)
      v[n++] = field[r][op] - origin[r];
  SimTime m = n > 0 ? calib_fit_median (v, n) : -1;
  g_free (v);
  return m;
}

/* A repeat's time origin: its first API call (its sync's return when the
 * schedule has no ops). */
static SimTime
repeat_origin (const ValTimes *t, gsize n_ops)
{
  return n_ops > 0 ? t->issue[0] : t->done;
}

/* What the CSV's metadata says about the run besides the times. */
typedef struct
{
  ValTiming timing;
  const char *cupti;       /* library, or NULL */
  SimTime done_none;       /* median host done without any timing, from the origin */
  SimTime done_events;     /* the same with timing events, -1 if not run */
  SimTime clock_window;
  char *host_calls;        /* val_host_costs_format of this process's call costs */
  char *host_calls_untimed; /* the same, measured between the untimed repeats */
} RunInfo;

static gboolean
write_csv (const Options *opt, const Schedule *sched, const ValDevice *dev, ValTimes **all,
           int all_reps, const RunInfo *info, GError **error)
{
  gsize n = schedule_n_ops (sched);
  gboolean *keep = g_new (gboolean, all_reps);
  const SimTime **ends = g_new (const SimTime *, all_reps);
  for (int r = 0; r < all_reps; r++)
    ends[r] = all[r]->end;
  int reps = calib_order_choose (sched, ends, all_reps, keep);
  g_free (ends);
  ValTimes **times = g_new (ValTimes *, reps);
  for (int r = 0, k = 0; r < all_reps; r++)
    if (keep[r])
      times[k++] = all[r];
  SimTime *origin = g_new (SimTime, reps);
  SimTime **issue = g_new (SimTime *, reps), **start = g_new (SimTime *, reps),
          **end = g_new (SimTime *, reps);
  SimTime *dones = g_new (SimTime, reps);
  for (int r = 0; r < reps; r++)
    {
      origin[r] = n > 0 ? times[r]->issue[0] : 0;
      issue[r] = times[r]->issue;
      start[r] = times[r]->start;
      end[r] = times[r]->end;
      dones[r] = times[r]->done - origin[r];
    }

  char *connections = g_strdup_printf ("%u", val_device_connections ());
  char *reps_text = reps == all_reps
    ? g_strdup_printf ("%d (after %d warm-up)", reps, opt->warmup)
    : g_strdup_printf ("%d of %d (after %d warm-up): the per-op medians are over the %d repeats "
                       "whose copies finished in the most common order", reps, all_reps,
                       opt->warmup, reps);
  /* The spread is over every repeat, kept or not. */
  SimTime *all_ms = g_new (SimTime, all_reps);
  for (int r = 0; r < all_reps; r++)
    {
      SimTime o = repeat_origin (all[r], n);
      all_ms[r] = 0;
      for (gsize i = 0; i < n; i++)
        all_ms[r] = MAX (all_ms[r], all[r]->end[i] - o);
    }
  SimTime ms_med = calib_fit_median (all_ms, all_reps);
  SimTime ms_min = all_ms[0], ms_max = all_ms[0];
  for (int r = 1; r < all_reps; r++)
    {
      ms_min = MIN (ms_min, all_ms[r]);
      ms_max = MAX (ms_max, all_ms[r]);
    }
  g_free (all_ms);
  char *spread = g_strdup_printf ("min %" G_GINT64_FORMAT ", median %" G_GINT64_FORMAT
                                  ", max %" G_GINT64_FORMAT, ms_min, ms_med, ms_max);
  char *done = info->done_events >= 0
    ? g_strdup_printf ("%" G_GINT64_FORMAT " timed with %s, %" G_GINT64_FORMAT
                       " untimed, %" G_GINT64_FORMAT " with timing events",
                       calib_fit_median (dones, reps), val_timing_name (info->timing),
                       info->done_none, info->done_events)
    : g_strdup_printf ("%" G_GINT64_FORMAT " timed with %s, %" G_GINT64_FORMAT " untimed",
                       calib_fit_median (dones, reps), val_timing_name (info->timing),
                       info->done_none);
  char *window = g_strdup_printf ("%" G_GINT64_FORMAT, info->clock_window);
  char *timing = info->cupti != NULL
    ? g_strdup_printf ("kernels: %%globaltimer; copies and memsets: CUPTI memcpy and memset "
                       "records (%s); host functions: their own host clock reads; records and "
                       "waits: derived from their stream", info->cupti)
    : g_strdup_printf ("kernels: %%globaltimer; copies and memsets: %s; host functions: their "
                       "own host clock reads", val_timing_name (info->timing));
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  char *date = g_date_time_format_iso8601 (now);
  const char *meta[] = {
    "source", "measured",
    "schedule", schedule_path (sched),
    "device", dev->profile_name,
    "gpu", dev->gpu,
    "driver", dev->driver,
    "cuda", dev->cuda,
    "connections", connections,
    "reps", reps_text,
    "makespan_ns", spread,
    "host_done_ns", done,
    "clock_window_ns", window,
    "host_calls", info->host_calls,
    "host_calls_untimed", info->host_calls_untimed,
    "timing", timing,
    "date", date,
    NULL,
  };

  gboolean ok = FALSE;
  TimelineWriter *w = timeline_writer_new (opt->csv != NULL ? opt->csv : "-", meta,
                                           schedule_n_threads (sched) > 1, error);
  if (w != NULL)
    {
      ok = TRUE;
      for (gsize i = 0; i < n && ok; i++)
        {
          TimelineRow row;
          measured_row_fill (sched, i, &row);
          row.issue = median_field (issue, origin, reps, i);
          row.start = median_field (start, origin, reps, i);
          row.end = median_field (end, origin, reps, i);
          ok = timeline_writer_add (w, &row, error);
        }
      if (ok)
        ok = timeline_writer_finish (w, error);
      else
        timeline_writer_abort (w);
    }
  fprintf (stderr, "streamsim-validate: %s: makespan %s ns over %d repeats; host done %s ns\n",
           schedule_path (sched), spread, reps, done);

  g_free (date);
  g_free (timing);
  g_free (window);
  g_free (done);
  g_free (spread);
  g_free (reps_text);
  g_free (connections);
  g_free (dones);
  g_free (times);
  g_free (keep);
  g_free (issue);
  g_free (start);
  g_free (end);
  g_free (origin);
  return ok;
}

/* The 64 MiB copies the host probe adds (val_hostcost.h): those of the kinds
 * of memory the schedule copies between host and device. */
static ValProbeCopies
probe_copies (const Schedule *sched)
{
  ValProbeCopies copies = 0;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if ((op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_MEMCPY)
          && op->u.copy.dir != SCHED_DIR_D2D)
        copies |= op->u.copy.pageable ? VAL_PROBE_PAGEABLE : VAL_PROBE_PINNED;
    }
  return copies;
}

static int
run_schedule (const Options *opt, const char *path)
{
  g_autoptr (GError) error = NULL;
  ScheduleParseOptions popt = { .defines = (const char *const *) opt->defines };
  g_autoptr (Schedule) sched = schedule_parse_file (path, &popt, &error);
  if (sched == NULL)
    return report (error);

  /* Before the first CUDA call: the driver reads it when the context is made. */
  val_device_set_connections (opt->connections > 0 ? (guint) opt->connections
                                                   : schedule_connections (sched));
  val_device_set_schedule (schedule_device_schedule (sched));

  ValDevice dev;
  if (!val_device_open (&dev, opt->device, &error))
    {
      val_device_clear (&dev);
      return report (error);
    }
  char **names = device_names (dev.profile_name);
  int status = 0;
  ValRun *run = NULL;
  if (schedule_select_device (sched, (const char *const *) names, &error))
    run = val_run_new (sched, &dev, (const char *const *) names, &error);
  ValTimes **times = g_new0 (ValTimes *, opt->reps);
  ValTimes *scratch = val_times_new (schedule_n_ops (sched));
  ValHostCosts *host_costs = g_new0 (ValHostCosts, opt->reps);
  ValHostProbe *probe = NULL;
  SimTime *bare = NULL, *with_events = NULL;
  ValHostCosts *bare_costs = NULL;
  RunInfo info = { .timing = VAL_TIMING_EVENTS };
  if (run == NULL)
    {
      status = report (error);
      goto out;
    }
  if (opt->timing == NULL || strcmp (opt->timing, "cupti") == 0)
    {
      if (val_run_use_cupti (run, &error))
        info.timing = VAL_TIMING_CUPTI;
      else
        {
          fprintf (stderr, "streamsim-validate: %s; timing copies with events instead\n",
                   error->message);
          g_clear_error (&error);
        }
    }
  /* This process's call costs (val_hostcost.h), under the same tracing,
   * measured before every timed repeat with the probe's resources made
   * once: a process can change speed between repeats (one H200 run of
   * tiny-kernels went from 8.6 to 12 ms within its ten). Its calls go
   * round the declared streams' count (stream 0 is the legacy default). */
  probe = val_host_probe_new (schedule_n_streams (sched) - 1, probe_copies (sched),
                              &error);
  if (probe == NULL)
    {
      status = report (error);
      goto out;
    }
  for (int r = 0; r < opt->warmup; r++)
    if (!val_run_once (run, info.timing, scratch, &error))
      {
        status = report (error);
        goto out;
      }
  for (int r = 0; r < opt->reps; r++)
    {
      times[r] = val_times_new (schedule_n_ops (sched));
      if (!val_host_probe_measure (probe, &host_costs[r], &error)
          || !val_run_once (run, info.timing, times[r], &error))
        {
          status = report (error);
          goto out;
        }
    }
  ValHostCosts costs;
  val_host_costs_median (host_costs, opt->reps, &costs);
  info.host_calls = val_host_costs_format (&costs);
  /* The same program without timing (and, under CUPTI, with timing events):
   * what the measurement itself costs. As many untimed repeats as timed
   * ones, each after its own host probe, untraced too: the untimed makespan
   * is what the report's headline compares against, the program as it runs
   * without the harness's tracing (CUPTI slows small copies on the GPU). */
  int bare_runs = opt->reps;
  bare = g_new (SimTime, bare_runs);
  with_events = g_new (SimTime, bare_runs);
  bare_costs = g_new0 (ValHostCosts, bare_runs);
  info.done_events = -1;
  info.cupti = val_run_cupti_library (run);
  if (!val_run_stop_cupti (run, &error))
    {
      status = report (error);
      goto out;
    }
  for (int r = 0; r < bare_runs; r++)
    {
      if (!val_host_probe_measure (probe, &bare_costs[r], &error)
          || !val_run_once (run, VAL_TIMING_NONE, scratch, &error))
        {
          status = report (error);
          goto out;
        }
      bare[r] = scratch->done - repeat_origin (scratch, schedule_n_ops (sched));
      if (info.timing == VAL_TIMING_CUPTI)
        {
          if (!val_run_once (run, VAL_TIMING_EVENTS, scratch, &error))
            {
              status = report (error);
              goto out;
            }
          with_events[r] = scratch->done - repeat_origin (scratch, schedule_n_ops (sched));
        }
    }
  info.done_none = calib_fit_median (bare, bare_runs);
  if (info.timing == VAL_TIMING_CUPTI)
    info.done_events = calib_fit_median (with_events, bare_runs);
  val_host_costs_median (bare_costs, bare_runs, &costs);
  info.host_calls_untimed = val_host_costs_format (&costs);
  info.clock_window = val_run_clock_window (run);
  if (!write_csv (opt, sched, &dev, times, opt->reps, &info, &error))
    status = report (error);

out:
  g_free (bare);
  g_free (with_events);
  g_free (bare_costs);
  g_free (info.host_calls);
  g_free (info.host_calls_untimed);
  g_free (host_costs);
  val_host_probe_free (probe);
  for (int r = 0; r < opt->reps; r++)
    val_times_free (times[r]);
  g_free (times);
  val_times_free (scratch);
  val_run_free (run);
  g_strfreev (names);
  val_device_clear (&dev);
  return status;
}

/* `self` starts the probes: /proc/self/exe, this very binary wherever it was
 * started from. */
static int
calibrate (const Options *opt, const char *self)
{
  g_autoptr (GError) error = NULL;
  ValProbeResults probes;
  val_probe_run_all (self, &probes);
  ValDevice dev;
  int status;
  if (!val_device_open (&dev, opt->device, &error))
    status = report (error);
  else
    status = val_calibrate_run (&dev, &probes, opt->output, &error) ? 0 : report (error);
  val_device_clear (&dev);
  val_probe_results_clear (&probes);
  return status;
}

/* --record FILE [--csv FILE] [--log FILE] [--min-host TIME] [--recorder-gap TIME] [-- PROGRAM ARG...] */
static int
record (const Options *opt, int argc, char **argv)
{
  ValRecordOptions ro = { .schedule = opt->record, .csv = opt->csv, .log = opt->log,
                          .min_host_ns = 2000, .device = opt->device };
  const char *why = NULL;
  if (opt->record == NULL)
    {
      fprintf (stderr, "streamsim-validate: --log, --min-host and --recorder-gap go with --record FILE\n");
      return EXIT_INPUT;
    }
  if (opt->min_host != NULL && !units_parse_time (opt->min_host, &ro.min_host_ns, &why))
    {
      fprintf (stderr, "streamsim-validate: --min-host %s: %s\n", opt->min_host, why);
      return EXIT_INPUT;
    }
  if (opt->recorder_gap != NULL && !units_parse_time (opt->recorder_gap, &ro.call_gap_ns, &why))
    {
      fprintf (stderr, "streamsim-validate: --recorder-gap %s: %s\n", opt->recorder_gap, why);
      return EXIT_INPUT;
    }
  /* GOption leaves "--" in argv when it stops there */
  int first = argc > 1 && strcmp (argv[1], "--") == 0 ? 2 : 1;
  if (first < argc)
    ro.program = argv + first;
  else if (opt->log == NULL)
    {
      fprintf (stderr, "streamsim-validate: --record FILE needs the program to run after --, "
                       "for example: --record app.sched -- ./app\n");
      return EXIT_INPUT;
    }
  /* the program inherits it, and the schedule says it */
  if (opt->connections > 0)
    {
      val_device_set_connections ((guint) opt->connections);
      ro.connections = (guint) opt->connections;
    }
  return val_record_main (&ro);
}

int
main (int argc, char **argv)
{
  Options opt = { .reps = 10, .warmup = 2 };
  GOptionEntry entries[] = {
    { "reps", 'n', 0, G_OPTION_ARG_INT, &opt.reps, "Timed repeats; each field is the median (default 10)", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &opt.warmup, "Untimed repeats first (default 2)", "N" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &opt.csv, "Write the measured timeline here (default: stdout)", "FILE" },
    { "connections", 0, 0, G_OPTION_ARG_INT, &opt.connections, "CUDA_DEVICE_MAX_CONNECTIONS, 1..32 (default: the schedule's, else the driver's; converting a --log: the run's, for the schedule)", "N" },
    { "device", 0, 0, G_OPTION_ARG_STRING, &opt.device, "Profile name of this GPU, for time= lists and the CSV (default: from the GPU's name, e.g. h100); with --record, of the GPU recorded on", "NAME" },
    { "timing", 0, 0, G_OPTION_ARG_STRING, &opt.timing, "How copies are timed: cupti (default; events when libcupti is missing) or events", "HOW" },
    { "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &opt.defines, "Override a `let` parameter (repeatable)", "NAME=VALUE" },
    { "calibrate", 0, 0, G_OPTION_ARG_NONE, &opt.calibrate, "Measure this GPU and write its device profile (with -o)", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt.output, "The profile --calibrate writes, e.g. engines/profiles/h100.ini", "FILE" },
    { "record", 0, 0, G_OPTION_ARG_FILENAME, &opt.record, "Run the program after -- with the recorder and write its schedule here (--csv: also its measured timeline)", "FILE" },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &opt.log, "With --record: keep the recorder's log here; with no program, convert this log", "FILE" },
    { "min-host", 0, 0, G_OPTION_ARG_STRING, &opt.min_host, "With --record: host time between calls shorter than this is left out (default 2us)", "TIME" },
    { "recorder-gap", 0, 0, G_OPTION_ARG_STRING, &opt.recorder_gap, "With --record: the recorder's own time at each call, taken off the host gaps, so that the schedule is the program without the recorder (default 0: gaps as recorded; about 0.3us on the H100 and H200, validate/fit-recorder-gap.sh)", "TIME" },
    { "probe", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &opt.probe, "One calibration probe (internal)", "NAME" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context
    = g_option_context_new ("SCHEDULE | --calibrate -o FILE | --record FILE -- PROGRAM [ARG...]");
  g_option_context_set_summary (context,
    "Runs a schedule on this machine's GPU with the real CUDA calls and writes the measured\n"
    "timeline (the same CSV as `streamsim predict`), or with --calibrate measures the GPU\n"
    "and writes its device profile, or with --record runs your own CUDA program under a\n"
    "recorder (CUPTI) and writes the schedule of the calls it made, to predict on other\n"
    "GPUs and settings; --csv then also writes what it measured, for `streamsim compare`.\n"
    "\n"
    "Examples:\n"
    "  streamsim-validate traces/seed/async-v1.sched --csv measured.csv\n"
    "  streamsim-validate --calibrate -o engines/profiles/h100.ini\n"
    "  streamsim-validate --record app.sched --csv app.measured.csv -- ./app --size 64\n"
    "\n"
    "Exit status: 0 success, 2 bad input, 3 no GPU or a CUDA failure.");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  int status;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    status = report (error);
  else if (opt.probe != NULL)
    status = val_probe_main (opt.probe);
  else if (opt.reps < 1 || opt.warmup < 0 || opt.connections < 0 || opt.connections > 32
           || (opt.timing != NULL && strcmp (opt.timing, "cupti") != 0
               && strcmp (opt.timing, "events") != 0))
    {
      fprintf (stderr, "streamsim-validate: --reps must be at least 1, --warmup at least 0, "
                       "--connections 1 to 32, --timing cupti or events\n");
      status = EXIT_INPUT;
    }
  else if (opt.record != NULL || opt.log != NULL || opt.min_host != NULL || opt.recorder_gap != NULL)
    status = record (&opt, argc, argv);
  else if (opt.calibrate)
    {
      if (opt.output == NULL || argc != 1)
        {
          fprintf (stderr, "streamsim-validate: --calibrate takes no schedule and needs -o FILE "
                           "(e.g. -o engines/profiles/h100.ini)\n");
          status = EXIT_INPUT;
        }
      else
        status = calibrate (&opt, "/proc/self/exe");
    }
  else if (argc != 2)
    {
      fprintf (stderr, "streamsim-validate: give one schedule file (or --calibrate -o FILE); "
                       "see --help\n");
      status = EXIT_INPUT;
    }
  else
    status = run_schedule (&opt, argv[1]);

  g_free (opt.csv);
  g_free (opt.device);
  g_free (opt.output);
  g_free (opt.probe);
  g_free (opt.timing);
  g_free (opt.record);
  g_free (opt.log);
  g_free (opt.min_host);
  g_free (opt.recorder_gap);
  g_strfreev (opt.defines);
  return status;
}
