/* test_sim_queue.c: the event core's order of events, heap, ordered sources and timers together.
 *
 * Events run by (time, sequence number); a model's own events (an ordered
 * source, sim_queue_source_new) take their sequence numbers from the same
 * counter and must run exactly where scheduled events with those keys would.
 * Each test records the order events ran in and compares it with the order
 * worked out in its comment. */
#include <glib.h>
#include "sim/core/sim_queue.h"

typedef struct
{
  GString *order;     /* one letter per event, in the order they ran */
  SimTime source_when[4];
  guint64 source_seq[4];
  char source_name[4];
  guint n_source, next_source;
} Log;

static void
log_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) now;
  Log *log = arg;
  g_string_append_c (log->order, (char) tag);
}

static SimSource *log_source;

/* The source hands out its events one at a time, like the kernel engine. */
static void
run_source (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  (void) tag;
  Log *log = arg;
  guint i = log->next_source++;
  g_assert_cmpint (now, ==, log->source_when[i]);
  g_string_append_c (log->order, log->source_name[i]);
  if (log->next_source < log->n_source)
    sim_queue_source_next (log_source, log->source_when[log->next_source],
                           log->source_seq[log->next_source]);
  else
    sim_queue_source_next (log_source, SIM_TIME_NEVER, 0);
}

/* Scheduled in this order: a at 10, b at 5, source X at 10 (sequence number
 * taken third), c at 10, source Y at 5 (taken fifth), d at 1. By (time,
 * sequence): d (1), b (5, seq 1), Y (5, seq 4), a (10, seq 0), X (10, seq 2),
 * c (10, seq 3). The source's events are handed to the queue one at a time,
 * Y first, since it ends first. */
