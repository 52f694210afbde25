/* schedule_order.h: the issue orders that keep a schedule's meaning, and moves between them.
 *
 * The host may issue a program's statements in another order without
 * changing what a program free of races computes when it keeps:
 *
 *  1. each stream's own order (copies, kernels, memsets, host functions,
 *     records and waits of one stream);
 *  2. each event's order: the records, waits and event syncs that name one
 *     event, so that every wait sees the record it saw;
 *  3. a launch that loads its kernel (`loads`) before the later launches of
 *     the same label, the same kernel;
 *  4. what the host thread does itself or waits in (`sync STREAM`, `sync
 *     EVENT`, `host`, a pageable copy, which returns once its data is
 *     staged) before everything issued after it, since that may use what
 *     the host computed or waited for; and what it waits for before it (a
 *     stream sync: its stream's ops). Other ops may move later past it: the
 *     program did not wait for them there;
 *  5. the barriers where they are: `sync device`, `memcpy`, a `loads`
 *     launch without a label and, while any stream is blocking, the ops of
 *     the legacy default stream, which synchronizes with them. They wait for
 *     everything before them, so nothing crosses them either way. A graph
 *     launch's nodes are barriers too: one call, kept whole and in place.
 *
 * The ops between two barriers form a block; each op moves only within its
 * block. Positions are indices into an order, an array of op indices
 * (an op's index is its place in the schedule's own order). */
#ifndef SCHEDULE_ORDER_H
#define SCHEDULE_ORDER_H

#include <glib.h>
#include "schedule.h"

typedef struct ScheduleOrder ScheduleOrder;

ScheduleOrder *schedule_order_new (const Schedule *sched);
void schedule_order_free (ScheduleOrder *order);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ScheduleOrder, schedule_order_free)

gsize schedule_order_n_ops (const ScheduleOrder *rules);
/* The schedule's own order: 0, 1, ..., n - 1. */
guint32 *schedule_order_identity (const ScheduleOrder *rules);

/* How many blocks; the positions block `b` holds, [*first, *end). A block
 * of one op may be a barrier. */
guint schedule_order_n_blocks (const ScheduleOrder *rules);
void schedule_order_block_range (const ScheduleOrder *rules, guint b, gsize *first, gsize *end);
/* The block op `op` belongs to. */
guint schedule_order_block_of (const ScheduleOrder *rules, guint32 op);

/* Whether op `before` must be issued before op `after` by rules 1 to 4
 * directly (not through other ops); both in the same block. */
gboolean schedule_order_needs (const ScheduleOrder *rules, guint32 before, guint32 after);

/* Whether `order` keeps every rule; on FALSE sets *position (may be NULL) to
 * the first position whose op is out of place. */
gboolean schedule_order_check (const ScheduleOrder *rules, const guint32 *order,
                               gsize *position);

/* Whether moving the op at position `from` of the valid order `order` to
 * position `to` (the ops between shift by one) keeps every rule. */
gboolean schedule_order_can_move (const ScheduleOrder *rules, const guint32 *order,
                                  gsize from, gsize to);
/* Makes that move. */
void schedule_order_move (guint32 *order, gsize from, gsize to);

/* A valid order built by picking, at each position of a block, the op with
 * the smallest key among those whose rules are met (ties: the smaller op
 * index). key[op] for each op. Writes schedule_order_n_ops() indices. */
void schedule_order_by_key (const ScheduleOrder *rules, const guint64 *key, guint32 *order);

/* Calls `each` with every valid order in turn, in lexicographic order (so
 * the schedule's own first),
 * until it has called it `limit` times or `each` returns FALSE. Returns how
 * many orders it gave; *all (may be NULL) says whether that was every one.
 * `order` is scratch of n ops that `each` sees and must not keep. */
typedef gboolean (*ScheduleOrderEach) (const guint32 *order, gpointer data);
guint64 schedule_order_each (const ScheduleOrder *rules, guint64 limit, ScheduleOrderEach each,
                             gpointer data, gboolean *all);

#endif /* SCHEDULE_ORDER_H */
