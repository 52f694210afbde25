/* eng_check_span.c: spans of time an op held one thing (a copy engine, a connection, the callback thread), and the check that such a thing held one op at a time. */
#include "eng_check_rules.h"

int
eng_check_span_by_start (const void *a, const void *b)
{
  const Span *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return x->op < y->op ? -1 : x->op > y->op;
}

void
eng_check_serial (EngCheck *check, EngCheckRule rule, const Span *spans, gsize n,
                  const char *what)
{
  gsize holder = G_MAXSIZE;
  for (gsize i = 0; i < n; i++)
    {
      if (spans[i].end == spans[i].start)
        continue;
      if (holder != G_MAXSIZE && spans[i].start < spans[holder].end)
        eng_check_report (check, rule, spans[i].op, spans[holder].op,
                          "ran %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
                          " ns on %s while op %u ran there until %" G_GINT64_FORMAT " ns",
                          spans[i].start, spans[i].end, what, spans[holder].op, spans[holder].end);
      if (holder == G_MAXSIZE || spans[i].end > spans[holder].end)
        holder = i;
    }
}
