/* bench_streamsim.c: how fast streamsim parses, simulates and writes the timeline of large generated schedules.
 *
 * For each size the benchmark generates a schedule's text with
 * tests/support/schedule_gen (not timed), then times the three phases of
 * `streamsim predict --csv` apart:
 *   parse  schedule_parse_text on the text, as `predict` parses a file;
 *   sim    eng_sim_new + eng_sim_run (through prediction_run_schedule);
 *   csv    prediction_write_csv to a file beside --csv-dir, then removed.
 * The text is freed after parsing, as `predict` frees the file it read.
 *
 * Peak memory is the high-water mark of the resident set (VmHWM) over the
 * three phases minus the resident set before the text was generated: what
 * predicting the schedule costs, its text included. A warm-up run of 1,000
 * ops comes first, so that the program's code is already resident at that
 * reading (warm_up says why). Each size runs in a
 * child process so that one size's freed memory cannot hide in the next
 * one's numbers. Timings are wall-clock (g_get_monotonic_time), single
 * thread; with --runs N each phase reports its fastest run (and memory its
 * first). Every run starts with the memory the runs before it freed given
 * back to the system (give_back_memory), so that each pays for its pages
 * much as a single `streamsim predict` does, not by luck of the heap. */
#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/front/prediction.h"
#include "sim/formats/profile_file.h"
#include "support/schedule_gen.h"
#include "bench_advise.h"
#include "sim/formats/schedule_parse.h"

typedef struct
{
  guint64 ops;
  gsize text_bytes;
  double gen_s, parse_s, sim_s, csv_s;
  guint64 events;
  SimTime makespan;
  gint64 base_kib, peak_kib;   /* resident set before generating, high-water mark after */
  gint64 parse_kib, sim_kib, csv_kib; /* high-water mark of each phase */
  gint64 parse_faults, sim_faults, csv_faults; /* page faults of each phase (first run) */
  gboolean ok;
  char error[512];
} BenchResult;

typedef struct
{
  ScheduleGenOptions gen;
  const char *device;
  const char *csv_dir;
  guint runs;
  gboolean warm_up;   /* run warm_up() first (not in --in-process, for profilers) */
} Bench;

/* A "VmRSS:" or "VmHWM:" line of /proc/self/status, in KiB; -1 if absent. */
static gint64
status_kib (const char *key)
{
  g_autofree char *status = NULL;
  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  const char *line = strstr (status, key);
  if (line == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen (key), NULL, 10);
}

/* Resets VmHWM to the current resident set (Linux >= 4.0), so that the next
 * reading is the peak of the phase that follows. Without it the readings are
 * the peak so far, which only makes later phases look as big as earlier ones. */
static void
reset_peak (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  if (f == NULL)
    return;
  fputs ("5", f);
  fclose (f);
}

/* Page faults this process has taken so far. On a VM each first touch of a
 * page costs 1.5 to 2.5 us (measured on the VMs this ran on), and unlike the
 * clock the count repeats from run to run, so it shows what a change to
 * memory use buys before the clock can. */
static gint64
faults_so_far (void)
{
  struct rusage usage;
  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0;
  return usage.ru_minflt + usage.ru_majflt;
}

/* A result with no phase timed yet: each phase keeps its fastest run. */
static void
result_init (BenchResult *res, guint64 ops)
{
  memset (res, 0, sizeof *res);
  res->ops = ops;
  res->parse_s = res->sim_s = res->csv_s = G_MAXDOUBLE;
}

static void
fail (BenchResult *res, const char *what, const GError *error)
{
  res->ok = FALSE;
  g_snprintf (res->error, sizeof res->error, "%s: %s", what,
              error != NULL ? error->message : "failed");
}

/* Generates, parses, simulates and writes the CSV of one schedule of `ops`
 * ops, keeping each phase's fastest time in `res`; with `measure`, also the
 * resident set before and the peak of each phase. FALSE (with res->error)
 * when a phase fails. */
