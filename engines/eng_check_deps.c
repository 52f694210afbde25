/* eng_check_deps.c: the dependency rules: stream order, events, the legacy default stream, and what a synchronize waits for (stream, event, legacy, sync).
 *
 *  - sync: `sync S` returns host_sync or more after the last op issued to S
 *    ended (for `default`, also every blocking stream's last op); `sync E`
 *    after the most recent record of E; `sync device` after every device op
 *    and marker issued before it.
 *  - stream: an op starts after the previous op of its stream ended (an op
 *    of a graph's branch: the previous op of its stream in the same launch;
 *    two ops that two host threads issued at one instant are not ordered,
 *    here nor by the sync and queue rules).
 *  - event: `wait S E` resolves after the most recent record of E issued before
 *    it completed, and so does the next op of S.
 *  - legacy: an op of the default stream starts after the last op of every
 *    blocking stream issued before it ended; the first op of a blocking stream
 *    after a default-stream op starts after that op ended.
 * A graph branch's order (Lanes) serves eng_check_engine.c too. */
#include "eng_check_rules.h"

guint32 *
eng_check_order_slot (const EngCheck *check, Lanes *lanes, const SchedOp *sop,
                      guint32 *stream_slots, gboolean floor)
{
  if (!sop->graph_branch)
    return &stream_slots[sop->stream];
  if (lanes->graph == NULL)
    {
      guint n = schedule_n_streams (check->sched);
      lanes->graph = g_new0 (guint32, n);
      lanes->tail = g_new (guint32, n);
      lanes->floor = g_new (guint32, n);
    }
  if (lanes->graph[sop->stream] != sop->graph)
    {
      lanes->graph[sop->stream] = sop->graph;
      lanes->tail[sop->stream] = lanes->floor[sop->stream] = NONE;
    }
  return floor ? &lanes->floor[sop->stream] : &lanes->tail[sop->stream];
}

void
eng_check_lanes_free (Lanes *lanes)
{
  g_free (lanes->graph);
  g_free (lanes->tail);
  g_free (lanes->floor);
}

typedef struct
{
  guint32 *tail;          /* last op issued to each stream */
  guint32 *event_floor;   /* the record the next op of a stream must follow, after a wait */
  guint32 *seen_legacy;   /* the default-stream op each stream was last checked against */
  guint32 *dirty;         /* blocking streams with ops since the last default-stream op */
  gboolean *is_dirty;
  guint n_dirty;
  guint32 *record;        /* most recent record of each event */
  guint32 last_legacy;
  guint32 device_last;    /* device op or marker with the latest end so far */
  guint32 loading;        /* the last launch that loads its code, which later ops follow */
} DepState;

static gboolean
stream_blocking (const EngCheck *check, guint32 stream)
{
  return stream != SCHED_STREAM_DEFAULT
         && !schedule_stream (check->sched, stream)->nonblocking;
}

static void
check_after (EngCheck *check, EngCheckRule rule, guint32 op, guint32 before, const char *what)
{
  if (before == NONE || unordered (check, op, before))
    return;
  const EngOpResult *r = &check->r[op];
  const EngOpResult *b = &check->r[before];
  if (r->start < b->end)
    eng_check_report (check, rule, op, before,
                      "started at %" G_GINT64_FORMAT " ns, before op %u (%s) ended at %" G_GINT64_FORMAT
                      " ns", r->start, before, what, b->end);
}

static void
check_sync_after (EngCheck *check, guint32 op, guint32 waited, const char *what)
{
  if (waited == NONE || unordered (check, op, waited))
    return;
  /* a call made after the waited op ended found nothing to wait for; its
   * cost is checked with the call's own */
  if (check->r[waited].end <= check->r[op].issue)
    return;
  /* a poll's last query begins at or after the end */
  const SchedOp *sop = sop_of (check, op);
  SimTime need = add_sat (check->r[waited].end, sop->poll ? gpu_profile_query_cost (check->profile)
                                                          : check->profile->host_sync);
  if (check->r[op].end < need)
    eng_check_report (check, ENG_CHECK_SYNC, op, waited,
                      "returned at %" G_GINT64_FORMAT " ns, before op %u (%s) ended at %" G_GINT64_FORMAT
                      " ns plus the call's cost", check->r[op].end, waited, what,
                      check->r[waited].end);
}

