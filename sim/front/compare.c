/* compare.c: matching two timelines op by op and summarising their differences (see compare.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

G_DEFINE_QUARK (compare-error-quark, compare_error)

struct Compare
{
  GArray *ops; /* CompareOp */
  SimTime pred_makespan;
  SimTime meas_makespan;
};

Compare *
compare_timelines (const Timeline *predicted, const Timeline *measured, GError **error)
{
  g_return_val_if_fail (predicted != NULL && measured != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gsize n = timeline_n_rows (predicted);
  if (n != timeline_n_rows (measured))
    {
      g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH,
                   "%s has %" G_GSIZE_FORMAT " ops but %s has %" G_GSIZE_FORMAT
                   ": both timelines must come from the same schedule with the same parameters",
                   timeline_path (predicted), n, timeline_path (measured),
                   timeline_n_rows (measured));
      return NULL;
    }

  /* Rows are in issue order in both files, but match by the op column rather
   * than by position so that a reordered file still compares correctly. */
  GHashTable *by_op = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (gsize i = 0; i < n; i++)
    g_hash_table_insert (by_op, GUINT_TO_POINTER (timeline_row (measured, i)->op),
                         (gpointer) timeline_row (measured, i));

  Compare *cmp = g_new0 (Compare, 1);
  cmp->ops = g_array_sized_new (FALSE, FALSE, sizeof (CompareOp), n);
  for (gsize i = 0; i < n; i++)
    {
      const TimelineRow *p = timeline_row (predicted, i);
      const TimelineRow *m = g_hash_table_lookup (by_op, GUINT_TO_POINTER (p->op));
      if (m == NULL || m->line != p->line)
        {
          if (m == NULL)
            g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH,
                         "op %u of %s (line %u) is not in %s: both timelines must come "
                         "from the same schedule with the same parameters",
                         p->op, timeline_path (predicted), p->line, timeline_path (measured));
          else
            g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH,
                         "op %u is line %u in %s but line %u in %s: both timelines must "
                         "come from the same schedule with the same parameters",
                         p->op, p->line, timeline_path (predicted), m->line,
                         timeline_path (measured));
          g_hash_table_unref (by_op);
          compare_free (cmp);
          return NULL;
        }
      /* The op and line can agree by chance between two schedules (op 3 on
       * line 5 of each); what the op is and where it was issued cannot. */
      if (strcmp (m->kind, p->kind) != 0 || strcmp (m->stream, p->stream) != 0)
        {
          /* host work and device or event syncs have no stream */
          g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH,
                       "op %u (line %u) is %s on stream '%s' in %s but %s on stream '%s' in "
                       "%s: both timelines must come from the same schedule with the same "
                       "parameters",
                       p->op, p->line, p->kind, *p->stream ? p->stream : "(none)",
                       timeline_path (predicted), m->kind, *m->stream ? m->stream : "(none)",
                       timeline_path (measured));
          g_hash_table_unref (by_op);
          compare_free (cmp);
          return NULL;
        }
      CompareOp op = {
        .op = p->op,
        .line = p->line,
        .stream = m->stream,
        .kind = m->kind,
        .pred_start = p->start,
        .pred_end = p->end,
        .meas_start = m->start,
        .meas_end = m->end,
        .start_error = p->start - m->start,
        .end_error = p->end - m->end,
      };
      g_array_append_val (cmp->ops, op);
    }
  g_hash_table_unref (by_op);

  cmp->pred_makespan = timeline_makespan (predicted);
  cmp->meas_makespan = timeline_makespan (measured);
  return cmp;
}

void
compare_free (Compare *cmp)
{
  if (cmp == NULL)
    return;
  g_array_unref (cmp->ops);
  g_free (cmp);
}

gsize
compare_n_ops (const Compare *cmp)
{
  g_return_val_if_fail (cmp != NULL, 0);
  return cmp->ops->len;
}

const CompareOp *
compare_op (const Compare *cmp, gsize index)
{
  g_return_val_if_fail (cmp != NULL && index < cmp->ops->len, NULL);
  return &g_array_index (cmp->ops, CompareOp, index);
}

SimTime
compare_predicted_makespan (const Compare *cmp)
{
  g_return_val_if_fail (cmp != NULL, 0);
  return cmp->pred_makespan;
}

SimTime
compare_measured_makespan (const Compare *cmp)
{
  g_return_val_if_fail (cmp != NULL, 0);
  return cmp->meas_makespan;
}

double
compare_makespan_error (const Compare *cmp)
{
  g_return_val_if_fail (cmp != NULL, 0);
  SimTime diff = cmp->pred_makespan - cmp->meas_makespan;
  SimTime ref = cmp->meas_makespan > 0 ? cmp->meas_makespan : 1;
  return 100.0 * (double) diff / (double) ref;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The nearest-rank quantile of |error| over the ops, in % of the measured
 * makespan. Nearest rank (no interpolation) so that the answer is always the
 * error of some op, which is what a reader looks up in the per-op table. */
static double
error_quantile (const Compare *cmp, double quantile, gboolean end)
{
  g_return_val_if_fail (cmp != NULL, 0);
  g_return_val_if_fail (quantile >= 0 && quantile <= 1, 0);

  gsize n = cmp->ops->len;
  if (n == 0)
    return 0;
  double *v = g_new (double, n);
  SimTime ref = cmp->meas_makespan > 0 ? cmp->meas_makespan : 1;
  for (gsize i = 0; i < n; i++)
    {
      const CompareOp *op = &g_array_index (cmp->ops, CompareOp, i);
      SimTime e = end ? op->end_error : op->start_error;
      v[i] = 100.0 * fabs ((double) e) / (double) ref;
    }
  qsort (v, n, sizeof *v, cmp_double);
  gsize rank = (gsize) ceil (quantile * (double) n);
  double q = v[rank > 0 ? rank - 1 : 0];
  g_free (v);
  return q;
}

double
compare_end_error (const Compare *cmp, double quantile)
{
  return error_quantile (cmp, quantile, TRUE);
}

double
compare_start_error (const Compare *cmp, double quantile)
{
  return error_quantile (cmp, quantile, FALSE);
}

gsize
compare_worst_end (const Compare *cmp)
{
  g_return_val_if_fail (cmp != NULL, G_MAXSIZE);
  gsize worst = G_MAXSIZE;
  SimTime most = -1;
  for (gsize i = 0; i < cmp->ops->len; i++)
    {
      SimTime e = g_array_index (cmp->ops, CompareOp, i).end_error;
      e = e < 0 ? -e : e;
      if (e > most)
        {
          most = e;
          worst = i;
        }
    }
  return worst;
}
