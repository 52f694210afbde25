/* spans.c: sets of time intervals: their union, its length, and how long two unions overlap. */
#include <string.h>
#include "spans.h"

/* Radix digits of at most 11 bits: 2048 counters, which stay in L1. A
 * million-op schedule's times span about 2^39 ns, so four passes. */
#define SPANS_DIGIT_BITS_MAX 11

/* The digit of a span's key (its start - lo) that a pass sorts on: the
 * counting loop and the placing loop must agree on it exactly. */
static inline gsize
start_digit (const Span *span, SimTime lo, guint shift, guint64 mask)
{
  return (gsize) ((((guint64) span->start - (guint64) lo) >> shift) & mask);
}

/* Sorts by start, least significant digit first, on start - the smallest
 * start. The summary of `predict` gets each engine's spans in issue order,
 * which is far from sorted (about one descent in three at 10^6 ops on the
 * k20): qsort with a comparator took 72 ms of that command's 1.2 s, these
 * passes take 18 ms (perf samples of the benchmark's schedule). Equal
 * starts keep their order (the passes are stable), not that the union
 * cares. */
static void
sort_by_start (Span *spans, gsize n)
{
  if (n < 2)
    return;
  SimTime lo = spans[0].start, hi = lo;
  gboolean sorted = TRUE;
  for (gsize i = 1; i < n; i++)
    {
      lo = MIN (lo, spans[i].start);
      hi = MAX (hi, spans[i].start);
      sorted &= spans[i].start >= spans[i - 1].start;
    }
  if (sorted)
    return;

  /* unsigned: the difference of any two SimTimes fits; not 0, since the
   * spans are not sorted (g_bit_storage takes a gulong, 32 bits on some
   * platforms) */
  guint bits = 64 - (guint) __builtin_clzll ((guint64) hi - (guint64) lo);
  guint passes = (bits + SPANS_DIGIT_BITS_MAX - 1) / SPANS_DIGIT_BITS_MAX;
  guint digit_bits = (bits + passes - 1) / passes;
  gsize n_digits = (gsize) 1 << digit_bits;
  guint64 mask = n_digits - 1;
  gsize *at = g_new (gsize, n_digits);
  Span *tmp = g_new (Span, n);
  Span *from = spans, *to = tmp;
  for (guint p = 0; p < passes; p++)
    {
      guint shift = p * digit_bits;
      memset (at, 0, n_digits * sizeof *at);
      for (gsize i = 0; i < n; i++)
        at[start_digit (&from[i], lo, shift, mask)]++;
      gsize sum = 0;
      for (gsize d = 0; d < n_digits; d++)
        {
          gsize count = at[d];
          at[d] = sum;
          sum += count;
        }
      for (gsize i = 0; i < n; i++)
        to[at[start_digit (&from[i], lo, shift, mask)]++] = from[i];
      Span *swap = from;
      from = to;
      to = swap;
    }
  if (from != spans)
    memcpy (spans, from, n * sizeof *spans);
  g_free (tmp);
  g_free (at);
}

gsize
spans_union (Span *spans, gsize n)
{
  if (n == 0)
    return 0;
  sort_by_start (spans, n);
  gsize out = 0;
  for (gsize i = 1; i < n; i++)
    {
      if (spans[i].start <= spans[out].end)
        spans[out].end = MAX (spans[out].end, spans[i].end);
      else
        spans[++out] = spans[i];
    }
  return out + 1;
}

SimTime
spans_length (const Span *spans, gsize n)
{
  SimTime total = 0;
  for (gsize i = 0; i < n; i++)
    total += spans[i].end - spans[i].start;
  return total;
}

SimTime
spans_overlap (const Span *a, gsize na, const Span *b, gsize nb)
{
  SimTime total = 0;
  gsize i = 0, j = 0;
  while (i < na && j < nb)
    {
      SimTime lo = MAX (a[i].start, b[j].start);
      SimTime hi = MIN (a[i].end, b[j].end);
      if (hi > lo)
        total += hi - lo;
      if (a[i].end < b[j].end)
        i++;
      else
        j++;
    }
  return total;
}
