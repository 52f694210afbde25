/* test_schedule_blocks.c: `if` ... `else` ... `end`, `graph` ... `end`, `let` inside blocks and loops whose range is empty. */
#include <glib.h>

#include "sim/core/schedule.h"
#include "support/parse_check.h"

/* Parses `text` with `defines`: its ops must be `host` ops of durations
 * `ns` (n of them) and, where `lines` is not NULL, on those lines. */
static void
expect_hosts (const char *text, const char *const *defines, const SimTime *ns, gsize n,
              const guint *lines)
{
  Schedule *sched = parse_check_ok (text, defines);

  g_assert_cmpuint (schedule_n_ops (sched), ==, n);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (schedule_op (sched, i)->kind, ==, SCHED_OP_HOST);
      g_assert_cmpint (schedule_op (sched, i)->u.duration, ==, ns[i]);
      if (lines != NULL)
        g_assert_cmpuint (schedule_op (sched, i)->line, ==, lines[i]);
    }
  schedule_free (sched);
}

/* Even i takes the first branch, odd i the `else`; the nested `if` inside
 * the first branch only for i = 2. Expected by hand: i = 0: 0; 1: 101;
 * 2: 2, 1000; 3: 103. */
static void
test_if_else (void)
{
  static const SimTime ns[] = { 0, 101, 2, 1000, 103 };
  static const guint lines[] = { 3, 8, 3, 5, 8 };
  expect_hosts ("repeat i 0..3\n"
                "  if i % 2 == 0\n"
                "    host ${i}ns\n"
                "    if i == 2\n"
                "      host 1us\n"
                "    end\n"
                "  else\n"
                "    host ${i+100}ns\n"
                "  end\n"
                "end\n", NULL, ns, G_N_ELEMENTS (ns), lines);

  /* An `if` around a loop whose bounds read the outer variable: counted
   * iteration by iteration, i = 4 and 5 give 4 + 5 ops. */
  static const SimTime nested[] = { 1, 2, 3, 4, 1, 2, 3, 4, 5 };
  expect_hosts ("repeat i 1..5\n"
                "  if i > 3\n"
                "    repeat j 1..$i\n"
                "      host ${j}ns\n"
                "    end\n"
                "  end\n"
                "end\n", NULL, nested, G_N_ELEMENTS (nested), NULL);

  /* ... and exactly so: --max-ops 8 is told of 9 ops. */
  parse_check_error ("repeat i 1..5\n  if i > 3\n    repeat j 1..$i\n      host 1ns\n    end\n  end\nend\n",
                     NULL, 8, SCHEDULE_ERROR_LIMIT, "t.sched:1:1: the schedule expands to 9 ops");
}

/* A `let` in a block is run each time the block runs, and seen only
 * inside it. Expected: squares 1, 4, 9; then each branch's own t. */
static void
test_let_scope (void)
{
  static const SimTime ns[] = { 1, 4, 9, 5000, 7 };
  expect_hosts ("repeat i 1..3\n"
                "  let sq = ${i*i}\n"
                "  host ${sq}ns\n"
                "end\n"
                "let big = 1\n"
                "if big\n"
                "  let t = 5us\n"
                "  host $t\n"
                "else\n"
                "  let t = 1us\n"
                "  host $t\n"
                "end\n"
                "if !big\n"
                "  let t = 1us\n"
                "else\n"
                "  let t = 7ns\n"
                "  host $t\n"
                "end\n", NULL, ns, G_N_ELEMENTS (ns), NULL);

  /* The same name again at the top level, after the block has ended. */
  static const SimTime again[] = { 3, 3, 4 };
  expect_hosts ("repeat i 1..2\n  let x = 3ns\n  host $x\nend\nlet x = 4ns\nhost $x\n", NULL,
                again, G_N_ELEMENTS (again), NULL);

  parse_check_error ("repeat i 1..2\n  let sq = ${i*i}\n  host 1us\nend\nhost ${sq}ns\n", NULL, 0,
                     SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:5:6: parameter 'sq' is defined at line 2 inside a block, and is not "
                     "visible after the block's end (line 4)");
  parse_check_error ("let a = 1\nif 1\n  let a = 2\n  host 1us\nend\n", NULL, 0, SCHEDULE_ERROR_DUPLICATE,
                     "t.sched:3:7: parameter 'a' is defined twice; the first `let` is at line 1");
  parse_check_error ("repeat i 1..2\n  host ${k}ns\n  let k = 1\nend\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:2:8: parameter 'k' is used before its `let` at line 3");
}

