/* eng_check_callback.c: host functions run one at a time (one thread for the process), each for exactly its own time (callback). */
#include "eng_check_rules.h"

void
eng_check_callback (EngCheck *check)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (Span));
  for (gsize k = 0; k < check->n; k++)
    {
      gsize i = issued (check, k);
      const SchedOp *sop = sop_of (check, i);
      const EngOpResult *r = &check->r[i];
      if (sop->kind != SCHED_OP_HOSTFN)
        continue;
      SimTime want = sop->u.duration;
      if (r->end - r->start != want)
        eng_check_report (check, ENG_CHECK_CALLBACK, (guint32) i, NONE,
                          "a host function of %" G_GINT64_FORMAT " ns ran %" G_GINT64_FORMAT "-%"
                          G_GINT64_FORMAT " ns, not its time (%" G_GINT64_FORMAT " ns)",
                          sop->u.duration, r->start, r->end, want);
      Span s = { (guint32) i, r->start, r->end };
      g_array_append_val (spans, s);
    }
  g_array_sort (spans, eng_check_span_by_start);
  eng_check_serial (check, ENG_CHECK_CALLBACK, (const Span *) spans->data, spans->len,
                    "the callback thread");
  g_array_free (spans, TRUE);
}
