/* schedule_threads.c: the parser's host threads: `thread NAME` ... `end` blocks and `join NAME`.
 *
 * A thread block's lines become ops of a host thread of their own, right
 * after the SPAWN op that starts it (an op of the thread that reaches the
 * block). Blocks do not nest, so each thread's ops are one range of the
 * schedule's ops, and the schedule keeps a thread per op only when there
 * is more than one thread. */
#include "schedule_parser.h"

static const char thread_usage[] = "`thread NAME`, the thread's lines, then `end`";

gboolean
parser_thread_open (Parser *p, GError **error)
{
  Schedule *sched = p->sched;
  const Token *t = p->tokens;
  if (p->thread != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "a thread block inside thread '%s'; write each `thread` block at the "
                        "top level (a thread started by another is written where it starts)",
                        schedule_thread_name (sched, p->thread));
  if (p->graph != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "a thread block inside a graph; a graph's nodes are kernels, memsets, "
                        "copies and host functions");
  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens < 2 ? t[0].col : t[2].col,
                        "expected %s", thread_usage);
  if (!parser_is_object_name (t[1].s))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "'%s' is not a thread name; names use letters, digits, '_', '.' and '-'",
                        t[1].s);
  if (strcmp (t[1].s, "main") == 0)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "'main' is the thread that runs the file's top level; give this "
                        "thread another name");
  if (p->thread_index == NULL)
    {
      p->thread_index = g_hash_table_new (g_str_hash, g_str_equal);
      p->thread_ranges = g_array_new (FALSE, FALSE, sizeof (ThreadRange));
    }
  if (g_hash_table_contains (p->thread_index, t[1].s))
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "thread '%s' is started twice; each thread block needs a name of its "
                        "own (in a loop: `thread w$i`)", t[1].s);
  if (sched->threads->len > G_MAXUINT16)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t[1].col,
                        "more than %u threads", G_MAXUINT16);

  guint32 thread = sched->threads->len;
  const char *name = g_string_chunk_insert_const (sched->strings, t[1].s);
  g_ptr_array_add (sched->threads, (gpointer) name);
  g_hash_table_insert (p->thread_index, (gpointer) name, GUINT_TO_POINTER (thread));

  SchedOp *op = parser_op (p, SCHED_OP_SPAWN);
  op->u.thread = thread;

  p->thread = thread;
  p->thread_first_op = sched->n_ops;
  return TRUE;
}

void
parser_thread_close (Parser *p)
{
  ThreadRange r = { p->thread_first_op, p->sched->n_ops, p->thread };
  g_array_append_val (p->thread_ranges, r);
  p->thread = 0;
}

gboolean
parser_thread_allows (Parser *p, gsize index, GError **error)
{
  if (p->thread == 0)
    return TRUE;
  const Line *l = &p->lines[index];
  const char *line = p->text + l->start;
  p->lineno = l->lineno;
  return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, l->first + 1u,
                      "`%.*s` inside thread '%s'; declarations and settings stand at the top "
                      "level, before the `thread` block", (int) (word_end (line + l->first, line + l->end)
                                                                  - (line + l->first)),
                      line + l->first, schedule_thread_name (p->sched, p->thread));
}

guint32
parser_op_thread (const Parser *p, gsize op)
{
  if (p->thread != 0 && op >= p->thread_first_op)
    return p->thread;
  if (p->thread_ranges != NULL)
    for (guint i = 0; i < p->thread_ranges->len; i++)
      {
        const ThreadRange *r = &g_array_index (p->thread_ranges, ThreadRange, i);
        if (op >= r->first && op < r->end)
          return r->thread;
      }
  return 0;
}

gboolean
parser_join (Parser *p, GError **error)
{
  const Token *t = p->tokens;
  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, p->n_tokens < 2 ? t[0].col : t[2].col,
                        "expected `join NAME`, NAME a thread started above");
  if (p->graph != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "`join` cannot stand inside a graph: a graph launch's nodes are "
                        "kernels, memsets, copies and host functions");
  gpointer found = p->thread_index != NULL ? g_hash_table_lookup (p->thread_index, t[1].s) : NULL;
  if (found == NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_UNDEFINED, t[1].col,
                        "no thread '%s' is started above this line; `join NAME` waits for "
                        "a thread block written before it", t[1].s);
  guint32 thread = GPOINTER_TO_UINT (found);
  if (thread == p->thread)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[1].col,
                        "thread '%s' joins itself, which would wait for ever", t[1].s);
  if (p->thread_joined == NULL)
    p->thread_joined = g_hash_table_new (g_direct_hash, g_direct_equal);
  gpointer line = g_hash_table_lookup (p->thread_joined, found);
  if (line != NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, t[1].col,
                        "thread '%s' is joined twice; the first `join` is at line %u", t[1].s,
                        GPOINTER_TO_UINT (line));
  g_hash_table_insert (p->thread_joined, found, GUINT_TO_POINTER (p->lineno));
  SchedOp *op = parser_op (p, SCHED_OP_JOIN);
  op->u.thread = thread;
  return TRUE;
}

void
parser_threads_finish (Parser *p)
{
  Schedule *sched = p->sched;
  if (p->thread_ranges == NULL)
    return;
  sched->op_thread = g_new0 (guint16, MAX (sched->n_ops, 1));
  for (guint i = 0; i < p->thread_ranges->len; i++)
    {
      const ThreadRange *r = &g_array_index (p->thread_ranges, ThreadRange, i);
      for (gsize op = r->first; op < r->end; op++)
        sched->op_thread[op] = (guint16) r->thread;
    }
}

void
parser_threads_free (Parser *p)
{
  if (p->thread_index != NULL)
    g_hash_table_unref (p->thread_index);
  if (p->thread_joined != NULL)
    g_hash_table_unref (p->thread_joined);
  if (p->thread_ranges != NULL)
    g_array_unref (p->thread_ranges);
}
