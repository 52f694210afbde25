/* eng_agenda.c: the steps left for the current instant, run depth first once the event that left them returns. */
#include "eng_agenda.h"

void
eng_agenda_grow (EngAgenda *agenda)
{
  g_assert (agenda->cap < G_MAXUINT32 / 2);
  agenda->cap = MAX (agenda->cap * 2, 64);
  agenda->items = g_renew (EngStep, agenda->items, agenda->cap);
}

/* Items [from, len) were posted in this order by one step (or the event):
 * reversed, the first posted is the next to run. */
static inline void
reverse_from (EngAgenda *agenda, guint32 from)
{
  EngStep *lo = agenda->items + from, *hi = agenda->items + agenda->len;
  while (hi - lo > 1)
    {
      EngStep t = *lo;
      *lo++ = *--hi;
      *hi = t;
    }
}

void
eng_agenda_drain (EngSim *sim, EngAgenda *agenda, SimTime now)
{
  reverse_from (agenda, 0);
  while (agenda->len > 0)
    {
      EngStep step = agenda->items[--agenda->len];
      guint32 mark = agenda->len;
      step.func (sim, step.a, step.b, now);
      reverse_from (agenda, mark);
    }
}

void
eng_agenda_clear (EngAgenda *agenda)
{
  g_free (agenda->items);
  agenda->items = NULL;
  agenda->len = agenda->cap = 0;
}
