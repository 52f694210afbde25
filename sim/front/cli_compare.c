/* cli_compare.c: `streamsim compare PREDICTED.csv MEASURED.csv`: per-op and makespan errors of a prediction. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "compare.h"
#include "input_gzip.h"
#include "op_name.h"
#include "sim/formats/timeline.h"
#include "sim/formats/units.h"

#define DEFAULT_MAX_ERROR 10.0
#define DEFAULT_REGION_MIN_MS 0.5

static double
us (SimTime ns)
{
  return (double) ns / 1000.0;
}

static void
print_source (const char *what, const Timeline *t)
{
  const char *keys[] = { "source", "device", "gpu" };
  GString *meta = g_string_new (NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *value = timeline_meta (t, keys[i]);
      if (value != NULL)
        g_string_append_printf (meta, "%s%s: %s", meta->len ? ", " : "", keys[i], value);
    }
  printf ("%-11s %s", what, timeline_path (t));
  if (meta->len > 0)
    printf (" (%s)", meta->str);
  printf ("\n");
  g_string_free (meta, TRUE);
}

/* Op labels for listings: the predicted row's (the schedule's label=),
 * else the measured row's. */
typedef struct
{
  const Timeline *timeline[2];
  GHashTable *rows[2]; /* rows by op number (timeline_op_rows) */
} OpLabels;

static void
op_labels_init (OpLabels *labels, const Timeline *predicted, const Timeline *measured)
{
  labels->timeline[0] = predicted;
  labels->timeline[1] = measured;
  for (guint i = 0; i < 2; i++)
    labels->rows[i] = timeline_op_rows (labels->timeline[i]);
}

static void
op_labels_clear (OpLabels *labels)
{
  for (guint i = 0; i < 2; i++)
    g_hash_table_unref (labels->rows[i]);
}

static const char *
op_label (guint32 op, gconstpointer data)
{
  const OpLabels *labels = data;
  for (guint i = 0; i < 2; i++)
    {
      gsize row;
      if (!timeline_op_row (labels->rows[i], op, &row))
        continue;
      const char *label = timeline_row (labels->timeline[i], row)->label;
      if (label != NULL && *label != '\0')
        return label;
    }
  return NULL;
}

/* " LABEL" for a table's last column, escaped and quoted as op names are
 * (op_name.h), or " -" for an op without one. */
static void
print_label_cell (guint32 op, const OpLabels *labels)
{
  const char *label = op_label (op, labels);
  if (label == NULL)
    {
      printf (" -");
      return;
    }
  g_autoptr (GString) name = g_string_new (NULL);
  op_name_append (name, op, label);
  /* the name without its "op N " */
  printf (" %s", strchr (name->str + 3, ' ') + 1);
}

static void
print_ops (const Compare *cmp, const OpLabels *labels)
{
  gboolean any_label = FALSE;
  for (gsize i = 0; i < compare_n_ops (cmp) && !any_label; i++)
    any_label = op_label (compare_op (cmp, i)->op, labels) != NULL;
  printf ("%5s %5s %-10s %-7s %12s %12s %10s %12s %12s %10s%s\n", "op", "line", "stream",
          "kind", "pred_start", "meas_start", "d_start", "pred_end", "meas_end", "d_end",
          any_label ? " label" : "");
  for (gsize i = 0; i < compare_n_ops (cmp); i++)
    {
      const CompareOp *op = compare_op (cmp, i);
      printf ("%5u %5u %-10s %-7s %12.1f %12.1f %+10.1f %12.1f %12.1f %+10.1f", op->op,
              op->line, op->stream != NULL ? op->stream : "", op->kind != NULL ? op->kind : "",
              us (op->pred_start), us (op->meas_start), us (op->start_error), us (op->pred_end),
              us (op->meas_end), us (op->end_error));
      if (any_label)
        print_label_cell (op->op, labels);
      printf ("\n");
    }
  printf ("(times in us from the first API call; d_ = predicted - measured)\n\n");
}

static const char *
region_kind (const CompareRegion *r)
{
  return r->kind == COMPARE_REGION_SYNC ? "sync" : "elapsed";
}

/* One line naming a region: its error, number, ops, kind and measured
 * length; `by_order`: the ops of both timelines. */