/* A range B < A runs no time, so that -D can switch a part off: with
 * on = 1 the loop and the `if` give one op each, with -D on=0 none. */
static void
test_empty_range (void)
{
  static const char text[] = "let on = 1\n"
                             "host 1ns\n"
                             "repeat k 1..$on\n"
                             "  host 2ns\n"
                             "end\n"
                             "if on\n"
                             "  host 3ns\n"
                             "end\n"
                             "repeat i 1..0\n"
                             "  host 4ns\n"
                             "end\n";
  static const char *const off[] = { "on=0", NULL };
  static const SimTime all[] = { 1, 2, 3 }, none[] = { 1 };
  expect_hosts (text, NULL, all, G_N_ELEMENTS (all), NULL);
  expect_hosts (text, off, none, G_N_ELEMENTS (none), NULL);

  /* An empty inner range whose bound reads the outer variable: i = 1..3
   * gives j = 1..0, 1..1, 1..2: 0 + 1 + 2 ops. */
  static const SimTime tri[] = { 1, 1, 2 };
  expect_hosts ("repeat i 1..3\n  repeat j 1..${i-1}\n    host ${j}ns\n  end\nend\n", NULL,
                tri, G_N_ELEMENTS (tri), NULL);
}

static void
test_errors (void)
{
  parse_check_error ("else\n", NULL, 0, SCHEDULE_ERROR_SYNTAX, "t.sched:1:1: `else` without an `if`");
  parse_check_error ("repeat i 1..2\n  else\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:3: `else` without an `if`");
  parse_check_error ("if 1\nelse\nelse\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:1: a second `else` for the `if` at line 1");
  parse_check_error ("if 1\nelse if 0\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:6: unexpected text after `else`");
  parse_check_error ("if 1\n  host 1us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:1: `if` without a matching `end`");
  parse_check_error ("end\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:1: `end` without a `repeat`, `if`, `graph` or `thread`");
  parse_check_error ("let kw = else\n$kw\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:1: `else` must be written out");
}

/* A graph launch: the ops its lines expand to (a loop inside it too) are its
 * nodes, numbered by launch, the first marked as the launch; the ops around
 * it are in no graph; a second launch of the same lines (a loop around
 * `graph`) is launch 2. Worked out by hand from the text. */
static void
test_graph (void)
{
  Schedule *sched = parse_check_ok ("stream s1\n"
                                    "host 1us\n"
                                    "repeat r 1..2\n"
                                    "  graph s1\n"
                                    "    repeat i 1..2\n"
                                    "      kernel s1 grid=1 block=32 time=1us\n"
                                    "    end\n"
                                    "    memset s1 4KiB\n"
                                    "    d2h s1 4KiB pageable\n"
                                    "    hostfn s1 1us\n"
                                    "  end\n"
                                    "end\n"
                                    "kernel s1 grid=1 block=32 time=1us\n", NULL);
  static const guint graph[] = { 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 0 };
  static const guint launch[] = { 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0 };
  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (graph));
  for (gsize i = 0; i < G_N_ELEMENTS (graph); i++)
    {
      g_assert_cmpuint (schedule_op (sched, i)->graph, ==, graph[i]);
      g_assert_cmpuint (schedule_op (sched, i)->graph_launch, ==, launch[i]);
    }
  schedule_free (sched);
}

/* A graph with branches: the ops of other streams, taken in by a `wait`
 * on an event recorded in the graph, are its branches; the launch stream's
 * ops, the fork's record and the joining wait are not. */
static void
test_graph_branches (void)
{
  g_autoptr (Schedule) sched = parse_check_ok ("stream s1\nstream s2\n"
                                               "graph s1\n"
                                               "  kernel s1 grid=1 block=32 time=1us\n"
                                               "  record fork s1\n"
                                               "  wait s2 fork\n"
                                               "  memset s2 4KiB\n"
                                               "  record joined s2\n"
                                               "  wait s1 joined\n"
                                               "end\n"
                                               "kernel s2 grid=1 block=32 time=1us\n", NULL);
  static const guint graph[] = { 1, 1, 1, 1, 1, 1, 0 };
  static const guint branch[] = { 0, 0, 1, 1, 1, 0, 0 };
  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (graph));
  for (gsize i = 0; i < G_N_ELEMENTS (graph); i++)
    {
      g_assert_cmpuint (schedule_op (sched, i)->graph, ==, graph[i]);
      g_assert_cmpuint (schedule_op (sched, i)->graph_branch, ==, branch[i]);
      g_assert_cmpuint (schedule_op (sched, i)->graph_launch, ==, i == 0);
    }
}

