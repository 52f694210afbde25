/* cli_predict_lists.c: predict's listings (--explain, --critical-path, --check). */
#include "cli.h"
#include "cli_predict.h"
#include "engines/eng_check.h"
#include "sim/formats/units.h"

void
cli_report_section (CliReport *report)
{
  if (report->started)
    fputc ('\n', report->out);
  report->started = TRUE;
}

void
cli_predict_explain (const Prediction *p, const gboolean *show, CliReport *report)
{
  const Schedule *sched = prediction_schedule (p);
  const EngOpResult *results = eng_sim_results (prediction_sim (p));
  g_autoptr (GString) scratch = g_string_new (NULL);
  cli_report_section (report);
  FILE *out = report->out;
  fprintf (out, "why ops waited (start - issue; the last thing each waited for):\n");
  gsize shown = 0;
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const EngOpResult *r = &results[i];
      if (r->cause == ENG_CAUSE_NONE || (show != NULL && !show[r->cause]))
        continue;
      TimelineRow row;
      prediction_row (p, i, &row, scratch);
      g_autofree char *w = units_format_time (prediction_waited (p, i));
      fprintf (out, "  op %-5" G_GSIZE_FORMAT " line %-4u %-6s %-8s waited %10s: %s\n", i, row.line,
               row.kind, row.stream, w, row.cause);
      shown++;
    }
  if (shown == 0)
    fprintf (out, show != NULL ? "  no op waited for these causes\n" : "  no op waited\n");
}

/* "  time on the path: compute 2 ms, h2d 1 ms, calls and latencies 8 us":
 * what to make faster, the engine that holds most of the path first. */
static void
print_path_time (const Prediction *p, const GArray *path, FILE *out)
{
  PredictionPathTime time;
  prediction_critical_path_time (p, path, &time);
  g_autofree char *text = prediction_path_time_text (&time);
  fprintf (out, "  time on the path: %s\n", text);
}

void
cli_predict_critical_path (const Prediction *p, const GArray *path, CliReport *report)
{
  g_autoptr (GString) scratch = g_string_new (NULL);
  cli_report_section (report);
  FILE *out = report->out;
  fprintf (out, "critical path (each op waited for the one above it; the last ends at the "
                "makespan):\n");
  for (guint i = 0; i < path->len; i++)
    {
      TimelineRow row;
      prediction_path_row (p, g_array_index (path, guint32, i), &row, scratch);
      g_autofree char *start = units_format_time (row.start);
      g_autofree char *end = units_format_time (row.end);
      fprintf (out, "  op %-5u line %-4u %-6s %-8s %10s - ", row.op, row.line, row.kind,
               row.stream, start);
      if (*row.cause == '\0') /* the first op, which waited for nothing */
        fprintf (out, "%s\n", end);
      else
        fprintf (out, "%-10s  %s\n", end, row.cause);
    }
  if (path->len == 0)
    {
      fprintf (out, "  no op\n");
      return;
    }
  /* The chain ends at an op that waited for nothing and that no call
   * before it held the host for: only the calls' costs set its issue. */
  guint32 first = g_array_index (path, guint32, 0);
  SimTime issue = eng_sim_results (prediction_sim (p))[first].issue;
  if (issue > 0 && eng_sim_results (prediction_sim (p))[first].cause == ENG_CAUSE_NONE)
    {
      g_autofree char *at = units_format_time (issue);
      if (first == 1)
        fprintf (out, "  (the host issued op 1 at %s, after the cost of the call before it)\n", at);
      else
        fprintf (out, "  (the host issued op %u at %s, after the costs of the %u calls before it)\n",
                 first, at, first);
    }
  print_path_time (p, path, out);
}

gboolean
cli_predict_check (const Prediction *p, CliReport *report, gboolean quiet)
{
  const Schedule *sched = prediction_schedule (p);
  const EngSim *sim = prediction_sim (p);
  g_autoptr (EngCheck) check = eng_check_results (prediction_profile (p), sched,
                                                  eng_sim_connections (sim),
                                                  eng_sim_copy_connections (sim),
                                                  eng_sim_results (sim));
  gsize n = eng_check_n_violations (check);
  if (n == 0)
    {
      if (!quiet)
        {
          cli_report_section (report);
          fprintf (report->out, "check        every rule holds (%d rules, %" G_GSIZE_FORMAT
                   " ops)\n", ENG_CHECK_N_RULES, schedule_n_ops (sched));
        }
      return TRUE;
    }
  cli_error ("streamsim predict: --check: %" G_GSIZE_FORMAT " violation%s of the model's rules", n,
             n == 1 ? "" : "s");
  for (gsize i = 0; i < eng_check_n_kept (check); i++)
    {
      const EngCheckViolation *v = eng_check_violation (check, i);
      const SchedOp *sop = schedule_op (sched, v->op);
      cli_error ("  %s:%u:%u: op %u (%s) [%s]: %s", schedule_path (sched), sop->line,
                 sop->column, v->op, schedule_op_kind_name (sop), eng_check_rule_name (v->rule),
                 v->message);
    }
  if (n > eng_check_n_kept (check))
    cli_error ("  ... and %" G_GSIZE_FORMAT " more", n - eng_check_n_kept (check));
  return FALSE;
}
