/* test_schedule_order.c: the issue orders that keep a schedule's meaning (schedule_order.h), on schedules small enough to list every order by hand. */
#include <glib.h>
#include <string.h>

#include "sim/core/schedule_order.h"
#include "sim/formats/schedule_parse.h"

static Schedule *
parse (const char *text)
{
  ScheduleParseOptions options = { NULL, 0 };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text ("o.sched", text, strlen (text), &options, &error);
  g_assert_no_error (error);
  return sched;
}

/* Ops 0..7: stream a's 0, 2, 3 (a record of e); stream b's 1, 4 (the wait
 * for e), 5; a barrier (6); 7 alone after it. */
static const char two_streams[] =
  "stream a\n"
  "stream b\n"
  "h2d a 1KiB\n"
  "h2d b 1KiB\n"
  "kernel a grid=1 block=32 time=1us\n"
  "record e a\n"
  "wait b e\n"
  "kernel b grid=1 block=32 time=1us\n"
  "sync device\n"
  "h2d a 1KiB\n";

static gboolean
collect (const guint32 *order, gpointer data)
{
  GString *all = data;
  for (gsize i = 0; i < 8; i++)
    g_string_append_printf (all, "%u", order[i]);
  g_string_append_c (all, ' ');
  return TRUE;
}

static void
test_blocks_and_rules (void)
{
  g_autoptr (Schedule) sched = parse (two_streams);
  g_autoptr (ScheduleOrder) rules = schedule_order_new (sched);
  gsize first, end;
  g_assert_cmpuint (schedule_order_n_blocks (rules), ==, 3);
  schedule_order_block_range (rules, 0, &first, &end);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (end, ==, 6);
  schedule_order_block_range (rules, 1, &first, &end);
  g_assert_cmpuint (first, ==, 6);
  g_assert_cmpuint (end, ==, 7);
  /* stream a: 0 -> 2 -> 3; stream b: 1 -> 4 -> 5; event e: 3 -> 4 */
  g_assert_true (schedule_order_needs (rules, 0, 2));
  g_assert_true (schedule_order_needs (rules, 2, 3));
  g_assert_true (schedule_order_needs (rules, 3, 4));
  g_assert_true (schedule_order_needs (rules, 1, 4));
  g_assert_false (schedule_order_needs (rules, 0, 1));
  g_assert_false (schedule_order_needs (rules, 0, 3)); /* through 2 only */
  g_assert_false (schedule_order_needs (rules, 5, 7)); /* the barrier orders them */
}

/* By hand: a's three ops stay in order and before b's wait; b's copy (1)
 * may go before 0, between 0 and 2, between 2 and 3, or after 3; then 4
 * and 5. Four orders, given in lexicographic order, so the schedule's own first. */
static void
test_every_order (void)
{
  g_autoptr (Schedule) sched = parse (two_streams);
  g_autoptr (ScheduleOrder) rules = schedule_order_new (sched);
  g_autoptr (GString) all = g_string_new (NULL);
  gboolean complete = FALSE;
  guint64 n = schedule_order_each (rules, 100, collect, all, &complete);
  g_assert_cmpuint (n, ==, 4);
  g_assert_true (complete);
  g_assert_cmpstr (all->str, ==, "01234567 02134567 02314567 10234567 ");
  /* a limit stops it */
  g_string_truncate (all, 0);
  g_assert_cmpuint (schedule_order_each (rules, 2, collect, all, &complete), ==, 2);
  g_assert_false (complete);
}

static void
test_moves (void)
{
  g_autoptr (Schedule) sched = parse (two_streams);
  g_autoptr (ScheduleOrder) rules = schedule_order_new (sched);
  g_autofree guint32 *order = schedule_order_identity (rules);
  g_assert_true (schedule_order_check (rules, order, NULL));
  g_assert_true (schedule_order_can_move (rules, order, 1, 0));   /* b's copy first */
  g_assert_false (schedule_order_can_move (rules, order, 2, 0));  /* a's kernel before its copy */
  g_assert_false (schedule_order_can_move (rules, order, 4, 2));  /* the wait before the record */
  g_assert_true (schedule_order_can_move (rules, order, 1, 3));   /* b's copy after the record */
  g_assert_false (schedule_order_can_move (rules, order, 1, 4));  /* ... but not after its wait */
  g_assert_false (schedule_order_can_move (rules, order, 5, 7));  /* across the barrier */
  g_assert_false (schedule_order_can_move (rules, order, 6, 5));  /* the barrier itself */
  schedule_order_move (order, 1, 3);
  const guint32 moved[] = { 0, 2, 3, 1, 4, 5, 6, 7 };
  g_assert_cmpmem (order, sizeof moved, moved, sizeof moved);
  g_assert_true (schedule_order_check (rules, order, NULL));
  schedule_order_move (order, 3, 0);
  const guint32 back[] = { 1, 0, 2, 3, 4, 5, 6, 7 };
  g_assert_cmpmem (order, sizeof back, back, sizeof back);

  gsize bad = 0;
  const guint32 wrong[] = { 0, 1, 2, 4, 3, 5, 6, 7 };
  g_assert_false (schedule_order_check (rules, wrong, &bad));
  g_assert_cmpuint (bad, ==, 3);
  const guint32 crossed[] = { 0, 1, 2, 3, 4, 6, 5, 7 };
  g_assert_false (schedule_order_check (rules, crossed, &bad));
  g_assert_cmpuint (bad, ==, 5);
  const guint32 twice[] = { 0, 0, 2, 3, 4, 5, 6, 7 };
  g_assert_false (schedule_order_check (rules, twice, &bad));
  g_assert_cmpuint (bad, ==, 1);
}