/* Stream-ordered allocation: `malloc` and `free` are ops of their stream
 * with their sizes, `pool_threshold` a setting; errors where written. */
static void
test_alloc (void)
{
  g_autoptr (Schedule) sched = parse_check_ok ("pool_threshold 1GiB\nstream s\n"
                                               "malloc s 64MiB label=buf\nfree s 64MiB\n", NULL);
  g_assert_cmpuint (schedule_pool_threshold (sched), ==, G_GUINT64_CONSTANT (1) << 30);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 2);
  g_assert_cmpint (schedule_op (sched, 0)->kind, ==, SCHED_OP_MALLOC);
  g_assert_cmpuint (schedule_op (sched, 0)->u.bytes, ==, 64u << 20);
  g_assert_cmpstr (schedule_op (sched, 0)->label, ==, "buf");
  g_assert_cmpint (schedule_op (sched, 1)->kind, ==, SCHED_OP_FREE);
  g_assert_cmpuint (schedule_op (sched, 1)->stream, ==, 1);
  parse_check_error ("stream s\nmalloc s\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:1: expected `malloc STREAM SIZE [label=NAME]`");
  parse_check_error ("stream s\nfree t 1MiB\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:2:6: undefined stream 't'");
  parse_check_error ("pool_threshold 1MiB\npool_threshold 2MiB\n", NULL, 0, SCHEDULE_ERROR_DUPLICATE,
                     "t.sched:2:1: `pool_threshold` is given twice; the first is at line 1");
  parse_check_error ("pool_threshold\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:1: expected `pool_threshold SIZE`");
}

/* `device_schedule` is a setting of four words, `event NAME blocking_sync`
 * a declaration; which waits sleep (schedule_wait_blocks); errors where
 * written. */
static void
test_device_schedule (void)
{
  g_autoptr (Schedule) sched = parse_check_ok ("device_schedule blocking_sync\nstream s\n"
                                               "event slow blocking_sync\nrecord slow s\n"
                                               "record fast s\nsync slow\nsync fast\nsync s\n"
                                               "memcpy d2h 1MiB\nmemcpy d2h 1MiB pageable\n"
                                               "memcpy h2d 1MiB pageable\n",
                                               NULL);
  g_assert_cmpint (schedule_device_schedule (sched), ==, SCHED_SCHEDULE_BLOCKING_SYNC);
  static const gboolean blocks[] = { FALSE, FALSE, TRUE, FALSE, TRUE, TRUE, TRUE, FALSE };
  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (blocks));
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    g_assert_cmpint (schedule_wait_blocks (sched, schedule_op (sched, i)), ==, blocks[i]);
  g_autoptr (Schedule) plain = parse_check_ok ("device_schedule yield\nstream s\nsync s\n", NULL);
  g_assert_cmpint (schedule_device_schedule (plain), ==, SCHED_SCHEDULE_YIELD);
  g_assert_false (schedule_wait_blocks (plain, schedule_op (plain, 0)));
  parse_check_error ("device_schedule sleepy\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:17: unknown device_schedule 'sleepy'; expected auto, spin, yield "
                     "or blocking_sync");
  parse_check_error ("device_schedule spin\ndevice_schedule auto\n", NULL, 0,
                     SCHEDULE_ERROR_DUPLICATE,
                     "t.sched:2:1: `device_schedule` is given twice; the first is at line 1");
  parse_check_error ("stream s\nevent e blocking\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:9: unknown event attribute 'blocking'; `event NAME` takes "
                     "blocking_sync");
}

