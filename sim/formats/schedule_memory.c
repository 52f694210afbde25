/* schedule_memory.c: pass 3's memory statements: `memset` in a stream (of device memory, or `pinned` host memory), and stream-ordered `malloc` and `free` from the device's default pool.
 *
 * A file of its own because these ops take a stream and a size and nothing
 * of a copy's direction or host memory; the pool's setting, `pool_threshold`,
 * is read with the other settings (schedule_declarations.c). */
#include "schedule_parser.h"

gboolean
parser_stmt_memset (Parser *p, GError **error)
{
  static const char usage[] = "`memset STREAM SIZE [pinned] [label=NAME]`";
  const Token *t = p->tokens;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_MEMSET);
  if (!parser_stream_ref (p, &t[1], &op->stream, error)
      || !parser_size (p, &t[2], &op->u.bytes, error))
    return FALSE;
  /* `pinned` (of pinned host memory, the word a copy's host memory takes)
   * and `label=`, in either order */
  for (guint i = 3; i < p->n_tokens; i++)
    {
      if (strcmp (t[i].s, "pinned") != 0)
        {
          const char *value = TOKEN_ATTR (&t[i], "label");
          if (value == NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[i].col,
                                "unexpected '%s'; expected %s", t[i].s, usage);
          if (!parser_label (p, &t[i], value, op, error))
            return FALSE;
        }
      else if (op->host_memory)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[i].col, "pinned is given twice");
      else
        op->host_memory = TRUE;
    }
  return TRUE;
}

/* `malloc STREAM SIZE` and `free STREAM SIZE`: stream-ordered allocation
 * from the device's default pool (cudaMallocAsync, cudaFreeAsync; `free`
 * names the size of the allocation it gives back). */
gboolean
parser_stmt_alloc (Parser *p, SchedOpKind kind, GError **error)
{
  const char *usage = kind == SCHED_OP_MALLOC ? "`malloc STREAM SIZE [label=NAME]`"
                                              : "`free STREAM SIZE [label=NAME]`, SIZE the allocation's";
  const Token *t = p->tokens;
  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  SchedOp *op = parser_op (p, kind);
  return parser_stream_ref (p, &t[1], &op->stream, error)
         && parser_size (p, &t[2], &op->u.bytes, error)
         && parser_label_tail (p, 3, op, usage, error);
}