static gboolean
run_once (const Bench *b, const GpuProfile *profile, guint64 ops, const char *csv,
          gboolean measure, BenchResult *res)
{
  g_autoptr (GError) error = NULL;
  ScheduleGenOptions gen = b->gen;
  gen.n_ops = ops;
  if (measure)
    res->base_kib = status_kib ("VmRSS:");
  gint64 t0 = g_get_monotonic_time ();
  gsize length;
  char *text = schedule_gen_text (&gen, &length);
  gint64 t1 = g_get_monotonic_time ();
  res->text_bytes = length;
  res->gen_s = (t1 - t0) / 1e6;

  reset_peak ();
  gint64 f0 = faults_so_far ();
  t0 = g_get_monotonic_time ();
  ScheduleParseOptions parse = { NULL, ops + 1 };
  Schedule *sched = schedule_parse_text ("generated.sched", text, length, &parse, &error);
  t1 = g_get_monotonic_time ();
  if (measure)
    {
      res->parse_kib = status_kib ("VmHWM:");
      res->parse_faults = faults_so_far () - f0;
    }
  g_free (text);
  if (sched == NULL)
    {
      fail (res, "parse", error);
      return FALSE;
    }
  res->parse_s = MIN (res->parse_s, (t1 - t0) / 1e6);

  reset_peak ();
  f0 = faults_so_far ();
  t0 = g_get_monotonic_time ();
  Prediction *p = prediction_run_schedule (sched, profile, 0, &error);
  t1 = g_get_monotonic_time ();
  if (measure)
    {
      res->sim_kib = status_kib ("VmHWM:");
      res->sim_faults = faults_so_far () - f0;
    }
  if (p == NULL)
    {
      fail (res, "simulate", error);
      return FALSE;
    }
  res->sim_s = MIN (res->sim_s, (t1 - t0) / 1e6);
  res->events = eng_sim_events (prediction_sim (p));
  res->makespan = prediction_makespan (p);

  reset_peak ();
  f0 = faults_so_far ();
  t0 = g_get_monotonic_time ();
  gboolean ok = prediction_write_csv (p, csv, &error);
  t1 = g_get_monotonic_time ();
  if (measure)
    {
      res->csv_kib = status_kib ("VmHWM:");
      res->csv_faults = faults_so_far () - f0;
    }
  g_remove (csv);
  prediction_free (p);
  if (!ok)
    {
      fail (res, "csv", error);
      return FALSE;
    }
  res->csv_s = MIN (res->csv_s, (t1 - t0) / 1e6);
  return TRUE;
}

/* Gives what the process freed back to the system. Without it a later run
 * could reuse pages an earlier one faulted in, or not, depending on where
 * glibc's heap happened to put things: at 2 x 10^5 ops, two runs in twelve
 * parsed with almost no page fault (0 or 5 against 4,400; 0.033 s against
 * 0.042 s), and any change that moves the heap's layout can add or remove
 * such runs, so that the fastest parse looks 25% slower or faster with no
 * change to parsing. */
static void
give_back_memory (void)
{
#if defined(__GLIBC__)
  malloc_trim (0);
#endif
}

/* Runs the three phases once on a small schedule before anything is
 * measured. The resident set also counts the program's code, its own and
 * GLib's, page by page as it first runs: 130 to 200 KiB in the simulation
 * phase alone, which at 10^4 ops was 13 to 20 bytes per op, varying from
 * run to run, and has nothing to do with the schedule's size. After the
 * warm-up that code is resident before the base reading; malloc_trim gives
 * back what the warm-up freed, so that the measured run cannot reuse it and
 * hide part of its own peak. */
static void
warm_up (const Bench *b, const GpuProfile *profile, const char *csv)
{
  BenchResult scratch;
  result_init (&scratch, 1000);
  run_once (b, profile, 1000, csv, FALSE, &scratch);
  give_back_memory ();
}

static void
bench_one (const Bench *b, guint64 ops, BenchResult *res)
{
  g_autoptr (GError) error = NULL;
  GpuProfile profile = { 0 };
  result_init (res, ops);
  if (!profile_load (b->device, &profile, &error))
    {
      fail (res, "profile", error);
      return;
    }
  g_autofree char *csv = g_strdup_printf ("%s/streamsim-bench-%d.csv", b->csv_dir, (int) getpid ());
  if (b->warm_up)
    warm_up (b, &profile, csv);

  /* Memory is measured on the first run only: later runs reuse what the
   * first one freed, which would hide part of their peak. */
  res->ok = TRUE;
  for (guint run = 0; run < b->runs && res->ok; run++)
    {
      if (run > 0)
        give_back_memory ();
      res->ok = run_once (b, &profile, ops, csv, run == 0, res);
    }
  res->peak_kib = MAX (res->parse_kib, MAX (res->sim_kib, res->csv_kib));
  gpu_profile_clear (&profile);
}