/* What stream capture refuses, refused where it is written. */
static void
test_graph_branch_errors (void)
{
  static const char head[] = "stream s1\nstream s2\n";
#define BRANCH_ERROR(body, code, message)                                               \
  do                                                                                    \
    {                                                                                   \
      g_autofree char *text = g_strconcat (head, body, NULL);                           \
      parse_check_error (text, NULL, 0, code, message);                                 \
    }                                                                                   \
  while (0)
  BRANCH_ERROR ("graph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s2\nend\n",
                SCHEDULE_ERROR_SYNTAX, "t.sched:5:12: stream 's2' is not in this graph yet");
  BRANCH_ERROR ("record e s1\ngraph s1\n  kernel s1 grid=1 block=32 time=1us\n  wait s2 e\nend\n",
                SCHEDULE_ERROR_SYNTAX, "t.sched:6:11: event 'e' has no `record` in this graph");
  BRANCH_ERROR ("graph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s1\n  wait s2 e\n"
                "  kernel s2 grid=1 block=32 time=1us\nend\n",
                SCHEDULE_ERROR_SYNTAX,
                "t.sched:7:3: this node in stream 's2' is not joined back into 's1'");
  BRANCH_ERROR ("graph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s1\n  wait s2 e\n"
                "  kernel s2 grid=1 block=32 time=1us\n  record f s2\n  wait s1 f\n"
                "  kernel s2 grid=1 block=32 time=1us\nend\n",
                SCHEDULE_ERROR_SYNTAX,
                "t.sched:10:3: this node in stream 's2' is not joined back into 's1'");
  BRANCH_ERROR ("graph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s1\n  wait default e\n"
                "end\n",
                SCHEDULE_ERROR_SYNTAX, "t.sched:6:8: the legacy default stream cannot be one");
  BRANCH_ERROR ("graph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s1\nend\nwait s2 e\n",
                SCHEDULE_ERROR_SYNTAX, "t.sched:7:9: event 'e' was last recorded inside a graph (line 5)");
  BRANCH_ERROR ("graph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s1\nend\nsync e\n",
                SCHEDULE_ERROR_SYNTAX, "t.sched:7:6: event 'e' was last recorded inside a graph (line 5)");
  BRANCH_ERROR ("record a s1\ngraph s1\n  kernel s1 grid=1 block=32 time=1us\n  record e s1\nend\n"
                "elapsed x a e\n",
                SCHEDULE_ERROR_SYNTAX, "t.sched:8:13: event 'e' was last recorded inside a graph (line 6)");
  BRANCH_ERROR ("graph s1\n  record e s1\n  wait s2 e\nend\n", SCHEDULE_ERROR_SYNTAX,
                "t.sched:3:1: a graph with no node");
#undef BRANCH_ERROR
}