/* Keys by stream (a before b) give depth-first; keys by place within
 * the stream give breadth-first, the record before the wait still. */
static void
test_by_key (void)
{
  g_autoptr (Schedule) sched = parse (two_streams);
  g_autoptr (ScheduleOrder) rules = schedule_order_new (sched);
  const guint64 by_stream[] = { 1, 2, 1, 1, 2, 2, 0, 0 };
  guint32 order[8];
  schedule_order_by_key (rules, by_stream, order);
  const guint32 depth[] = { 0, 2, 3, 1, 4, 5, 6, 7 };
  g_assert_cmpmem (order, sizeof order, depth, sizeof depth);
  const guint64 by_place[] = { 0, 0, 1, 2, 1, 2, 0, 0 };
  schedule_order_by_key (rules, by_place, order);
  const guint32 breadth[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
  g_assert_cmpmem (order, sizeof order, breadth, sizeof breadth);
}

/* The legacy default stream joins blocking streams, so its ops are
 * barriers; with only nonblocking streams it is a stream like the others. */
static void
test_legacy_stream (void)
{
  g_autoptr (Schedule) blocking = parse ("stream a\nh2d a 1KiB\nkernel default grid=1 block=32 time=1us\nh2d a 1KiB\n");
  g_autoptr (ScheduleOrder) r1 = schedule_order_new (blocking);
  g_assert_cmpuint (schedule_order_n_blocks (r1), ==, 3);
  g_autoptr (Schedule) nonblocking =
    parse ("stream a nonblocking\nh2d a 1KiB\nkernel default grid=1 block=32 time=1us\nh2d a 1KiB\n");
  g_autoptr (ScheduleOrder) r2 = schedule_order_new (nonblocking);
  g_assert_cmpuint (schedule_order_n_blocks (r2), ==, 1);
  g_autofree guint32 *order = schedule_order_identity (r2);
  g_assert_true (schedule_order_can_move (r2, order, 1, 0));
  g_assert_true (schedule_order_can_move (r2, order, 2, 1));
  g_assert_false (schedule_order_can_move (r2, order, 2, 0));
}

/* A loading launch stays before the later launches of its label; one
 * without a label stays where it is. */
static void
test_loads (void)
{
  g_autoptr (Schedule) sched = parse ("stream a\nstream b\nstream c\n"
                                      "kernel a grid=1 block=32 time=1us loads label=k\n"
                                      "kernel b grid=1 block=32 time=1us label=k\n"
                                      "kernel c grid=1 block=32 time=1us label=j\n"
                                      "kernel a grid=1 block=32 time=1us loads\n");
  g_autoptr (ScheduleOrder) rules = schedule_order_new (sched);
  g_assert_true (schedule_order_needs (rules, 0, 1));
  g_assert_cmpuint (schedule_order_n_blocks (rules), ==, 2);
  g_autofree guint32 *order = schedule_order_identity (rules);
  g_assert_false (schedule_order_can_move (rules, order, 1, 0));
  g_assert_true (schedule_order_can_move (rules, order, 2, 0));
}

/* A stream sync and host work keep what is issued after them after them,
 * and what the sync waits for before it; the rest may move later past
 * them. Ops: 0 a's copy, 1 b's kernel, 2 `sync a`, 3 a's kernel, 4 host
 * work, 5 b's kernel. */
static void
test_host_one_way (void)
{
  g_autoptr (Schedule) sched = parse ("stream a\nstream b\n"
                                      "h2d a 1KiB\n"
                                      "kernel b grid=1 block=32 time=1us\n"
                                      "sync a\n"
                                      "kernel a grid=1 block=32 time=1us\n"
                                      "host 1us\n"
                                      "kernel b grid=1 block=32 time=1us\n");
  g_autoptr (ScheduleOrder) rules = schedule_order_new (sched);
  g_assert_cmpuint (schedule_order_n_blocks (rules), ==, 1);
  g_autofree guint32 *order = schedule_order_identity (rules);
  g_assert_true (schedule_order_can_move (rules, order, 1, 2));   /* b's kernel after the sync */
  g_assert_true (schedule_order_can_move (rules, order, 1, 4));   /* ... and the host work */
  g_assert_false (schedule_order_can_move (rules, order, 1, 5));  /* not after b's next kernel */
  g_assert_false (schedule_order_can_move (rules, order, 0, 2));  /* the sync waits for a's copy */
  g_assert_false (schedule_order_can_move (rules, order, 3, 2));  /* issued after the sync */
  g_assert_false (schedule_order_can_move (rules, order, 5, 4));  /* issued after the host work */
  g_assert_true (schedule_order_needs (rules, 2, 4));              /* host statements in order */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/order/blocks-and-rules", test_blocks_and_rules);
  g_test_add_func ("/order/every-order", test_every_order);
  g_test_add_func ("/order/moves", test_moves);
  g_test_add_func ("/order/by-key", test_by_key);
  g_test_add_func ("/order/legacy-stream", test_legacy_stream);
  g_test_add_func ("/order/loads", test_loads);
  g_test_add_func ("/order/host-one-way", test_host_one_way);
  return g_test_run ();
}