static void
print_region_line (const char *what, const Compare *cmp, gsize index, gboolean by_order)
{
  if (index == G_MAXSIZE)
    {
      printf ("%-11s none\n", what);
      return;
    }
  const CompareRegion *r = compare_region (cmp, index);
  g_autofree char *pred = units_format_time (r->pred);
  g_autofree char *meas = units_format_time (r->meas);
  if (by_order)
    printf ("%-11s %+.2f%% (region %" G_GSIZE_FORMAT ": measured ops %u to %u, predicted ops %u "
            "to %u, %s, predicted %s, measured %s)\n", what, r->error, index, r->from_op,
            r->to_op, r->pred_from_op, r->pred_to_op, region_kind (r), pred, meas);
  else
    printf ("%-11s %+.2f%% (region %" G_GSIZE_FORMAT ": ops %u to %u, %s, predicted %s, "
            "measured %s)\n", what, r->error, index, r->from_op, r->to_op, region_kind (r), pred,
            meas);
}

/* The regions' table and summary; `n_runs`, how many --runs were added:
 * their columns and line, none when 0. */
static void
print_regions (const Compare *cmp, SimTime min_meas, const OpLabels *labels, gboolean by_order,
               guint n_runs)
{
  gboolean any_label = FALSE;
  for (gsize i = 0; i < compare_n_regions (cmp) && !any_label; i++)
    {
      const CompareRegion *r = compare_region (cmp, i);
      any_label = op_label (r->from_op, labels) != NULL || op_label (r->to_op, labels) != NULL;
    }
  printf ("%6s %-8s %7s %7s", "region", "kind", "from_op", "to_op");
  if (by_order)
    printf (" %9s %9s", "pred_from", "pred_to");
  printf (" %12s %12s %9s %8s %8s", "pred_us", "meas_us", "error", "host", "wait");
  if (n_runs > 0)
    printf (" %12s %12s %4s %-7s", "runs_min_us", "runs_max_us", "runs", "over");
  printf ("%s\n", any_label ? "  from_label to_label" : "");
  for (gsize i = 0; i < compare_n_regions (cmp); i++)
    {
      const CompareRegion *r = compare_region (cmp, i);
      printf ("%6" G_GSIZE_FORMAT " %-8s %7u %7u", i, region_kind (r), r->from_op, r->to_op);
      if (by_order)
        printf (" %9u %9u", r->pred_from_op, r->pred_to_op);
      printf (" %12.1f %12.1f %+8.2f%% %+7.2f%% %+7.2f%%", us (r->pred), us (r->meas), r->error,
              r->host_error, r->error - r->host_error);
      const CompareRunSpread *spread = compare_region_runs (cmp, i);
      if (spread != NULL && spread->runs > 0)
        printf (" %12.1f %12.1f %4u %-7s", us (spread->shortest), us (spread->longest), spread->runs,
                compare_region_inside_runs (cmp, i) ? "inside" : "outside");
      else if (n_runs > 0)
        printf (" %12s %12s %4u %-7s", "-", "-", 0u, "-");
      if (any_label)
        {
          printf (" ");
          print_label_cell (r->from_op, labels);
          print_label_cell (r->to_op, labels);
        }
      printf ("\n");
    }
  if (by_order)
    printf ("(from the end of op from_op to the end of op to_op in the measured timeline, of "
            "pred_from to pred_to in the predicted one, the k-th region of its kind in each; "
            "error = (pred - meas) / meas");
  else
    printf ("(from the end of op from_op to the end of op to_op; error = (pred - meas) / meas");
  printf (", in two parts that add up to it: host, until the host issued the closing op "
          "(the calls' costs and waits on the way), and wait, from there to its end");
  if (n_runs > 0)
    printf ("; runs_min_us and runs_max_us, the region's shortest and longest here and in the "
            "runs that have as many regions of its kind (runs: how many), over: whether pred_us "
            "lies within them");
  printf (")\n\n");
  double ms = us (min_meas) / 1000.0;
  gsize big = compare_n_regions_over (cmp, min_meas);
  printf ("%-11s %" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT " of %.2f ms or more)\n", "regions",
          compare_n_regions (cmp), big, ms);
  if (compare_n_regions (cmp) == 0)
    return;
  printf ("%-11s |error| %.2f%% over all regions", "median", compare_region_error (cmp, 0.5, 0));
  if (big > 0)
    printf (", %.2f%% over those of %.2f ms or more", compare_region_error (cmp, 0.5, min_meas), ms);
  printf ("\n");
  print_region_line ("worst", cmp, compare_worst_region (cmp, 0), by_order);
  print_region_line ("worst long", cmp, compare_worst_region (cmp, min_meas), by_order);
  if (n_runs == 0)
    return;
  printf ("%-11s %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " regions predicted within the lengths "
          "they measured over %u more run%s", "over runs", compare_n_regions_inside_runs (cmp, 0),
          compare_n_regions (cmp), n_runs, n_runs == 1 ? "" : "s");
  if (big > 0)
    printf (" (%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " of %.2f ms or more)",
            compare_n_regions_inside_runs (cmp, min_meas), big, ms);
  printf ("; median |error| %.2f%% with those counted as met", compare_region_error_over_runs (cmp, 0.5, 0));
  if (big > 0)
    printf (", %.2f%% over those of %.2f ms or more", compare_region_error_over_runs (cmp, 0.5, min_meas), ms);
  printf ("\n");
}