/* Runs one size in a child process and reads its result from a pipe. */
static void
bench_in_child (const Bench *b, guint64 ops, BenchResult *res)
{
  int fds[2];
  if (pipe (fds) != 0)
    {
      bench_one (b, ops, res);
      return;
    }
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    {
      close (fds[0]);
      close (fds[1]);
      bench_one (b, ops, res);
      return;
    }
  if (pid == 0)
    {
      close (fds[0]);
      BenchResult mine;
      bench_one (b, ops, &mine);
      gboolean written = write (fds[1], &mine, sizeof mine) == sizeof mine;
      _exit (written ? 0 : 1);
    }
  close (fds[1]);
  memset (res, 0, sizeof *res);
  gssize got = 0;
  while (got < (gssize) sizeof *res)
    {
      gssize n = read (fds[0], (char *) res + got, sizeof *res - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += n;
    }
  close (fds[0]);
  int status;
  waitpid (pid, &status, 0);
  if (got != (gssize) sizeof *res)
    {
      memset (res, 0, sizeof *res);
      res->ops = ops;
      g_snprintf (res->error, sizeof res->error, "the child process died (status %d)", status);
    }
}

static gboolean
parse_ops_list (const char *text, GArray *sizes, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 n;
      char *s = g_strstrip (parts[i]);
      /* 1e6 and 10^6 are accepted as well as plain numbers */
      if (g_str_has_prefix (s, "10^"))
        {
          guint64 e;
          if (!g_ascii_string_to_unsigned (s + 3, 10, 0, 12, &e, error))
            return FALSE;
          n = 1;
          while (e-- > 0)
            n *= 10;
        }
      else if (strchr (s, 'e') != NULL)
        {
          char *end;
          double d = g_ascii_strtod (s, &end);
          if (*end != '\0' || d < 1 || d > 1e12)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--ops %s: expected a count such as 1000000, 1e6 or 10^6", s);
              return FALSE;
            }
          n = (guint64) d;
        }
      else if (!g_ascii_string_to_unsigned (s, 10, 1, G_GUINT64_CONSTANT (1000000000000), &n,
                                            error))
        return FALSE;
      g_array_append_val (sizes, n);
    }
  return TRUE;
}

static gboolean show_phases;

