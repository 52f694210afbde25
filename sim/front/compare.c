/* compare.c: matching two timelines op by op and summarising their differences (see compare.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

G_DEFINE_QUARK (compare-error-quark, compare_error)

struct Compare
{
  GArray *ops; /* CompareOp */
  GArray *regions; /* CompareRegion, once found */
  GArray *runs;    /* CompareRunSpread per region, once a run is added */
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
        .engine = m->engine,
        .label = m->label != NULL && m->label[0] != '\0' ? m->label : NULL,
        .thread = m->issuer != NULL ? m->issuer : p->issuer,
        .pred_issue = p->issue,
        .pred_start = p->start,
        .pred_end = p->end,
        .meas_issue = m->issue,
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
  if (cmp->regions != NULL)
    g_array_unref (cmp->regions);
  if (cmp->runs != NULL)
    g_array_unref (cmp->runs);
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

/* The nearest-rank quantile of the n values of v, which it sorts and frees.
 * Nearest rank (no interpolation) so that the answer is always one of them,
 * which is what a reader looks up in the per-op or per-region table. */
static double
nearest_rank (double *v, gsize n, double quantile)
{
  qsort (v, n, sizeof *v, cmp_double);
  gsize rank = (gsize) ceil (quantile * (double) n);
  double q = v[rank > 0 ? rank - 1 : 0];
  g_free (v);
  return q;
}

/* The nearest-rank quantile of |error| over the ops, in % of the measured
 * makespan. */
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
  return nearest_rank (v, n, quantile);
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

/* ---- Regions ---- */

static int
cmp_op_number (const void *a, const void *b)
{
  guint32 x = (*(const CompareOp *const *) a)->op, y = (*(const CompareOp *const *) b)->op;
  return (x > y) - (x < y);
}

static int
cmp_region (const void *a, const void *b)
{
  const CompareRegion *x = a, *y = b;
  if (x->to_op != y->to_op)
    return x->to_op < y->to_op ? -1 : 1;
  return (x->from_op > y->from_op) - (x->from_op < y->from_op);
}

static void
set_errors (CompareRegion *r)
{
  double ref = (double) (r->meas >= 1 ? r->meas : 1);
  r->error = 100.0 * (double) (r->pred - r->meas) / ref;
  r->host_error = 100.0 * (double) (r->pred_host - r->meas_host) / ref;
}

static void
add_region (Compare *cmp, CompareRegionKind kind, const CompareOp *from, const CompareOp *to)
{
  CompareRegion r = {
    .kind = kind,
    .from_op = from->op,
    .to_op = to->op,
    .pred_from_op = from->op,
    .pred_to_op = to->op,
    .pred = to->pred_end - from->pred_end,
    .meas = to->meas_end - from->meas_end,
    .pred_host = to->pred_issue - from->pred_end,
    .meas_host = to->meas_issue - from->meas_end,
  };
  set_errors (&r);
  g_array_append_val (cmp->regions, r);
}

static gboolean
is_sync_point (const CompareOp *op)
{
  return strcmp (op->kind, "sync") == 0
         || (strcmp (op->kind, "memcpy") == 0 && op->engine != NULL && strcmp (op->engine, "d2h") == 0);
}

/* The op an elapsed label names, checked: an earlier record. */
static const CompareOp *
elapsed_start (const CompareOp *to, GHashTable *by_op, GError **error)
{
  const char *number = to->label + strlen (COMPARE_ELAPSED_LABEL);
  guint64 from = 0;
  if (!g_ascii_string_to_unsigned (number, 10, 0, G_MAXUINT32, &from, NULL))
    {
      g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_REGION,
                   "op %u (line %u) has label=%s, which needs an op number after "
                   COMPARE_ELAPSED_LABEL, to->op, to->line, to->label);
      return NULL;
    }
  const CompareOp *start = g_hash_table_lookup (by_op, GUINT_TO_POINTER ((guint32) from));
  if (strcmp (to->kind, "record") != 0 || start == NULL || strcmp (start->kind, "record") != 0
      || start->op >= to->op)
    {
      g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_REGION,
                   "op %u (line %u), a %s, has label=%s: an interval timed with "
                   "cudaEventElapsedTime runs from an earlier event record (op %" G_GUINT64_FORMAT
                   " is %s) to a later one", to->op, to->line, to->kind, to->label, from,
                   start == NULL ? "not in the timelines" : start->kind);
      return NULL;
    }
  return start;
}

