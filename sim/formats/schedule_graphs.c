/* schedule_graphs.c: pass 3's graph launches: a `graph STREAM` block opened, each op its lines expand to made one of its nodes, its branches into other streams checked to join back, and the block closed.
 *
 * A file of its own because a graph is a block, not a statement:
 * schedule_parse.c opens and closes it around the lines it expands, and
 * checks each node here after the node's own statement has been read (the
 * kinds of op a graph holds, and the streams it has taken in through a
 * `wait`, as stream capture does). */
#include "schedule_parser.h"

static const char graph_usage[] = "`graph STREAM`, the graph's kernels, memsets, copies and host "
                                  "functions, one a line, then `end`";

gboolean
parser_graph_open (Parser *p, GError **error)
{
  const Token *t = p->tokens;
  if (p->graph != 0)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "a graph inside a graph; graphs do not nest (a child graph's nodes "
                        "are written in its parent)");
  if (p->n_tokens != 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX,
                        p->n_tokens < 2 ? t[0].col : t[2].col, "expected %s", graph_usage);
  if (!parser_stream_ref (p, &t[1], &p->graph_stream, error))
    return FALSE;
  if (p->n_graphs >= (1u << 28) - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t[0].col, "too many graph launches");
  p->graph = ++p->n_graphs;
  p->graph_first_op = p->sched->n_ops;
  p->graph_branches = FALSE;
  if (p->graph_streams != NULL)
    g_hash_table_remove_all (p->graph_streams);
  return TRUE;
}

/* A stream other than the launch's takes part in the graph from its first
 * `wait` on an event recorded in the graph, as a stream joins a capture
 * (parser_stmt_wait has checked the event). */
static gboolean
graph_branch (Parser *p, SchedOp *op, GError **error)
{
  const Token *t = p->tokens;
  const char *name = schedule_stream (p->sched, op->stream)->name;
  guint col = op->kind == SCHED_OP_WAIT ? t[1].col : op->kind == SCHED_OP_RECORD ? t[2].col : t[1].col;
  if (op->stream == SCHED_STREAM_DEFAULT)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "the legacy default stream cannot be one of a graph's streams (it "
                        "cannot be captured); name a stream of your own");
  if (p->graph_streams == NULL)
    p->graph_streams = g_hash_table_new (g_direct_hash, g_direct_equal);
  gpointer key = GUINT_TO_POINTER (op->stream + 1);
  if (op->kind == SCHED_OP_WAIT)
    g_hash_table_add (p->graph_streams, key);
  else if (!g_hash_table_contains (p->graph_streams, key))
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, col,
                        "stream '%s' is not in this graph yet: a graph launched into '%s' takes "
                        "in another stream with `wait %s EVENT` on an event recorded in the graph",
                        name, schedule_stream (p->sched, p->graph_stream)->name, name);
  op->graph_branch = 1;
  p->graph_branches = TRUE;
  return TRUE;
}

gboolean
parser_graph_node (Parser *p, gsize index, gboolean made, GError **error)
{
  const Token *t = p->tokens;
  SchedOp *op = made ? &p->sched->ops[index] : NULL;
  gboolean allowed = op != NULL
                     && (op->kind == SCHED_OP_KERNEL || op->kind == SCHED_OP_MEMSET
                         || op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_HOSTFN
                         || op->kind == SCHED_OP_RECORD || op->kind == SCHED_OP_WAIT);
  if (!allowed)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "`%s` cannot stand inside a graph: a graph launch's nodes are kernels, "
                        "memsets, copies and host functions, joined by `record` and `wait` "
                        "(write it before `graph` or after its `end`)", t[0].s);
  if (op->kind == SCHED_OP_KERNEL && op->u.kernel.loads)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "`loads` inside a graph: a graph's kernels have their code loaded when "
                        "it is instantiated, before its first launch");
  if (op->stream != p->graph_stream && !graph_branch (p, op, error))
    return FALSE;
  op->graph = p->graph;
  op->graph_launch = index == p->graph_first_op;
  return TRUE;
}

/* Every node in another stream must come back to the launch's stream
 * before `end`, as cudaStreamEndCapture requires (an unjoined stream is
 * its error): each is reached, going back from the launch stream's last
 * op, through the order of each stream within the graph and from each
 * `wait` to its record. */
static gboolean
graph_joined (Parser *p, GError **error)
{
  const SchedOp *ops = p->sched->ops + p->graph_first_op;
  gsize n = p->sched->n_ops - p->graph_first_op;
  g_autofree guint32 *before = g_new (guint32, 2 * n); /* per op: its stream's, its record */
  g_autofree gboolean *reached = g_new0 (gboolean, n);
  g_autoptr (GHashTable) last = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) recorded = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (gsize k = 0; k < n; k++)
    {
      before[2 * k] = GPOINTER_TO_UINT (g_hash_table_lookup (last, GUINT_TO_POINTER (ops[k].stream + 1)));
      before[2 * k + 1] = ops[k].kind == SCHED_OP_WAIT
                            ? GPOINTER_TO_UINT (g_hash_table_lookup (recorded, GUINT_TO_POINTER (ops[k].event + 1)))
                            : 0;
      g_hash_table_insert (last, GUINT_TO_POINTER (ops[k].stream + 1), GUINT_TO_POINTER (k + 1));
      if (ops[k].kind == SCHED_OP_RECORD)
        g_hash_table_insert (recorded, GUINT_TO_POINTER (ops[k].event + 1), GUINT_TO_POINTER (k + 1));
    }
  /* indices + 1 of ops still to visit; each op is pushed once */
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 top = GPOINTER_TO_UINT (g_hash_table_lookup (last, GUINT_TO_POINTER (p->graph_stream + 1)));
  if (top != 0)
    {
      reached[top - 1] = TRUE;
      g_array_append_val (stack, top);
    }
  while (stack->len > 0)
    {
      guint32 k = g_array_index (stack, guint32, stack->len - 1) - 1;
      g_array_set_size (stack, stack->len - 1);
      for (guint j = 0; j < 2; j++)
        {
          guint32 b = before[2 * k + j];
          if (b != 0 && !reached[b - 1])
            {
              reached[b - 1] = TRUE;
              g_array_append_val (stack, b);
            }
        }
    }
  for (gsize k = 0; k < n; k++)
    if (!reached[k] && ops[k].kind != SCHED_OP_RECORD && ops[k].kind != SCHED_OP_WAIT)
      {
        const char *name = schedule_stream (p->sched, ops[k].stream)->name;
        p->lineno = ops[k].line;
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, ops[k].column,
                            "this node in stream '%s' is not joined back into '%s' before the "
                            "graph's `end`: record an event in '%s' after it and `wait %s` on it "
                            "(cudaStreamEndCapture fails on an unjoined stream)",
                            name, schedule_stream (p->sched, p->graph_stream)->name, name,
                            schedule_stream (p->sched, p->graph_stream)->name);
      }
  return TRUE;
}

gboolean
parser_graph_close (Parser *p, gsize index, GError **error)
{
  gboolean any_node = FALSE;
  for (gsize k = p->graph_first_op; k < p->sched->n_ops && !any_node; k++)
    any_node = p->sched->ops[k].kind != SCHED_OP_RECORD && p->sched->ops[k].kind != SCHED_OP_WAIT;
  if (!any_node)
    {
      const Line *l = &p->lines[index];
      p->lineno = l->lineno;
      return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, l->first + 1u,
                          "a graph with no node; expected %s", graph_usage);
    }
  if (p->graph_branches && !graph_joined (p, error))
    return FALSE;
  p->graph = 0;
  return TRUE;
}
