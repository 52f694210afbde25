/* cause_text.h: what an op waited for, in words (cause_text.c). */
#ifndef CAUSE_TEXT_H
#define CAUSE_TEXT_H

#include <glib.h>
#include "engines/eng_sim.h"

/* Appends to `out` the sentence for op `op`'s cause after a run, e.g.
 * "queue conn0/d2h behind op 7 (stream s1): false dependency"; nothing for
 * ENG_CAUSE_NONE. No allocation per op: the CSV writer calls it for every
 * row. */
void cause_text_append (const EngSim *sim, gsize op, GString *out);

#endif /* CAUSE_TEXT_H */