static void
print_summary (const Compare *cmp, const OpLabels *labels, const Timeline *predicted,
               const Timeline *measured, gboolean by_order)
{
  char *pred = units_format_time (compare_predicted_makespan (cmp));
  char *meas = units_format_time (compare_measured_makespan (cmp));
  if (by_order)
    printf ("%-11s %" G_GSIZE_FORMAT " predicted, %" G_GSIZE_FORMAT " measured, not matched "
            "(--by-order)\n", "ops", timeline_n_rows (predicted), timeline_n_rows (measured));
  else
    printf ("%-11s %" G_GSIZE_FORMAT "\n", "ops", compare_n_ops (cmp));
  printf ("%-11s predicted %s, measured %s, error %+.2f%%\n", "makespan", pred, meas,
          compare_makespan_error (cmp));
  g_free (pred);
  g_free (meas);
  if (compare_n_ops (cmp) == 0)
    return;
  const CompareOp *worst = compare_op (cmp, compare_worst_end (cmp));
  g_autoptr (GString) name = g_string_new (NULL);
  op_name_append (name, worst->op, op_label (worst->op, labels));
  printf ("%-11s median %.2f%%, 90%% %.2f%%, max %.2f%% (%s, line %u, %s) of the measured makespan\n",
          "end error", compare_end_error (cmp, 0.5), compare_end_error (cmp, 0.9),
          compare_end_error (cmp, 1.0), name->str, worst->line, worst->kind);
  printf ("%-11s median %.2f%%, 90%% %.2f%%, max %.2f%% of the measured makespan\n",
          "start error", compare_start_error (cmp, 0.5), compare_start_error (cmp, 0.9),
          compare_start_error (cmp, 1.0));
}

