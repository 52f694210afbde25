/* cli_predict_lists.c: predict's listings (--explain, --critical-path, --check), each op named by its number and label. */
#include <math.h>
#include "cli.h"
#include "cli_predict.h"
#include "engines/eng_check.h"
#include "kernel_times.h"
#include "op_name.h"
#include "sim/formats/units.h"

void
cli_report_section (CliReport *report)
{
  if (report->started)
    fputc ('\n', report->out);
  report->started = TRUE;
}

/* The label of a schedule's op, for op_name.h. */
static const char *
schedule_label (guint32 op, gconstpointer data)
{
  const Schedule *sched = data;
  return op < schedule_n_ops (sched) ? schedule_op (sched, op)->label : NULL;
}

/* The first column of a listing: the widest op name among `ops` (n op
 * numbers), and at least "op NNNNN", so that rows of unlabelled ops line
 * up as before labels were shown. */
static gsize
name_width (const Schedule *sched, const guint32 *ops, gsize n)
{
  gsize width = 8;
  for (gsize i = 0; i < n; i++)
    width = MAX (width, op_name_width (ops[i], schedule_label (ops[i], sched)));
  return width;
}

/* "  op 7 h2d-3   " : an op's name padded to `width` characters. */
static void
print_name (FILE *out, const Schedule *sched, guint32 op, gsize width)
{
  g_autoptr (GString) name = g_string_new (NULL);
  op_name_append (name, op, schedule_label (op, sched));
  gsize shown = (gsize) g_utf8_strlen (name->str, (gssize) name->len);
  fprintf (out, "  %s%*s", name->str, (int) (width > shown ? width - shown : 0), "");
}

/* Kernels whose time was measured on another GPU: one line per name,
 * source and bound, in the order they first appear, with the first one's
 * times. */
static void
print_carried (const Prediction *p, FILE *out)
{
  const GArray *carried = prediction_carried_times (p);
  if (carried == NULL || carried->len == 0)
    return;
  const Schedule *sched = prediction_schedule (p);
  fprintf (out, "\nkernel times measured on another GPU, carried to %s by what bounds each "
                "(engines/MODEL.md, \"Kernel times on another GPU\"):\n",
           gpu_profile_name (prediction_profile (p)));
  g_autofree gboolean *done = g_new0 (gboolean, carried->len);
  for (guint i = 0; i < carried->len; i++)
    {
      if (done[i])
        continue;
      const KernelTimeCarried *c = &g_array_index (carried, KernelTimeCarried, i);
      const char *label = schedule_op (sched, c->op)->label;
      guint count = 0;
      for (guint k = i; k < carried->len; k++)
        {
          const KernelTimeCarried *o = &g_array_index (carried, KernelTimeCarried, k);
          if (!done[k] && o->cls == c->cls && g_strcmp0 (o->from, c->from) == 0
              && g_strcmp0 (schedule_op (sched, o->op)->label, label) == 0)
            {
              done[k] = TRUE;
              count++;
            }
        }
      g_autofree char *was = units_format_time (c->measured);
      g_autofree char *now = units_format_time (c->time);
      g_autofree char *more = count > 1 ? g_strdup_printf (" and %u more like it", count - 1)
                                        : g_strdup ("");
      print_name (out, sched, c->op, 0);
      fprintf (out, "%s: %s on %s, %s here: %s, x%.3f beyond its first microsecond\n", more,
               was, c->from, now, eng_kernel_bound_name (c->cls), c->factor);
    }
}

/* Whether two copies take their time the same way: direction, size, rows
 * and host memory. */
static gboolean
same_copy (const SchedCopy *a, const SchedCopy *b)
{
  return a->dir == b->dir && a->bytes == b->bytes && a->rows == b->rows && a->pageable == b->pageable
         && a->untouched == b->untouched && a->huge == b->huge && a->cached == b->cached;
}

/* Marks done the copies from op `first` on that take their time as it does
 * (it among them); returns how many. */