gboolean
compare_find_regions (Compare *cmp, GError **error)
{
  g_return_val_if_fail (cmp != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (cmp->regions != NULL)
    g_array_unref (cmp->regions);
  g_clear_pointer (&cmp->runs, g_array_unref);
  cmp->regions = g_array_new (FALSE, FALSE, sizeof (CompareRegion));

  guint n = cmp->ops->len;
  g_autofree const CompareOp **sorted = g_new (const CompareOp *, MAX (n, 1));
  g_autoptr (GHashTable) by_op = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < n; i++)
    {
      sorted[i] = &g_array_index (cmp->ops, CompareOp, i);
      g_hash_table_insert (by_op, GUINT_TO_POINTER (sorted[i]->op), (gpointer) sorted[i]);
    }
  qsort (sorted, n, sizeof *sorted, cmp_op_number);

  /* A synchronization region is a host thread's: from one of its
   * synchronizations to its next (another thread's calls go on meanwhile). */
  g_autoptr (GHashTable) last_sync = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      const CompareOp *op = sorted[i];
      if (is_sync_point (op))
        {
          const char *thread = op->thread != NULL ? op->thread : "";
          const CompareOp *before = g_hash_table_lookup (last_sync, thread);
          if (before != NULL)
            add_region (cmp, COMPARE_REGION_SYNC, before, op);
          g_hash_table_insert (last_sync, (gpointer) thread, (gpointer) op);
        }
      if (op->label != NULL && g_str_has_prefix (op->label, COMPARE_ELAPSED_LABEL))
        {
          const CompareOp *start = elapsed_start (op, by_op, error);
          if (start == NULL)
            {
              g_clear_pointer (&cmp->regions, g_array_unref);
              return FALSE;
            }
          add_region (cmp, COMPARE_REGION_ELAPSED, start, op);
        }
    }
  g_array_sort (cmp->regions, cmp_region);
  return TRUE;
}

gsize
compare_n_regions (const Compare *cmp)
{
  g_return_val_if_fail (cmp != NULL, 0);
  return cmp->regions != NULL ? cmp->regions->len : 0;
}

const CompareRegion *
compare_region (const Compare *cmp, gsize index)
{
  g_return_val_if_fail (cmp != NULL && index < compare_n_regions (cmp), NULL);
  return &g_array_index (cmp->regions, CompareRegion, index);
}

gsize
compare_n_regions_over (const Compare *cmp, SimTime min_meas)
{
  gsize count = 0;
  for (gsize i = 0; i < compare_n_regions (cmp); i++)
    count += compare_region (cmp, i)->meas >= min_meas;
  return count;
}

/* compare_region_error, or with `over_runs` compare_region_error_over_runs */
static double
region_error_quantile (const Compare *cmp, double quantile, SimTime min_meas, gboolean over_runs)
{
  g_return_val_if_fail (quantile >= 0 && quantile <= 1, 0);
  gsize n = compare_n_regions_over (cmp, min_meas);
  if (n == 0)
    return 0;
  double *v = g_new (double, n);
  gsize k = 0;
  for (gsize i = 0; i < compare_n_regions (cmp); i++)
    if (compare_region (cmp, i)->meas >= min_meas)
      v[k++] = over_runs && compare_region_inside_runs (cmp, i)
               ? 0 : fabs (compare_region (cmp, i)->error);
  return nearest_rank (v, n, quantile);
}

double
compare_region_error (const Compare *cmp, double quantile, SimTime min_meas)
{
  return region_error_quantile (cmp, quantile, min_meas, FALSE);
}

gsize
compare_worst_region (const Compare *cmp, SimTime min_meas)
{
  gsize worst = G_MAXSIZE;
  double most = -1;
  for (gsize i = 0; i < compare_n_regions (cmp); i++)
    {
      const CompareRegion *r = compare_region (cmp, i);
      if (r->meas >= min_meas && fabs (r->error) > most)
        {
          most = fabs (r->error);
          worst = i;
        }
    }
  return worst;
}

/* One timeline's regions, each with its length in that timeline (as `meas`),
 * found by comparing it with itself; NULL with `error` set on a bad label. */
static GArray *
own_regions (const Timeline *t, GError **error)
{
  Compare *self = compare_timelines (t, t, error);
  if (self == NULL)
    return NULL;
  GArray *regions = NULL;
  if (compare_find_regions (self, error))
    regions = g_array_ref (self->regions);
  compare_free (self);
  return regions;
}

static guint
count_kind (const GArray *regions, CompareRegionKind kind)
{
  guint n = 0;
  for (guint i = 0; i < regions->len; i++)
    n += g_array_index (regions, CompareRegion, i).kind == kind;
  return n;
}

static const CompareRegionKind region_kinds[] = { COMPARE_REGION_SYNC, COMPARE_REGION_ELAPSED };

/* For each region of `mine`, the index in `theirs` of the region of its
 * kind at the same place: the k-th of the kind in each (both arrays are in
 * the order of their closing op), or G_MAXUINT where `theirs` has not as
 * many regions of that kind. g_free the result. */