static void
test_source_ties (void)
{
  SimQueue *queue = sim_queue_new ();
  Log log = { g_string_new (NULL), { 0 }, { 0 }, { 0 }, 0, 0 };
  log_source = sim_queue_source_new (queue, run_source, &log, 0);

  sim_queue_schedule (queue, 10, log_event, &log, 'a');
  sim_queue_schedule (queue, 5, log_event, &log, 'b');
  guint64 x = sim_queue_take_seq (queue, 1);
  sim_queue_schedule (queue, 10, log_event, &log, 'c');
  guint64 y = sim_queue_take_seq (queue, 1);
  sim_queue_schedule (queue, 1, log_event, &log, 'd');
  g_assert_cmpuint (x, ==, 2);
  g_assert_cmpuint (y, ==, 4);

  log.source_when[0] = 5, log.source_seq[0] = y, log.source_name[0] = 'Y';
  log.source_when[1] = 10, log.source_seq[1] = x, log.source_name[1] = 'X';
  log.n_source = 2;
  sim_queue_source_next (log_source, 5, y);

  SimTime when;
  guint64 seq;
  g_assert_true (sim_queue_peek_other (queue, log_source, &when, &seq));
  g_assert_cmpint (when, ==, 1); /* the heap's first: d */
  g_assert_cmpuint (seq, ==, 5);

  g_assert_cmpuint (sim_queue_run (queue), ==, 6);
  g_assert_cmpstr (log.order->str, ==, "dbYaXc");
  g_assert_false (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_string_free (log.order, TRUE);
  sim_queue_free (queue);
}

/* take_seq(n) takes n numbers: the next scheduled event gets the one after. */
static void
test_take_seq (void)
{
  SimQueue *queue = sim_queue_new ();
  g_assert_cmpuint (sim_queue_take_seq (queue, 3), ==, 0);
  Log log = { g_string_new (NULL), { 0 }, { 0 }, { 0 }, 0, 0 };
  sim_queue_schedule (queue, 0, log_event, &log, 'a');
  SimTime when;
  guint64 seq;
  g_assert_true (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_assert_cmpuint (seq, ==, 3);
  g_assert_cmpuint (sim_queue_take_seq (queue, 1), ==, 4);
  sim_queue_run (queue);
  g_assert_cmpstr (log.order->str, ==, "a");
  g_string_free (log.order, TRUE);
  sim_queue_free (queue);
}

/* A timer that sets itself again once, from its own firing ('q' -> 'z'). */
static SimTimer *rearm_timer;

static void
rearm_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  log_event (queue, now, arg, tag);
  if (tag == 'q')
    sim_queue_timer_set (rearm_timer, now + 1, 'z');
}

/* Timers take their sequence numbers when set and a set replaces the pending
 * firing. In this order: a at 10 (seq 0), timer T1 'p' at 10 (seq 1), b at 5
 * (seq 2), timer T2 'q' at 5 (seq 3), T1 again 'r' at 5 (seq 4: 'p' is gone),
 * c at 5 (seq 5). By (time, sequence): b, q, r, c, then 'q' sets T2 to 'z' at
 * 6 (seq 6), which runs before a (10): "bqrcza", six events. */
static void
test_timers (void)
{
  SimQueue *queue = sim_queue_new ();
  Log log = { g_string_new (NULL), { 0 }, { 0 }, { 0 }, 0, 0 };
  SimTimer *t1 = sim_queue_timer_new (queue, log_event, &log);
  SimTimer *t2 = sim_queue_timer_new (queue, rearm_event, &log);
  rearm_timer = t2;
  g_assert_false (sim_queue_timer_pending (t1));

  sim_queue_schedule (queue, 10, log_event, &log, 'a');
  sim_queue_timer_set (t1, 10, 'p');
  sim_queue_schedule (queue, 5, log_event, &log, 'b');
  sim_queue_timer_set (t2, 5, 'q');
  sim_queue_timer_set (t1, 5, 'r');
  sim_queue_schedule (queue, 5, log_event, &log, 'c');
  g_assert_true (sim_queue_timer_pending (t1));

  /* peek: the earliest of the heap and the timers, b (5, 2) before T2 (5, 3) */
  SimTime when;
  guint64 seq;
  g_assert_true (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_assert_cmpint (when, ==, 5);
  g_assert_cmpuint (seq, ==, 2);

  g_assert_cmpuint (sim_queue_run (queue), ==, 6);
  g_assert_cmpstr (log.order->str, ==, "bqrcza");
  g_assert_false (sim_queue_timer_pending (t1));
  g_assert_false (sim_queue_timer_pending (t2));
  g_assert_false (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_string_free (log.order, TRUE);
  sim_queue_free (queue);
}

/* A timer alone, with the heap empty: peek gives its key. */
static void
test_timer_peek (void)
{
  SimQueue *queue = sim_queue_new ();
  Log log = { g_string_new (NULL), { 0 }, { 0 }, { 0 }, 0, 0 };
  SimTimer *t = sim_queue_timer_new (queue, log_event, &log);
  sim_queue_take_seq (queue, 7);
  sim_queue_timer_set (t, 42, 't');
  SimTime when;
  guint64 seq;
  g_assert_true (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_assert_cmpint (when, ==, 42);
  g_assert_cmpuint (seq, ==, 7);
  g_assert_cmpuint (sim_queue_run (queue), ==, 1);
  g_assert_cmpint (sim_queue_now (queue), ==, 42);
  g_assert_cmpstr (log.order->str, ==, "t");
  g_string_free (log.order, TRUE);
  sim_queue_free (queue);
}

/* A stopped timer does not fire, and stopping takes no sequence number: T1
 * 'p' at 5 (seq 0) is stopped, T2 'q' at 8 (seq 1) becomes the first timer
 * and a at 8 (seq 2) runs after it; T1 set again, 'r' at 9 (seq 3), runs
 * last. Stopping a timer that is not pending does nothing: "qar". */
static void
test_timer_stop (void)
{
  SimQueue *queue = sim_queue_new ();
  Log log = { g_string_new (NULL), { 0 }, { 0 }, { 0 }, 0, 0 };
  SimTimer *t1 = sim_queue_timer_new (queue, log_event, &log);
  SimTimer *t2 = sim_queue_timer_new (queue, log_event, &log);
  sim_queue_timer_set (t1, 5, 'p');
  sim_queue_timer_set (t2, 8, 'q');
  sim_queue_timer_stop (t1);
  g_assert_false (sim_queue_timer_pending (t1));
  sim_queue_timer_stop (t1);
  sim_queue_schedule (queue, 8, log_event, &log, 'a');
  SimTime when;
  guint64 seq;
  g_assert_true (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_assert_cmpint (when, ==, 8);
  g_assert_cmpuint (seq, ==, 1);
  sim_queue_timer_set (t1, 9, 'r');
  g_assert_cmpuint (sim_queue_run (queue), ==, 3);
  g_assert_cmpstr (log.order->str, ==, "qar");
  g_string_free (log.order, TRUE);
  sim_queue_free (queue);
}

/* A source that runs a list of (time, sequence) events, one letter each. */
typedef struct
{
  SimSource *source;
  GString *order;
  const SimTime *when;
  const guint64 *seq;
  const char *names;
  guint next;
} ListSource;

static void
run_list (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  (void) queue;
  ListSource *l = arg;
  g_assert_cmpuint (tag, ==, (guint64) l->names[0]);
  g_assert_cmpint (now, ==, l->when[l->next]);
  g_string_append_c (l->order, l->names[l->next]);
  l->next++;
  if (l->names[l->next] != '\0')
    sim_queue_source_next (l->source, l->when[l->next], l->seq[l->next]);
  else
    sim_queue_source_next (l->source, SIM_TIME_NEVER, 0);
}

/* Three sources and the heap interleave by (time, sequence). Sequence
 * numbers are taken in this order: A1 (0), e at 4 (1), B1 (2), C1 (3),
 * A2 (4), B2 (5), f at 6 (6). Keys: A1 (3, 0), A2 (7, 4); B1 (3, 2), B2 (6,
 * 5); C1 (1, 3); e (4, 1); f (6, 6). By key: C1, A1, B1, e, B2, f, A2
 * ("CABeYfZ", B2 named Y and A2 Z). The earliest event that is not A's is
 * C1; with C's event taken back it is B1 (3, 2), A1 being the first of all.
 * When everything has run, peek_other finds nothing. */
static void
test_sources (void)
{
  SimQueue *queue = sim_queue_new ();
  GString *order = g_string_new (NULL);
  Log log = { order, { 0 }, { 0 }, { 0 }, 0, 0 };
  SimTime aw[] = { 3, 7 }, bw[] = { 3, 6 }, cw[] = { 1 };
  guint64 as[2], bs[2], cs[1];
  as[0] = sim_queue_take_seq (queue, 1);
  sim_queue_schedule (queue, 4, log_event, &log, 'e');
  bs[0] = sim_queue_take_seq (queue, 1);
  cs[0] = sim_queue_take_seq (queue, 1);
  as[1] = sim_queue_take_seq (queue, 1);
  bs[1] = sim_queue_take_seq (queue, 1);
  sim_queue_schedule (queue, 6, log_event, &log, 'f');
  ListSource a = { NULL, order, aw, as, "AZ", 0 };
  ListSource b = { NULL, order, bw, bs, "BY", 0 };
  ListSource c = { NULL, order, cw, cs, "C", 0 };
  a.source = sim_queue_source_new (queue, run_list, &a, 'A');
  b.source = sim_queue_source_new (queue, run_list, &b, 'B');
  c.source = sim_queue_source_new (queue, run_list, &c, 'C');
  sim_queue_source_next (a.source, aw[0], as[0]);
  sim_queue_source_next (b.source, bw[0], bs[0]);
  sim_queue_source_next (c.source, cw[0], cs[0]);

  SimTime when;
  guint64 seq;
  g_assert_true (sim_queue_peek_other (queue, a.source, &when, &seq));
  g_assert_cmpint (when, ==, 1);
  g_assert_cmpuint (seq, ==, 3);
  /* C's event taken back and given again: nothing changes */
  sim_queue_source_next (c.source, SIM_TIME_NEVER, 0);
  g_assert_true (sim_queue_peek_other (queue, a.source, &when, &seq));
  g_assert_cmpint (when, ==, 3);
  g_assert_cmpuint (seq, ==, 2); /* B1 */
  sim_queue_source_next (c.source, cw[0], cs[0]);

  g_assert_cmpuint (sim_queue_run (queue), ==, 7);
  g_assert_cmpstr (order->str, ==, "CABeYfZ");
  g_assert_false (sim_queue_peek_other (queue, NULL, &when, &seq));
  g_string_free (order, TRUE);
  sim_queue_free (queue);
}

/* Steps run after the event or step that posted them, depth first: event
 * a (at 1) posts x then y; x posts z. Then b (at 1, scheduled before any
 * step) and c (at 1, scheduled by y: after b, since steps take no sequence
 * number but c takes the next) run: "axzybc". */
static void
step_event (SimQueue *queue, SimTime now, gpointer arg, guint64 tag)
{
  log_event (queue, now, arg, tag);
  g_assert_cmpint (now, ==, 1);
  if (tag == 'a')
    {
      sim_queue_post (queue, step_event, arg, 'x');
      sim_queue_post (queue, step_event, arg, 'y');
      g_assert_cmpuint (sim_queue_steps (queue), ==, 2);
    }
  else if (tag == 'x')
    sim_queue_post (queue, step_event, arg, 'z');
  else if (tag == 'y')
    sim_queue_schedule (queue, now, log_event, arg, 'c');
}

static void
test_steps (void)
{
  SimQueue *queue = sim_queue_new ();
  Log log = { g_string_new (NULL), { 0 }, { 0 }, { 0 }, 0, 0 };
  sim_queue_schedule (queue, 1, step_event, &log, 'a');
  sim_queue_schedule (queue, 1, step_event, &log, 'b');
  g_assert_cmpuint (sim_queue_run (queue), ==, 3); /* events a, b and c: steps are no events */
  g_assert_cmpstr (log.order->str, ==, "axzybc");
  g_assert_cmpuint (sim_queue_steps (queue), ==, 0);
  g_string_free (log.order, TRUE);
  sim_queue_free (queue);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim-queue/source-ties", test_source_ties);
  g_test_add_func ("/sim-queue/sources", test_sources);
  g_test_add_func ("/sim-queue/steps", test_steps);
  g_test_add_func ("/sim-queue/take-seq", test_take_seq);
  g_test_add_func ("/sim-queue/timers", test_timers);
  g_test_add_func ("/sim-queue/timer-peek", test_timer_peek);
  g_test_add_func ("/sim-queue/timer-stop", test_timer_stop);
  return g_test_run ();
}