void
eng_check_deps (EngCheck *check)
{
  guint n_streams = schedule_n_streams (check->sched);
  guint n_events = schedule_n_events (check->sched);
  DepState st = { 0 };
  Lanes lanes = { NULL, NULL, NULL };
  st.tail = g_new (guint32, n_streams);
  st.event_floor = g_new (guint32, n_streams);
  st.seen_legacy = g_new (guint32, n_streams);
  st.dirty = g_new (guint32, n_streams);
  st.is_dirty = g_new0 (gboolean, n_streams);
  st.record = g_new (guint32, MAX (n_events, 1));
  for (guint s = 0; s < n_streams; s++)
    st.tail[s] = st.event_floor[s] = st.seen_legacy[s] = NONE;
  for (guint e = 0; e < n_events; e++)
    st.record[e] = NONE;
  st.last_legacy = st.device_last = st.loading = NONE;

  for (gsize k = 0; k < check->n; k++)
    {
      gsize i = issued (check, k);
      const SchedOp *sop = sop_of (check, i);
      guint32 op = (guint32) i;
      if (is_stream_op (sop))
        {
          guint32 s = sop->stream;
          guint32 *tail = eng_check_order_slot (check, &lanes, sop, st.tail, FALSE);
          guint32 *floor = eng_check_order_slot (check, &lanes, sop, st.event_floor, TRUE);
          check_after (check, ENG_CHECK_STREAM, op, *tail, "the previous op of its stream");
          if (st.loading != NONE)
            {
              if (check->r[op].start < check->r[st.loading].start)
                eng_check_report (check, ENG_CHECK_STREAM, op, st.loading,
                                  "started at %" G_GINT64_FORMAT " ns, before op %u, a launch issued "
                                  "before it that loads its code, started at %" G_GINT64_FORMAT " ns",
                                  check->r[op].start, st.loading, check->r[st.loading].start);
            }
          if (sop->kind == SCHED_OP_KERNEL && sop->u.kernel.loads)
            {
              for (guint o = 0; o < n_streams; o++)
                if (o != s)
                  check_after (check, ENG_CHECK_STREAM, op, st.tail[o],
                               "an op issued before it, since its launch loads its code");
              st.loading = op;
            }
          if (*floor != NONE)
            {
              check_after (check, ENG_CHECK_EVENT, op, *floor, "the record its stream waited for");
              *floor = NONE;
            }
          if (sop->kind == SCHED_OP_WAIT && sop->event != SCHED_NONE
              && st.record[sop->event] != NONE)
            {
              check_after (check, ENG_CHECK_EVENT, op, st.record[sop->event],
                           "the record it waits for");
              *floor = st.record[sop->event];
            }
          if (sop->graph_branch)
            ; /* a branch stands in the launch, apart from the legacy stream's order */
          else if (s == SCHED_STREAM_DEFAULT)
            {
              /* Streams that got no work since the previous default-stream op
               * were checked against it, and it ended before this one began. */
              for (guint d = 0; d < st.n_dirty; d++)
                {
                  guint32 b = st.dirty[d];
                  st.is_dirty[b] = FALSE;
                  check_after (check, ENG_CHECK_LEGACY, op, st.tail[b],
                               "the last op of a blocking stream, which the default stream waits for");
                }
              st.n_dirty = 0;
              st.last_legacy = op;
            }
          else if (stream_blocking (check, s))
            {
              if (st.seen_legacy[s] != st.last_legacy)
                {
                  check_after (check, ENG_CHECK_LEGACY, op, st.last_legacy,
                               "a default-stream op, which blocking streams wait for");
                  st.seen_legacy[s] = st.last_legacy;
                }
              if (!st.is_dirty[s])
                {
                  st.is_dirty[s] = TRUE;
                  st.dirty[st.n_dirty++] = s;
                }
            }
          *tail = op;
          if (sop->kind == SCHED_OP_RECORD && sop->event != SCHED_NONE)
            st.record[sop->event] = op;
          if (st.device_last == NONE || check->r[op].end > check->r[st.device_last].end)
            st.device_last = op;
          continue;
        }
      switch (sop->kind)
        {
        case SCHED_OP_SYNC_STREAM:
          check_sync_after (check, op, st.tail[sop->stream], "the last op of the stream");
          if (sop->stream == SCHED_STREAM_DEFAULT)
            for (guint s = 1; s < n_streams; s++)
              if (stream_blocking (check, s))
                check_sync_after (check, op, st.tail[s],
                                  "the last op of a blocking stream, which `sync default` includes");
          break;
        case SCHED_OP_SYNC_EVENT:
          if (sop->event != SCHED_NONE)
            check_sync_after (check, op, st.record[sop->event], "the record of the event");
          break;
        case SCHED_OP_SYNC_DEVICE:
          check_sync_after (check, op, st.device_last, "the device op that ended last");
          break;
        default:
          break;
        }
    }

  g_free (st.tail);
  g_free (st.event_floor);
  g_free (st.seen_legacy);
  g_free (st.dirty);
  g_free (st.is_dirty);
  g_free (st.record);
  eng_check_lanes_free (&lanes);
}
