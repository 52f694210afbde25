/* measured_row.h: the timeline CSV row of a schedule's op, as the harness and the recorder write measured timelines. */
#ifndef MEASURED_ROW_H
#define MEASURED_ROW_H

#include "sim/core/schedule.h"
#include "sim/formats/timeline.h"

/* Fills every field of op `index` but the times (set to -1) and the
 * connection (-1: which hardware queue an op used is not observable). */
void measured_row_fill (const Schedule *sched, gsize index, TimelineRow *row);

#endif /* MEASURED_ROW_H */
