/* record_branches.h: a graph launch's branches, inferred from when its nodes ran.
 *
 * The log keeps a launch's nodes (CUPTI's records) but not the graph's
 * edges, so the edges are read off the times: node X follows node Y when
 * Y ended at or before X started, and of those it names only the latest,
 * the Y that no other such node started after (the interval order's
 * immediate predecessors). Nodes that ran side by side follow neither.
 * Each node goes to a lane: the launch's stream (lane 0) where it is free,
 * else a lane whose last node has ended, else a new one; a node waits
 * for each of its predecessors in another lane through an event recorded
 * after it, a root in a lane of its own waits for a record at the graph's
 * start, and every other lane is joined back into lane 0 at the end, as
 * stream capture requires. A chain is lane 0 alone and no event. The
 * edges are what the GPU did: a node that waited for SMs rather than for
 * a node reads as following the nodes that freed them. */
#ifndef RECORD_BRANCHES_H
#define RECORD_BRANCHES_H

#include <glib.h>

typedef enum
{
  BRANCH_NODE,   /* node `node` in `lane` */
  BRANCH_RECORD, /* record event `event` in `lane` (after node `node`, or at the start) */
  BRANCH_WAIT,   /* `lane` waits for event `event`, recorded after node `node` */
} BranchItemKind;

/* One line of the launch's block, in the order to write them. Events are
 * numbered from 0: event 0 is the start's record when there is one. */
typedef struct
{
  BranchItemKind kind;
  guint lane;
  guint node;  /* for a record at the start: G_MAXUINT */
  guint event;
} BranchItem;

/* The block for `n` nodes that started at start[i] and ended at end[i],
 * sorted by start: BranchItem in order; *n_lanes the lanes it uses
 * (1 for a chain). */
GArray *record_branches_plan (const gint64 *start, const gint64 *end, guint n, guint *n_lanes);

#endif /* RECORD_BRANCHES_H */