static guint *
same_place (const GArray *mine, const GArray *theirs)
{
  guint *partner = g_new (guint, MAX (mine->len, 1));
  for (guint k = 0; k < G_N_ELEMENTS (region_kinds); k++)
    {
      gboolean alike = count_kind (mine, region_kinds[k]) == count_kind (theirs, region_kinds[k]);
      for (guint i = 0, j = 0; i < mine->len; i++)
        {
          if (g_array_index (mine, CompareRegion, i).kind != region_kinds[k])
            continue;
          if (!alike)
            {
              partner[i] = G_MAXUINT;
              continue;
            }
          while (g_array_index (theirs, CompareRegion, j).kind != region_kinds[k])
            j++;
          partner[i] = j++;
        }
    }
  return partner;
}

Compare *
compare_by_order (const Timeline *predicted, const Timeline *measured, GError **error)
{
  g_return_val_if_fail (predicted != NULL && measured != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_autoptr (GArray) pred = own_regions (predicted, error);
  if (pred == NULL)
    return NULL;
  g_autoptr (GArray) meas = own_regions (measured, error);
  if (meas == NULL)
    return NULL;
  static const char *const names[] = { "synchronization", "timed (cudaEventElapsedTime)" };
  for (guint k = 0; k < G_N_ELEMENTS (region_kinds); k++)
    if (count_kind (pred, region_kinds[k]) != count_kind (meas, region_kinds[k]))
      {
        g_set_error (error, COMPARE_ERROR, COMPARE_ERROR_MISMATCH,
                     "%s has %u %s regions but %s has %u: regions are paired by order, so "
                     "both timelines need the program's same synchronizations and timed "
                     "intervals in the same order", timeline_path (predicted),
                     count_kind (pred, region_kinds[k]), names[k], timeline_path (measured),
                     count_kind (meas, region_kinds[k]));
        return NULL;
      }
  Compare *cmp = g_new0 (Compare, 1);
  cmp->ops = g_array_new (FALSE, FALSE, sizeof (CompareOp));
  cmp->regions = g_array_new (FALSE, FALSE, sizeof (CompareRegion));
  cmp->pred_makespan = timeline_makespan (predicted);
  cmp->meas_makespan = timeline_makespan (measured);
  /* in the measured timeline's order, already compare_find_regions' */
  g_autofree guint *partner = same_place (meas, pred);
  for (guint i = 0; i < meas->len; i++)
    {
      CompareRegion r = g_array_index (meas, CompareRegion, i);
      const CompareRegion *p = &g_array_index (pred, CompareRegion, partner[i]);
      r.pred_from_op = p->from_op;
      r.pred_to_op = p->to_op;
      r.pred = p->meas;
      r.pred_host = p->meas_host;
      set_errors (&r);
      g_array_append_val (cmp->regions, r);
    }
  return cmp;
}

gboolean
compare_add_run (Compare *cmp, const Timeline *run, GError **error)
{
  g_return_val_if_fail (cmp != NULL && cmp->regions != NULL && run != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_autoptr (GArray) theirs = own_regions (run, error);
  if (theirs == NULL)
    return FALSE;
  if (cmp->runs == NULL)
    {
      cmp->runs = g_array_sized_new (FALSE, FALSE, sizeof (CompareRunSpread), cmp->regions->len);
      for (guint i = 0; i < cmp->regions->len; i++)
        {
          SimTime meas = g_array_index (cmp->regions, CompareRegion, i).meas;
          CompareRunSpread spread = { .shortest = meas, .longest = meas };
          g_array_append_val (cmp->runs, spread);
        }
    }
  g_autofree guint *partner = same_place (cmp->regions, theirs);
  for (guint i = 0; i < cmp->regions->len; i++)
    {
      if (partner[i] == G_MAXUINT)
        continue;
      SimTime length = g_array_index (theirs, CompareRegion, partner[i]).meas;
      if (length <= 0)
        continue;
      CompareRunSpread *spread = &g_array_index (cmp->runs, CompareRunSpread, i);
      spread->shortest = MIN (spread->shortest, length);
      spread->longest = MAX (spread->longest, length);
      spread->runs++;
    }
  return TRUE;
}

const CompareRunSpread *
compare_region_runs (const Compare *cmp, gsize index)
{
  g_return_val_if_fail (cmp != NULL && index < compare_n_regions (cmp), NULL);
  return cmp->runs != NULL ? &g_array_index (cmp->runs, CompareRunSpread, index) : NULL;
}

gboolean
compare_region_inside_runs (const Compare *cmp, gsize index)
{
  const CompareRunSpread *spread = compare_region_runs (cmp, index);
  const CompareRegion *r = compare_region (cmp, index);
  return spread != NULL && spread->runs > 0 && r->pred >= spread->shortest
         && r->pred <= spread->longest;
}

gsize
compare_n_regions_inside_runs (const Compare *cmp, SimTime min_meas)
{
  gsize count = 0;
  for (gsize i = 0; i < compare_n_regions (cmp); i++)
    count += compare_region (cmp, i)->meas >= min_meas && compare_region_inside_runs (cmp, i);
  return count;
}

double
compare_region_error_over_runs (const Compare *cmp, double quantile, SimTime min_meas)
{
  return region_error_quantile (cmp, quantile, min_meas, TRUE);
}