static guint
mark_like (const Schedule *sched, gsize first, gboolean *done)
{
  const SchedCopy *copy = &schedule_op (sched, first)->u.copy;
  guint count = 0;
  for (gsize k = first; k < schedule_n_ops (sched); k++)
    {
      const SchedOp *o = schedule_op (sched, k);
      if ((o->kind == SCHED_OP_COPY || o->kind == SCHED_OP_MEMCPY) && same_copy (&o->u.copy, copy))
        {
          done[k] = TRUE;
          count++;
        }
    }
  return count;
}

/* A listing of copies, one line for each way of taking their time
 * (same_copy), the first such op named: which copies it lists, and its
 * line for them. */
typedef struct
{
  const char *header;
  gboolean (*listed) (const GpuProfile *profile, const SchedOp *op);
  void (*line) (const GpuProfile *profile, const SchedCopy *copy, FILE *out);
} CopyListing;

static void
print_copies (const Prediction *p, const CopyListing *listing, FILE *out)
{
  const Schedule *sched = prediction_schedule (p);
  const GpuProfile *profile = prediction_profile (p);
  gsize n = schedule_n_ops (sched);
  g_autofree gboolean *done = g_new0 (gboolean, MAX (n, 1));
  gboolean header = FALSE;
  for (gsize i = 0; i < n; i++)
    {
      const SchedOp *op = schedule_op (sched, i);
      if (done[i] || (op->kind != SCHED_OP_COPY && op->kind != SCHED_OP_MEMCPY)
          || !listing->listed (profile, op))
        continue;
      guint count = mark_like (sched, i, done);
      if (!header)
        fprintf (out, "\n%s:\n", listing->header);
      header = TRUE;
      print_name (out, sched, (guint32) i, 0);
      if (count > 1)
        fprintf (out, " and %u more like it", count - 1);
      listing->line (profile, &op->u.copy, out);
    }
}

/* 2D and 3D copies whose rows, not their bytes, set their time. */
static gboolean
row_bound (const GpuProfile *profile, const SchedOp *op)
{
  double rows_ns, bytes_ns;
  return gpu_profile_copy_row_bound (profile, &op->u.copy, &rows_ns, &bytes_ns);
}

static void
row_bound_line (const GpuProfile *profile, const SchedCopy *copy, FILE *out)
{
  double rows_ns, bytes_ns;
  gpu_profile_copy_row_bound (profile, copy, &rows_ns, &bytes_ns);
  g_autofree char *width = units_format_exact_size (copy->bytes / copy->rows);
  g_autofree char *rows_time = units_format_time ((SimTime) llround (rows_ns));
  g_autofree char *bytes_time = units_format_time ((SimTime) llround (bytes_ns));
  fprintf (out, ": %u rows of %s at %.1f million a second, %s; its bytes alone %s\n", copy->rows,
           width, profile->row_rate[copy->dir] / 1e6, rows_time, bytes_time);
}

/* Pageable copies, whose time depends on the state of their host memory,
 * their bytes by the link each part runs on (gpu_profile_copy_parts). */
static gboolean
host_pageable (const GpuProfile *profile, const SchedOp *op)
{
  (void) profile;
  return op->u.copy.pageable && op->u.copy.dir != SCHED_DIR_D2D;
}

static void
pageable_line (const GpuProfile *profile, const SchedCopy *copy, FILE *out)
{
  GpuCopyPart parts[GPU_COPY_PARTS];
  SimTime latency;
  guint n_parts = gpu_profile_copy_parts (profile, copy, parts, &latency);
  g_autofree char *size = units_format_exact_size (copy->bytes);
  g_autofree char *lat = units_format_time (latency);
  g_autofree char *total = units_format_time (gpu_profile_copy_time (profile, copy));
  fprintf (out, ": %s %s%s", size, copy->dir == SCHED_DIR_H2D ? "h2d" : "d2h", n_parts > 1 ? ":" : "");
  for (guint k = 0; k < n_parts; k++)
    {
      g_autofree char *part = n_parts > 1 ? units_format_exact_size (parts[k].bytes) : g_strdup ("");
      fprintf (out, "%s%s%s at %.2f GB/s (%s)", k > 0 ? " +" : "", n_parts > 1 ? " " : "", part,
               parts[k].bandwidth / 1e9, gpu_link_kind_text (parts[k].kind));
    }
  fprintf (out, " + %s = %s\n", lat, total);
}