int
cli_compare_main (int argc, char **argv)
{
  double max_error = DEFAULT_MAX_ERROR;
  double region_min = DEFAULT_REGION_MIN_MS;
  gboolean ops = FALSE, regions = FALSE, quiet = FALSE, by_order = FALSE;
  g_auto (GStrv) runs = NULL;
  GOptionEntry entries[] = {
    { "max-error", 0, 0, G_OPTION_ARG_DOUBLE, &max_error,
      "Exit 1 when |makespan error| passes PCT percent (default 10)", "PCT" },
    { "ops", 0, 0, G_OPTION_ARG_NONE, &ops, "Print every op's start and end, both ways", NULL },
    { "regions", 0, 0, G_OPTION_ARG_NONE, &regions,
      "Print every region (from one synchronization, a sync or a blocking copy to the host, "
      "to the next of the same host thread, and each interval the program timed with cudaEventElapsedTime) with its "
      "error, split into the part until the host issued the op that closes it and the part "
      "after, and their median and worst", NULL },
    { "by-order", 0, 0, G_OPTION_ARG_NONE, &by_order,
      "The timelines are of different schedules of one program (recorded or imported on "
      "another machine or GPU, so their host gaps and ops differ): pair their regions by "
      "order, the k-th of each kind in one with the k-th in the other, with no op matched "
      "(implies --regions)", NULL },
    { "runs", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &runs,
      "With --regions: another measured timeline of the same program (recorded again; "
      "repeat the option for more): each region's shortest and longest over the runs, "
      "whether the prediction lies within them, and the median |error| with those "
      "regions counted as met (the program's own spread from run to run)", "FILE.csv" },
    { "region-min", 0, 0, G_OPTION_ARG_DOUBLE, &region_min,
      "With --regions, also the worst region measured at least MS milliseconds long "
      "(default 0.5)", "MS" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      "Print nothing but errors: the exit status says whether the makespan error is within "
      "--max-error", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("PREDICTED.csv MEASURED.csv");
  g_option_context_set_summary (context,
    "Compares two timeline CSVs of the same schedule op by op (matched by op and\n"
    "line; each op's kind and stream must agree, or the files are of different\n"
    "schedules): per-op start and end errors and the makespan error, predicted\n"
    "minus measured, as percentages of the measured makespan (- reads one of them\n"
    "from standard input; gzipped files are read as the text they hold). With\n"
    "--regions, the intervals that end where the host waited for the GPU (a sync\n"
    "or a blocking copy to the host), and those the program timed between two\n"
    "event records (label=elapsed_from_opN, as streamsim-validate --record writes\n"
    "it), as percentages of their measured length; with --by-order, those of two\n"
    "schedules of one program, paired by order. Exit status: 0 within\n"
    "--max-error, 1 over it, 2 bad input, 3 a file that cannot be read.");
  g_option_context_add_main_entries (context, entries, NULL);

  g_auto (GStrv) args = NULL;
  if (!cli_parse_options (context, entries, argc, argv, &args))
    return CLI_EXIT_INPUT;
  g_autoptr (GError) error = NULL;
  if (g_strv_length (args) != 3)
    {
      cli_error ("streamsim: compare needs two timeline CSVs, PREDICTED and MEASURED "
                 "(see streamsim compare --help)");
      return CLI_EXIT_INPUT;
    }
  guint n_runs = runs != NULL ? g_strv_length (runs) : 0;
  guint from_stdin = (strcmp (args[1], "-") == 0) + (strcmp (args[2], "-") == 0);
  for (guint i = 0; i < n_runs; i++)
    from_stdin += strcmp (runs[i], "-") == 0;
  if (from_stdin > 1)
    {
      cli_error ("streamsim: compare can read only one of its timelines from - (standard input)");
      return CLI_EXIT_INPUT;
    }
  if (by_order && ops)
    {
      cli_error ("streamsim: --ops compares op by op, which --by-order does not: its "
                 "timelines' ops differ");
      return CLI_EXIT_INPUT;
    }
  regions = regions || by_order;
  if (runs != NULL && !regions)
    {
      cli_error ("streamsim: --runs compares regions over runs: it goes with --regions or "
                 "--by-order");
      return CLI_EXIT_INPUT;
    }
  if (!(max_error >= 0) || isinf (max_error))
    {
      cli_error ("streamsim: --max-error must be a percentage >= 0, not %g", max_error);
      return CLI_EXIT_INPUT;
    }
  /* at most a day: the nanoseconds stay far inside SimTime */
  if (!(region_min >= 0) || region_min > 86400e3)
    {
      cli_error ("streamsim: --region-min must be milliseconds from 0 to 86400000, not %g",
                 region_min);
      return CLI_EXIT_INPUT;
    }

  g_autoptr (Timeline) predicted = input_gzip_timeline (args[1], &error);
  if (predicted == NULL)
    return cli_report_error (error);
  g_autoptr (Timeline) measured = input_gzip_timeline (args[2], &error);
  if (measured == NULL)
    return cli_report_error (error);
  g_autoptr (Compare) cmp = by_order ? compare_by_order (predicted, measured, &error)
                                      : compare_timelines (predicted, measured, &error);
  if (cmp == NULL)
    {
      if (by_order && error->code == COMPARE_ERROR_REGION)
        cli_error ("streamsim: %s", error->message);
      else if (!by_order && error->code == COMPARE_ERROR_MISMATCH)
        cli_error ("streamsim: %s (two schedules of one program: --by-order)", error->message);
      else
        cli_error ("streamsim: %s", error->message);
      return CLI_EXIT_INPUT;
    }

  if (regions && !by_order && !compare_find_regions (cmp, &error))
    {
      cli_error ("streamsim: %s: %s", timeline_path (measured), error->message);
      return CLI_EXIT_INPUT;
    }

  for (guint i = 0; i < n_runs; i++)
    {
      g_autoptr (Timeline) run = input_gzip_timeline (runs[i], &error);
      if (run == NULL)
        return cli_report_error (error);
      if (!compare_add_run (cmp, run, &error))
        {
          cli_error ("streamsim: %s: %s", runs[i], error->message);
          return CLI_EXIT_INPUT;
        }
    }

  /* with --by-order, op numbers are the measured timeline's */
  OpLabels labels;
  op_labels_init (&labels, by_order ? measured : predicted, measured);
  if (ops)
    print_ops (cmp, &labels);
  if (!quiet)
    {
      print_source ("predicted", predicted);
      print_source ("measured", measured);
      print_summary (cmp, &labels, predicted, measured, by_order);
    }
  if (regions)
    print_regions (cmp, (SimTime) llround (region_min * 1e6), &labels, by_order, n_runs);
  op_labels_clear (&labels);

  double err = compare_makespan_error (cmp);
  gboolean over = fabs (err) > max_error;
  if (!quiet)
    printf ("%-11s makespan error %.2f%% %s %.2f%% (--max-error)\n", "verdict", fabs (err),
            over ? ">" : "<=", max_error);
  return over ? CLI_EXIT_NO : CLI_EXIT_OK;
}