static void
print_row (const BenchResult *r)
{
  if (!r->ok && r->error[0] != '\0')
    {
      printf ("%10" G_GUINT64_FORMAT "  error: %s\n", r->ops, r->error);
      return;
    }
  double n = (double) r->ops;
  double total = r->parse_s + r->sim_s + r->csv_s;
  double peak = (double) (r->peak_kib - r->base_kib) * 1024.0;
  printf ("%10" G_GUINT64_FORMAT " %9.3f %11.3g %9.3f %11.3g %9.3f %10.3f %8.0f %8.1f %7.1f\n",
          r->ops, r->parse_s, n / r->parse_s, r->sim_s, n / r->sim_s, r->csv_s, total,
          peak / n, r->text_bytes / n, r->events / n);
  if (show_phases)
    printf ("%10s peak B/op by phase: parse %.0f, simulate %.0f, csv %.0f\n", "",
            (double) (r->parse_kib - r->base_kib) * 1024.0 / n,
            (double) (r->sim_kib - r->base_kib) * 1024.0 / n,
            (double) (r->csv_kib - r->base_kib) * 1024.0 / n);
  if (show_phases)
    printf ("%10s page faults of the first run by phase: parse %" G_GINT64_FORMAT
            ", simulate %" G_GINT64_FORMAT ", csv %" G_GINT64_FORMAT "\n", "",
            r->parse_faults, r->sim_faults, r->csv_faults);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  g_auto (GStrv) ops_args = NULL;
  gint streams = 16, connections = 8;
  gint64 seed = 1;
  gint runs = 1;
  gboolean big = FALSE, in_process = FALSE;
  /* NULL until parsed: GOption overwrites a string option without freeing
   * what was there, so the defaults are filled in after parsing. */
  g_autofree char *device = NULL;
  g_autofree char *csv_dir = NULL;
  g_autofree char *emit = NULL;
  gboolean advise = FALSE;
  gint jobs = 1;
  GOptionEntry entries[] = {
    { "ops", 'n', 0, G_OPTION_ARG_STRING_ARRAY, &ops_args,
      "Schedule sizes, repeatable or a list (default 10^4,10^5,10^6,10^7)", "N[,N...]" },
    { "streams", 's', 0, G_OPTION_ARG_INT, &streams, "Streams, 1..1024 (default 16)", "S" },
    { "connections", 'c', 0, G_OPTION_ARG_INT, &connections,
      "Hardware queues, 1..32 (default 8)", "C" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Generator seed (default 1)", "SEED" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, "Device profile (default k20)", "D" },
    { "big-kernels", 0, 0, G_OPTION_ARG_NONE, &big, "Every kernel has 100,000 blocks", NULL },
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Runs per size; each phase reports its fastest (default 1)", "N" },
    { "csv-dir", 0, 0, G_OPTION_ARG_FILENAME, &csv_dir, "Where the CSV is written (default /tmp)", "DIR" },
    { "in-process", 0, 0, G_OPTION_ARG_NONE, &in_process,
      "Run every size in this process, with no warm-up run (for profilers; peak memory then accumulates)", NULL },
    { "phases", 0, 0, G_OPTION_ARG_NONE, &show_phases,
      "Also print the peak memory and page faults of each phase", NULL },
    { "emit", 0, 0, G_OPTION_ARG_FILENAME, &emit,
      "Write the schedule of the first size to FILE and exit", "FILE" },
    { "advise", 0, 0, G_OPTION_ARG_NONE, &advise,
      "Time `streamsim advise` instead: candidates a second (default sizes 200,1000)", NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Threads for --advise (default 1)", "N" },
    G_OPTION_ENTRY_NULL,
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- time parsing, simulating and writing the CSV of generated schedules");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "streamsim-bench: %s\n", error->message);
      return 2;
    }
  if (device == NULL)
    device = g_strdup ("k20");
  if (csv_dir == NULL)
    csv_dir = g_strdup (g_get_tmp_dir ());
  if (streams < 1 || streams > SCHEDULE_GEN_MAX_STREAMS || connections < 1 || connections > 32
      || runs < 1 || seed < 0)
    {
      fprintf (stderr, "streamsim-bench: --streams 1..1024, --connections 1..32, --runs >= 1, --seed >= 0\n");
      return 2;
    }

  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint i = 0; ops_args != NULL && ops_args[i] != NULL; i++)
    if (!parse_ops_list (ops_args[i], sizes, &error))
      {
        fprintf (stderr, "streamsim-bench: %s\n", error->message);
        return 2;
      }
  if (sizes->len == 0 && advise)
    {
      static const guint64 defaults[] = { 200, 1000 };
      g_array_append_vals (sizes, defaults, G_N_ELEMENTS (defaults));
    }
  if (sizes->len == 0)
    {
      static const guint64 defaults[] = { 10000, 100000, 1000000, 10000000 };
      g_array_append_vals (sizes, defaults, G_N_ELEMENTS (defaults));
    }

  Bench b;
  schedule_gen_options_init (&b.gen);
  b.gen.seed = (guint64) seed;
  b.gen.n_streams = (guint) streams;
  b.gen.connections = (guint) connections;
  b.gen.device = device;
  b.gen.big_kernels = big;
  b.device = device;
  b.csv_dir = csv_dir;
  b.runs = (guint) runs;
  b.warm_up = !in_process;

  if (emit != NULL)
    {
      b.gen.n_ops = g_array_index (sizes, guint64, 0);
      gsize length;
      g_autofree char *text = schedule_gen_text (&b.gen, &length);
      if (!g_file_set_contents (emit, text, length, &error))
        {
          fprintf (stderr, "streamsim-bench: %s\n", error->message);
          return 3;
        }
      return 0;
    }

  if (advise)
    return bench_advise (&b.gen, sizes, b.runs, (guint) MAX (jobs, 1));

  printf ("# streamsim-bench: device %s, %d streams, %d connections, seed %" G_GINT64_FORMAT
          "%s, %d run%s per size\n",
          device, streams, connections, seed, big ? ", 100,000-block kernels" : "", runs,
          runs == 1 ? "" : "s");
  printf ("%10s %9s %11s %9s %11s %9s %10s %8s %8s %7s\n", "ops", "parse_s", "parse_ops/s",
          "sim_s", "sim_ops/s", "csv_s", "total_s", "peak_B/op", "text_B/op", "ev/op");
  int status = 0;
  for (guint i = 0; i < sizes->len; i++)
    {
      BenchResult r;
      guint64 ops = g_array_index (sizes, guint64, i);
      if (in_process)
        bench_one (&b, ops, &r);
      else
        bench_in_child (&b, ops, &r);
      print_row (&r);
      if (!r.ok)
        status = 1;
    }
  return status;
}
