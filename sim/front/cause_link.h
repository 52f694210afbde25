/* cause_link.h: the other op a timeline's cause text ties an op to, when the tie crosses streams. */
#ifndef CAUSE_LINK_H
#define CAUSE_LINK_H

#include <glib.h>

/* The cause column (timeline.h) starts with a kind word and names other ops
 * as "op N". Four kinds tie an op to work of another stream and are drawn as
 * arrows (Gantt charts) or flows (Chrome traces): "event" (a stream waited
 * for an event's record), "queue" (a false dependency: behind another
 * stream's op in a hardware queue), "legacy" (the legacy default stream) and
 * "deferred" (Fermi held a kernel's completion until the launch run ended).
 * For those, returns the kind word (a static string) and sets *op to the last
 * op the text names: for "deferred completion of op 5 held until op 8 ended"
 * that is op 8, whose end released the wait. Returns NULL otherwise. */
const char *cause_link_parse (const char *cause, guint32 *op);

#endif /* CAUSE_LINK_H */
