/* eng_check_copy.c: the copy engines' rules: one copy of a kind at a time on each engine, each for its time (copy-engine, copy-time).
 *
 *  - copy-engine: at most one direct copy (pinned or device memory) at a time
 *    on each copy engine (h2d, d2h, or the single engine of a one-engine
 *    device; d2d copies one at a time), and at most one staged copy (pageable
 *    memory), which starts at no time a direct copy runs there.
 *  - copy-time: a copy lasts latency + bytes / bandwidth of its direction and
 *    memory kind, stretched by (1 - duplex_factor) of the time a copy of the
 *    other direction ran beside it, within rounding; a staged copy also by
 *    every moment a direct copy ran on its engine after the first
 *    pageable_overlap of it (the profile's, by the staged copy's direction:
 *    it is paused then, and not slowed by duplex while paused).
 * Not checked: the order in which one copy engine served copies from
 * different connections (it serves them in the order they became ready). */
#include <math.h>
#include "eng_check_rules.h"

/* The first of `n` spans (sorted by start) that starts at or after `t`. */
static gsize
first_starting_from (const Span *o, gsize n, SimTime t)
{
  gsize lo = 0, hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (o[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Total time `s` shares with the spans of `other` (sorted by start, one
 * engine, so one at a time), and how many of them it meets. */
static SimTime
overlap_with (const Span *s, const GArray *other, guint *met)
{
  const Span *o = (const Span *) other->data;
  gsize lo = first_starting_from (o, other->len, s->end);
  SimTime total = 0;
  *met = 0;
  for (gsize k = lo; k-- > 0;)
    {
      if (o[k].end <= s->start)
        break;
      SimTime a = MAX (s->start, o[k].start), b = MIN (s->end, o[k].end);
      if (b > a)
        {
          total += b - a;
          (*met)++;
        }
    }
  return total;
}

/* The time covered by the spans of two engines together, as spans sorted by
 * start that do not overlap: what overlap_with needs where a staged copy
 * runs beside a direct one on the same engine. */
static GArray *
union_of (const GArray *a, const GArray *b)
{
  GArray *all = g_array_sized_new (FALSE, FALSE, sizeof (Span), a->len + b->len);
  g_array_append_vals (all, a->data, a->len);
  g_array_append_vals (all, b->data, b->len);
  g_array_sort (all, eng_check_span_by_start);
  guint kept = 0;
  for (guint i = 0; i < all->len; i++)
    {
      Span *s = &g_array_index (all, Span, i);
      if (s->end == s->start)
        continue;
      Span *last = kept > 0 ? &g_array_index (all, Span, kept - 1) : NULL;
      if (last != NULL && s->start <= last->end)
        last->end = MAX (last->end, s->end);
      else
        g_array_index (all, Span, kept++) = *s;
    }
  g_array_set_size (all, kept);
  return all;
}

/* A staged copy starts while no direct copy runs on its engine, and every
 * direct copy it meets pauses it from `window` after that copy's start.
 * Returns the time it was paused, and the part of that time `other` (the
 * other direction) was busy. */
static SimTime
paused_time (EngCheck *check, const Span *s, const GArray *direct, const GArray *other,
             SimTime window, SimTime *paused_shared, guint *met)
{
  SimTime paused = 0;
  *paused_shared = 0;
  *met = 0;
  /* back from the first direct copy starting at or after s ends: they run
   * one at a time (checked apart), so the ones it meets are just before */
  const Span *o = (const Span *) direct->data;
  for (gsize k = first_starting_from (o, direct->len, s->end); k-- > 0;)
    {
      const Span *d = &o[k];
      if (d->end <= s->start)
        break;
      if (d->end == d->start)
        continue;
      if (d->start < s->start)
        eng_check_report (check, ENG_CHECK_COPY_ENGINE, s->op, d->op,
                          "a staged (pageable) copy started at %" G_GINT64_FORMAT
                          " ns while op %u, a direct copy, ran on its engine until %"
                          G_GINT64_FORMAT " ns",
                          s->start, d->op, d->end);
      Span part = { d->op, MAX (s->start, d->start + window), MIN (s->end, d->end) };
      if (part.end <= part.start)
        {
          *met += 1;
          continue;
        }
      guint shared_met = 0;
      paused += part.end - part.start;
      if (other != NULL)
        *paused_shared += overlap_with (&part, other, &shared_met);
      *met += 1 + shared_met;
    }
  return paused;
}

void
eng_check_copies (EngCheck *check)
{
  const GpuProfile *p = check->profile;
  /* per engine, direct copies and copies staged from pageable memory */
  GArray *direct[ENG_N_ENGINES], *staged[ENG_N_ENGINES];
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      direct[e] = g_array_new (FALSE, FALSE, sizeof (Span));
      staged[e] = g_array_new (FALSE, FALSE, sizeof (Span));
    }

  for (gsize i = 0; i < check->n; i++)
    {
      const SchedOp *sop = sop_of (check, i);
      if (!is_copy (sop))
        continue;
      Span s = { (guint32) i, check->r[i].start, check->r[i].end };
      EngEngine e = eng_check_expected_engine (p, sop);
      g_array_append_val (gpu_profile_copy_staged (&sop->u.copy) ? staged[e] : direct[e], s);
    }
  GArray *busy[ENG_N_ENGINES];
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      g_array_sort (direct[e], eng_check_span_by_start);
      g_array_sort (staged[e], eng_check_span_by_start);
      const char *name = eng_engine_name ((EngEngine) e);
      eng_check_serial (check, ENG_CHECK_COPY_ENGINE, (const Span *) direct[e]->data,
                        direct[e]->len, name);
      eng_check_serial (check, ENG_CHECK_COPY_ENGINE, (const Span *) staged[e]->data,
                        staged[e]->len, name);
      busy[e] = union_of (direct[e], staged[e]);
    }

  for (guint e = 0; e < ENG_N_ENGINES; e++)
    for (guint staging = 0; staging < 2; staging++)
      {
        const GArray *spans = staging ? staged[e] : direct[e];
        const GArray *other = e == ENG_ENGINE_H2D   ? busy[ENG_ENGINE_D2H]
                              : e == ENG_ENGINE_D2H ? busy[ENG_ENGINE_H2D]
                                                    : NULL;
        for (guint k = 0; k < spans->len; k++)
          {
            const Span *s = &g_array_index (spans, Span, k);
            const SchedOp *sop = sop_of (check, s->op);
            SimTime solo = gpu_profile_copy_time (p, &sop->u.copy);
            SimTime took = s->end - s->start;
            SimTime shared = 0, paused = 0, paused_shared = 0;
            guint met = 0, paused_met = 0;
            if (other != NULL)
              shared = overlap_with (s, other, &met);
            if (staging)
              paused = paused_time (check, s, direct[e], other, p->pageable_overlap[sop->u.copy.dir],
                                    &paused_shared, &paused_met);
            /* Alone a copy progresses at 1, beside the other direction at
             * the duplex factor f, and a staged copy not at all while a
             * direct one runs on its engine: took = solo + paused + (shared
             * outside the pauses) x (1 - f). Each change of speed may round
             * the end up by a nanosecond. */
            double want = (double) solo + (double) paused
                          + (double) (shared - paused_shared) * (1.0 - p->duplex_factor);
            double slack = 2.0 + met + paused_met + want * 1e-12;
            if (fabs ((double) took - want) > slack)
              eng_check_report (check, ENG_CHECK_COPY_TIME, s->op, NONE,
                                "took %" G_GINT64_FORMAT " ns; %" G_GUINT64_FORMAT " bytes take %"
                                G_GINT64_FORMAT " ns alone (latency + bytes / bandwidth), %.0f ns with %"
                                G_GINT64_FORMAT " ns beside a copy the other way at duplex factor %g and %"
                                G_GINT64_FORMAT " ns paused for direct copies",
                                took, sop->u.copy.bytes, solo, want, shared - paused_shared,
                                p->duplex_factor, paused);
          }
      }

  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      g_array_free (direct[e], TRUE);
      g_array_free (staged[e], TRUE);
      g_array_free (busy[e], TRUE);
    }
}
