/* schedule_host.c: pass 3's host time: `hostfn`, a host function that a stream runs, and `host`, CPU work of the issuing thread between two calls.
 *
 * A file of its own because these statements give a duration of work on
 * the host, not work on the GPU: a TIME and, for `hostfn`, the stream that
 * runs it. */
#include "schedule_parser.h"
#include "units.h"

gboolean
parser_stmt_hostfn (Parser *p, GError **error)
{
  static const char usage[] = "`hostfn STREAM TIME [label=NAME]`";
  const Token *t = p->tokens;
  const char *why;
  SchedOp *op;

  if (p->n_tokens < 3)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_HOSTFN);
  if (!parser_stream_ref (p, &t[1], &op->stream, error))
    return FALSE;
  if (!units_parse_time (t[2].s, &op->u.duration, &why))
    return parser_fail (p, error, parser_why_code (why), t[2].col, "bad time '%s': %s", t[2].s, why);
  return parser_label_tail (p, 3, op, usage, error);
}

gboolean
parser_stmt_host (Parser *p, GError **error)
{
  static const char usage[] = "`host TIME [label=NAME]`";
  const Token *t = p->tokens;
  const char *why;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col, "expected %s", usage);
  op = parser_op (p, SCHED_OP_HOST);
  if (!units_parse_time (t[1].s, &op->u.duration, &why))
    return parser_fail (p, error, parser_why_code (why), t[1].col, "bad time '%s': %s", t[1].s, why);
  return parser_label_tail (p, 2, op, usage, error);
}
