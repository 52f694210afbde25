/* eng_agenda.h: the work an event leaves for the same instant, as a list of steps run after the event, not as nested calls.
 *
 * A step is a function of the model and two numbers (an op, a queue, an
 * edge). When an event or a step has work for another part of the model (a
 * queue to pump, a dependent to wake, the host to resume) it posts a step
 * instead of calling it, and returns; the list is drained after every event
 * (sim_queue_set_after_event), as Redis's ae.c runs beforesleep. No part
 * of the model runs while another is half-way through a change.
 *
 * Order: the steps a step posts run next, in the order posted, before the
 * steps posted earlier by others (depth first). That is the order in which
 * the model's rules were measured against the GPUs: a consequence is settled
 * before its sibling starts. It decides which of two events at the same
 * nanosecond comes first, so it is part of the model's behaviour. */
#ifndef ENG_AGENDA_H
#define ENG_AGENDA_H

#include <glib.h>
#include "sim/core/sim_time.h"

typedef struct EngSim EngSim;

typedef void (*EngStepFunc) (EngSim *sim, guint32 a, guint32 b, SimTime now);

typedef struct
{
  EngStepFunc func;
  guint32 a, b;
} EngStep;

/* A stack: the next step is the last item. */
typedef struct
{
  EngStep *items;
  guint32 len, cap;
} EngAgenda;

void eng_agenda_grow (EngAgenda *agenda);

/* Posts func(sim, a, b) to run after the current step or event. */
static inline void
eng_agenda_post (EngAgenda *agenda, EngStepFunc func, guint32 a, guint32 b)
{
  if (agenda->len == agenda->cap)
    eng_agenda_grow (agenda);
  agenda->items[agenda->len++] = (EngStep) { func, a, b };
}

/* Runs every posted step, and the steps they post, until none is left.
 * Called after every event. */
void eng_agenda_drain (EngSim *sim, EngAgenda *agenda, SimTime now);
void eng_agenda_clear (EngAgenda *agenda);

#endif /* ENG_AGENDA_H */