static const CopyListing row_bound_copies = {
  "2D copies whose rows set their time (engines/MODEL.md, \"Copy engines\")", row_bound, row_bound_line
};
static const CopyListing pageable_copies = {
  "pageable copies, by the state of their host memory (engines/MODEL.md, \"Copy engines and the "
  "link\")", host_pageable, pageable_line
};

void
cli_predict_explain (const Prediction *p, const gboolean *show, CliReport *report)
{
  const Schedule *sched = prediction_schedule (p);
  const EngOpResult *results = eng_sim_results (prediction_sim (p));
  g_autoptr (GArray) listed = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (gsize i = 0; i < schedule_n_ops (sched); i++)
    {
      const EngOpResult *r = &results[i];
      if (r->cause == ENG_CAUSE_NONE || (show != NULL && !show[r->cause]))
        continue;
      guint32 op = (guint32) i;
      g_array_append_val (listed, op);
    }
  gsize width = name_width (sched, (const guint32 *) listed->data, listed->len);
  g_autoptr (GString) scratch = g_string_new (NULL);
  cli_report_section (report);
  FILE *out = report->out;
  fprintf (out, "why ops waited (start - issue; the last thing each waited for):\n");
  for (guint k = 0; k < listed->len; k++)
    {
      guint32 i = g_array_index (listed, guint32, k);
      TimelineRow row;
      prediction_row (p, i, &row, scratch);
      g_autofree char *w = units_format_time (prediction_waited (p, i));
      g_autofree char *cause = op_name_in_text (row.cause, schedule_label, sched);
      print_name (out, sched, i, width);
      fprintf (out, " line %-4u %-6s %-8s waited %10s: %s\n", row.line, row.kind, row.stream, w,
               cause);
    }
  if (listed->len == 0)
    fprintf (out, show != NULL ? "  no op waited for these causes\n" : "  no op waited\n");
  print_carried (p, out);
  print_copies (p, &row_bound_copies, out);
  print_copies (p, &pageable_copies, out);
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
  const Schedule *sched = prediction_schedule (p);
  gsize width = name_width (sched, (const guint32 *) path->data, path->len);
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
      print_name (out, sched, row.op, width);
      fprintf (out, " line %-4u %-6s %-8s %10s - ", row.line, row.kind, row.stream, start);
      if (*row.cause == '\0') /* the first op, which waited for nothing */
        fprintf (out, "%s\n", end);
      else
        {
          g_autofree char *cause = op_name_in_text (row.cause, schedule_label, sched);
          fprintf (out, "%-10s  %s\n", end, cause);
        }
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
      g_autoptr (GString) name = g_string_new (NULL);
      op_name_append (name, first, schedule_label (first, sched));
      if (first == 1)
        fprintf (out, "  (the host issued %s at %s, after the cost of the call before it)\n",
                 name->str, at);
      else
        fprintf (out, "  (the host issued %s at %s, after the costs of the %u calls before it)\n",
                 name->str, at, first);
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
      g_autoptr (GString) name = g_string_new (NULL);
      op_name_append (name, v->op, sop->label);
      g_autofree char *message = op_name_in_text (v->message, schedule_label, sched);
      cli_error ("  %s:%u:%u: %s (%s) [%s]: %s", schedule_path (sched), sop->line, sop->column,
                 name->str, schedule_op_kind_name (sop), eng_check_rule_name (v->rule), message);
    }
  if (n > eng_check_n_kept (check))
    cli_error ("  ... and %" G_GSIZE_FORMAT " more", n - eng_check_n_kept (check));
  return FALSE;
}
