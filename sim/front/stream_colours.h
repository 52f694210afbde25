/* stream_colours.h: each stream of a picture gets its colour from its name, so that every picture of one schedule agrees.
 *
 * The streams named in the timelines drawn are put in natural order of
 * their names ("s2" before "s10"), the legacy default stream ("default")
 * last, and a stream's colour is its place in that order. Which
 * timeline named it first, or how many ops it has, does not matter: the
 * Gantt chart of `predict --plot`, `plot` of its CSV and `plot --vs` of the
 * same schedule's measured timeline give each stream one colour. gantt.gp's
 * palette repeats only after PLOT_PALETTE_SIZE streams. */
#ifndef STREAM_COLOURS_H
#define STREAM_COLOURS_H

#include <glib.h>
#include "sim/formats/timeline.h"

typedef struct StreamColours StreamColours;

/* Natural order of names: runs of digits compare as numbers ("s2" < "s10",
 * "s02" after "s2" as a tie-break), everything else byte by byte. */
int stream_name_compare (const char *a, const char *b);

/* The streams named by the rows of `sets` (n_sets timelines; a row of no
 * stream, "", names none). The names point into the timelines, which must
 * outlive the result. */
StreamColours *stream_colours_new (const Timeline *const *sets, guint n_sets);
void stream_colours_free (StreamColours *colours);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StreamColours, stream_colours_free)

guint stream_colours_n (const StreamColours *colours);
/* The stream of colour `index`, in natural order. */
const char *stream_colours_name (const StreamColours *colours, guint index);
/* The colour of `stream`: its place in natural order; -1 for NULL, "" or a
 * stream the timelines do not name. */
gint stream_colours_index (const StreamColours *colours, const char *stream);

#endif /* STREAM_COLOURS_H */