static void
test_graph_errors (void)
{
  parse_check_error ("stream s1\ngraph s1\n  kernel s1 grid=1 block=32 time=1us\n", NULL, 0,
                     SCHEDULE_ERROR_SYNTAX, "t.sched:2:1: `graph` without a matching `end`");
  parse_check_error ("stream s1\ngraph s1\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:1: a graph with no node");
  parse_check_error ("stream s1\ngraph s1\n  repeat i 1..0\n    host 1us\n  end\nend\n", NULL, 0,
                     SCHEDULE_ERROR_SYNTAX, "t.sched:2:1: a graph with no node");
  parse_check_error ("stream s1\ngraph\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:1: expected `graph STREAM`");
  parse_check_error ("stream s1\ngraph s1 s2\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:10: expected `graph STREAM`");
  parse_check_error ("graph s9\nend\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED, "t.sched:1:7: ");
  parse_check_error ("stream s1\ngraph s1\n  host 1us\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:3: `host` cannot stand inside a graph");
  parse_check_error ("stream s1\ngraph s1\n  sync s1\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:3: `sync` cannot stand inside a graph");
  parse_check_error ("stream s1\ngraph s1\n  stream s2\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:3: `stream` cannot stand inside a graph");
  parse_check_error ("stream s1\nstream s2\ngraph s1\n  kernel s2 grid=1 block=32 time=1us\nend\n",
                     NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:4:10: stream 's2' is not in this graph yet");
  parse_check_error ("stream s1\ngraph s1\n  kernel s1 grid=1 block=32 time=1us loads\nend\n", NULL,
                     0, SCHEDULE_ERROR_SYNTAX, "t.sched:3:3: `loads` inside a graph");
  parse_check_error ("stream s1\ngraph s1\n  graph s1\n    kernel s1 grid=1 block=32 time=1us\n"
                     "  end\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:3: a graph inside a graph");
  parse_check_error ("let g = graph\nstream s1\n$g s1\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:3:1: `graph` must be written out");
}

/* Thread blocks: a SPAWN op where the block stands, its lines the thread's
 * ops right after it (in a loop, one thread per iteration), `join` an op of
 * the thread it stands in. */
static void
test_threads (void)
{
  g_autoptr (Schedule) sched = parse_check_ok ("stream s1\n"
                                      "repeat i 1..2\n"
                                      "  thread w$i\n"
                                      "    let t = ${i * 10}\n"
                                      "    host ${t}us\n"
                                      "    kernel s1 grid=1 block=32 time=1us\n"
                                      "  end\n"
                                      "end\n"
                                      "join w2\n"
                                      "sync device\n", NULL);
  static const SchedOpKind kinds[] = { SCHED_OP_SPAWN, SCHED_OP_HOST, SCHED_OP_KERNEL,
                                       SCHED_OP_SPAWN, SCHED_OP_HOST, SCHED_OP_KERNEL,
                                       SCHED_OP_JOIN, SCHED_OP_SYNC_DEVICE };
  static const guint threads[] = { 0, 1, 1, 0, 2, 2, 0, 0 };
  g_assert_cmpuint (schedule_n_ops (sched), ==, G_N_ELEMENTS (kinds));
  g_assert_cmpuint (schedule_n_threads (sched), ==, 3);
  g_assert_cmpstr (schedule_thread_name (sched, 0), ==, "main");
  g_assert_cmpstr (schedule_thread_name (sched, 1), ==, "w1");
  g_assert_cmpstr (schedule_thread_name (sched, 2), ==, "w2");
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_assert_cmpint (schedule_op (sched, i)->kind, ==, kinds[i]);
      g_assert_cmpuint (schedule_op_thread (sched, i), ==, threads[i]);
    }
  g_assert_cmpuint (schedule_op (sched, 0)->u.thread, ==, 1);
  g_assert_cmpuint (schedule_op (sched, 3)->u.thread, ==, 2);
  g_assert_cmpuint (schedule_op (sched, 6)->u.thread, ==, 2);
  g_assert_cmpint (schedule_op (sched, 4)->u.duration, ==, 20000);

  g_autoptr (Schedule) one = parse_check_ok ("stream s1\nkernel s1 grid=1 block=32 time=1us\n", NULL);
  g_assert_cmpuint (schedule_n_threads (one), ==, 1);
  g_assert_cmpuint (schedule_op_thread (one, 0), ==, 0);
}

static void
test_thread_errors (void)
{
  parse_check_error ("thread w1\n  thread w2\n  end\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:3: a thread block inside thread 'w1'");
  parse_check_error ("stream s1\ngraph s1\n  thread w1\n  end\nend\n", NULL, 0,
                     SCHEDULE_ERROR_SYNTAX, "t.sched:3:3: a thread block inside a graph");
  parse_check_error ("thread w1\n  stream s1\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:3: `stream` inside thread 'w1'; declarations and settings stand "
                     "at the top level");
  parse_check_error ("thread main\nend\n", NULL, 0, SCHEDULE_ERROR_DUPLICATE,
                     "t.sched:1:8: 'main' is the thread that runs the file's top level");
  parse_check_error ("thread w1\nend\nthread w1\nend\n", NULL, 0, SCHEDULE_ERROR_DUPLICATE,
                     "t.sched:3:8: thread 'w1' is started twice");
  parse_check_error ("thread w/1\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:8: 'w/1' is not a thread name");
  parse_check_error ("thread\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:1: expected `thread NAME`");
  parse_check_error ("thread w1\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:1: `thread` without a matching `end`");
  parse_check_error ("join w1\nthread w1\nend\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:1:6: no thread 'w1' is started above this line");
  parse_check_error ("thread w1\n  join w1\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:8: thread 'w1' joins itself");
  parse_check_error ("thread w1\nend\njoin w1\njoin w1\n", NULL, 0, SCHEDULE_ERROR_DUPLICATE,
                     "t.sched:4:6: thread 'w1' is joined twice; the first `join` is at line 3");
  parse_check_error ("stream s1\nthread w1\n  record e s1\nend\nrecord f s1\nelapsed x e f\n",
                     NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:6:11: event 'e' was last recorded by thread 'w1' (line 3)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/schedule-blocks/if-else", test_if_else);
  g_test_add_func ("/schedule-blocks/let-scope", test_let_scope);
  g_test_add_func ("/schedule-blocks/empty-range", test_empty_range);
  g_test_add_func ("/schedule-blocks/errors", test_errors);
  g_test_add_func ("/schedule-blocks/graph", test_graph);
  g_test_add_func ("/schedule-blocks/graph-errors", test_graph_errors);
  g_test_add_func ("/schedule-blocks/graph-branches", test_graph_branches);
  g_test_add_func ("/schedule-blocks/alloc", test_alloc);
  g_test_add_func ("/schedule-blocks/device-schedule", test_device_schedule);
  g_test_add_func ("/schedule-blocks/graph-branch-errors", test_graph_branch_errors);
  g_test_add_func ("/schedule-blocks/threads", test_threads);
  g_test_add_func ("/schedule-blocks/thread-errors", test_thread_errors);
  return g_test_run ();
}
