/* eng_live.h: the slots that hold an op's state while it is in flight, and the FIFOs of ops linked through them. */
#ifndef ENG_LIVE_H
#define ENG_LIVE_H

#include "eng_state.h"

/* A slot for `op` as the host issues it: no edges, nothing pending, no op
 * ahead, dependencies seen at 0 (the other fields are set before they are
 * read). Only the host's call takes slots, and the array may move when it
 * does: hold no EngLive pointer across an event. */
void eng_live_take (EngSim *sim, guint32 op);
/* Gives the slot back after the op's full signal. */
void eng_live_release (EngSim *sim, guint32 op);
void eng_live_free (EngSim *sim);

/* A FIFO of ops linked through a field of EngLive: `next` for connection
 * queues, `next_ready` for the ops waiting for an engine (an op waits for its
 * engine while still at the head of its connection queue). */
typedef struct
{
  guint32 head, tail;
} EngFifo;

#define ENG_LINK_QUEUE G_STRUCT_OFFSET (EngLive, next)
#define ENG_LINK_READY G_STRUCT_OFFSET (EngLive, next_ready)
#define ENG_OP_LINK(sim, op, link) G_STRUCT_MEMBER (guint32, eng_live (sim, op), link)

static inline void
eng_fifo_init (EngFifo *fifo)
{
  fifo->head = fifo->tail = ENG_NONE;
}

static inline void
eng_fifo_push (EngSim *sim, EngFifo *fifo, guint32 op, glong link)
{
  ENG_OP_LINK (sim, op, link) = ENG_NONE;
  if (fifo->tail == ENG_NONE)
    fifo->head = op;
  else
    ENG_OP_LINK (sim, fifo->tail, link) = op;
  fifo->tail = op;
}

static inline guint32
eng_fifo_pop (EngSim *sim, EngFifo *fifo, glong link)
{
  guint32 op = fifo->head;
  if (op != ENG_NONE)
    {
      fifo->head = ENG_OP_LINK (sim, op, link);
      if (fifo->head == ENG_NONE)
        fifo->tail = ENG_NONE;
      ENG_OP_LINK (sim, op, link) = ENG_NONE;
    }
  return op;
}

#endif /* ENG_LIVE_H */
