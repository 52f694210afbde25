/* spans.h: sets of time intervals: their union, its length, and how long two unions overlap. */
#ifndef SPANS_H
#define SPANS_H

#include <glib.h>
#include "sim/core/sim_time.h"

/* The interval [start, end). */
typedef struct
{
  SimTime start, end;
} Span;

/* Sorts `spans` by start and merges, in place, the ones that overlap or
 * touch (one starts where another ends) into disjoint spans in order of
 * time; returns how many are left. */
gsize spans_union (Span *spans, gsize n);

/* The time that disjoint spans cover (spans_union's result). */
SimTime spans_length (const Span *spans, gsize n);

/* The time that two sets of disjoint spans in order of time (spans_union's
 * results) both cover. */
SimTime spans_overlap (const Span *a, gsize na, const Span *b, gsize nb);

#endif /* SPANS_H */
