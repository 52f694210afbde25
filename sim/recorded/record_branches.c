/* record_branches.c: a graph launch's branches, from when its nodes ran (record_branches.h). */
#include "record_branches.h"

typedef struct
{
  GArray *items;
  guint *event_of;  /* per node: its event + 1 once recorded after it, else 0 */
  guint n_events;
} Plan;

static void
add (Plan *p, BranchItemKind kind, guint lane, guint node, guint event)
{
  BranchItem it = { kind, lane, node, event };
  g_array_append_val (p->items, it);
}

/* The event recorded after node y (in its lane, right after it: a later
 * node of that lane must not come before the record). Records are placed
 * when the node is written, for every node some later line waits for. */
static guint
event_after (Plan *p, guint y)
{
  return p->event_of[y] - 1;
}

GArray *
record_branches_plan (const gint64 *start, const gint64 *end, guint n, guint *n_lanes)
{
  Plan p = { g_array_new (FALSE, FALSE, sizeof (BranchItem)), g_new0 (guint, MAX (n, 1)), 0 };
  guint *lane = g_new (guint, MAX (n, 1));
  guint *lane_last = g_new (guint, MAX (n, 1)); /* per lane: its last node */
  gboolean *waited = g_new0 (gboolean, MAX (n, 1)); /* per node: some line waits for it */
  gboolean *is_pred = g_new0 (gboolean, MAX (n, 1));
  GArray *preds = g_array_new (FALSE, FALSE, sizeof (guint)); /* per node: a run of them */
  guint *pred_from = g_new (guint, MAX (n, 1) + 1);
  guint lanes = 0;
  gboolean start_record = FALSE;

  /* First pass: each node's predecessors and lane, and which nodes are
   * waited for (their records are then placed in the second pass). */
  for (guint x = 0; x < n; x++)
    {
      /* Y ended by X's start; the latest such Y are those that no other
       * such Z started after */
      gint64 latest_start = G_MININT64;
      for (guint y = 0; y < x; y++)
        if (end[y] <= start[x])
          latest_start = MAX (latest_start, start[y]);
      pred_from[x] = preds->len;
      for (guint y = 0; y < x; y++)
        if (end[y] <= start[x] && end[y] > latest_start)
          g_array_append_val (preds, y);
      guint np = preds->len - pred_from[x];
      const guint *px = np > 0 ? &g_array_index (preds, guint, pred_from[x]) : NULL;
      for (guint k = 0; k < np; k++)
        is_pred[px[k]] = TRUE;

      /* a free lane whose last node is a predecessor, else lane 0 if
       * free, else the first free lane, else a new one */
      guint chosen = G_MAXUINT;
      for (guint l = 0; l < lanes && chosen == G_MAXUINT; l++)
        if (end[lane_last[l]] <= start[x] && is_pred[lane_last[l]])
          chosen = l;
      for (guint l = 0; l < lanes && chosen == G_MAXUINT; l++)
        if (end[lane_last[l]] <= start[x])
          chosen = l;
      if (chosen == G_MAXUINT)
        {
          chosen = lanes++;
          lane_last[chosen] = G_MAXUINT;
        }
      for (guint k = 0; k < np; k++)
        {
          is_pred[px[k]] = FALSE;
          if (px[k] != lane_last[chosen])
            waited[px[k]] = TRUE;
        }
      if (np == 0 && chosen != 0 && lane_last[chosen] == G_MAXUINT)
        start_record = TRUE;
      lane[x] = chosen;
      lane_last[chosen] = x;
    }
  for (guint l = 1; l < lanes; l++)
    waited[lane_last[l]] = TRUE;

  /* Second pass: the lines. Lanes are made again in the same order. */
  if (start_record)
    {
      add (&p, BRANCH_RECORD, 0, G_MAXUINT, 0);
      p.n_events = 1;
    }
  guint *last = g_new (guint, MAX (lanes, 1));
  for (guint l = 0; l < lanes; l++)
    last[l] = G_MAXUINT;
  gboolean *joined = g_new0 (gboolean, MAX (n, 1)); /* per node: lane 0 waited for it */
  for (guint x = 0; x < n; x++)
    {
      guint l = lane[x];
      guint np = (x + 1 < n ? pred_from[x + 1] : preds->len) - pred_from[x];
      const guint *px = np > 0 ? &g_array_index (preds, guint, pred_from[x]) : NULL;
      for (guint k = 0; k < np; k++)
        if (px[k] != last[l])
          {
            add (&p, BRANCH_WAIT, l, px[k], event_after (&p, px[k]));
            joined[px[k]] = joined[px[k]] || l == 0;
          }
      if (np == 0 && l != 0 && last[l] == G_MAXUINT)
        add (&p, BRANCH_WAIT, l, G_MAXUINT, 0);
      add (&p, BRANCH_NODE, l, x, 0);
      last[l] = x;
      if (waited[x])
        {
          p.event_of[x] = ++p.n_events;
          add (&p, BRANCH_RECORD, l, x, event_after (&p, x));
        }
    }
  for (guint l = 1; l < lanes; l++)
    if (!joined[last[l]])
      add (&p, BRANCH_WAIT, 0, last[l], event_after (&p, last[l]));

  *n_lanes = MAX (lanes, 1);
  g_free (last);
  g_free (joined);
  g_free (lane);
  g_free (lane_last);
  g_free (waited);
  g_free (is_pred);
  g_free (pred_from);
  g_array_unref (preds);
  g_free (p.event_of);
  return p.items;
}
