/* eng_connection.h: hardware work queues ("connections"), which stream goes to which, and the false-dependency rule (eng_connection.c). */
#ifndef ENG_CONNECTION_H
#define ENG_CONNECTION_H

#include "eng_state.h"

/* `connections` is the count asked for (0: the schedule's, else the
 * profile's default). */
void eng_connection_init (EngSim *sim, guint connections);
void eng_connection_free (EngSim *sim);
/* The connection count in force, and how many have copy queues of their
 * own (COPY QUEUES). */
guint eng_connection_count (const EngSim *sim);
guint eng_connection_copy_count (const EngSim *sim);

/* The documented rule: the connection of a stream by creation order. */
guint eng_connection_of (const EngSim *sim, guint32 stream);
/* Under assign_on_submit, the connection an op goes to, chosen as the host
 * issues it (before its dependencies make it its stream's last op): a
 * stream with nothing in flight takes one anew, else keeps its own. */
guint eng_connection_assign (EngSim *sim, guint32 op);
/* When an op issued to a connection reaches it: its own arrival, or later,
 * since a connection's ops arrive in issue order. */
SimTime eng_connection_arrival (EngSim *sim, guint32 op, SimTime arrival);

/* The set of queues an op joins: its connection's, or for a copy, the one it
 * shares, or past the connections' the small copies' (COPY QUEUES). */
guint eng_connection_queue_owner (const EngSim *sim, guint32 op);
/* `op` reaches its queue at `now`. */
void eng_connection_arrive (EngSim *sim, guint32 op, SimTime now);
/* The op at the head of connection `owner`'s `qclass` queue, or ENG_NONE. */
guint32 eng_connection_head (const EngSim *sim, guint owner, EngQueueClass qclass);
/* Whether the head `op` may leave its queue for its engine (the profile's
 * connection_serializes holds a kernel while one of its connection runs). */
gboolean eng_connection_may_submit (const EngSim *sim, guint owner, guint32 op);
/* The head `op` left for its engine: the next op, returned (ENG_NONE: none),
 * is the head now. */
guint32 eng_connection_pop (EngSim *sim, guint32 op, SimTime now);
/* Kernel `op` finished; TRUE when its connection's compute queue may move
 * again because of it (connection_serializes). */
gboolean eng_connection_kernel_done (EngSim *sim, guint32 op);

#endif /* ENG_CONNECTION_H */
