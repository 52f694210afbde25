/* marker_times.c: records' and waits' times derived from their streams (marker_times.h). */
#include "marker_times.h"

static gboolean
is_blocking (const Schedule *sched, guint s)
{
  return s == SCHED_STREAM_DEFAULT || !schedule_stream (sched, s)->nonblocking;
}

static SimTime
blocking_done (const Schedule *sched, const SimTime *stream_done, guint n_streams)
{
  SimTime done = 0;
  for (guint s = 0; s < n_streams; s++)
    if (is_blocking (sched, s))
      done = MAX (done, stream_done[s]);
  return done;
}

void
marker_times_derive (const Schedule *sched, const SimTime *issue, SimTime *start, SimTime *end)
{
  guint n_streams = schedule_n_streams (sched), n_events = schedule_n_events (sched);
  SimTime *stream_done = g_new0 (SimTime, MAX (n_streams, 1));
  SimTime *record_time = g_new (SimTime, MAX (n_events, 1));
  /* a graph's branch follows its stream's ops in the same launch alone
   * (SchedOp.graph_branch): per stream, that launch and their end */
  g_autofree guint32 *lane_graph = NULL;
  g_autofree SimTime *lane_done = NULL;
  for (guint e = 0; e < n_events; e++)
    record_time[e] = -1;
  /* the order the ops reached their streams (several host threads) */
  g_autofree guint32 *order = schedule_issue_order (sched, issue);
  for (gsize k = 0; k < schedule_n_ops (sched); k++)
    {
      gsize i = order != NULL ? order[k] : k;
      const SchedOp *op = schedule_op (sched, i);
      if (op->stream >= n_streams)
        continue;
      guint s = op->stream;
      SimTime *done = &stream_done[s];
      if (op->graph_branch)
        {
          if (lane_graph == NULL)
            {
              lane_graph = g_new0 (guint32, n_streams);
              lane_done = g_new (SimTime, n_streams);
            }
          if (lane_graph[s] != op->graph)
            {
              lane_graph[s] = op->graph;
              lane_done[s] = 0;
            }
          done = &lane_done[s];
        }
      SimTime before = *done;
      if (op->graph_branch)
        ; /* apart from the legacy stream's order, as its launch is */
      else if (s == SCHED_STREAM_DEFAULT)
        before = MAX (before, blocking_done (sched, stream_done, n_streams));
      else if (is_blocking (sched, s))
        before = MAX (before, stream_done[SCHED_STREAM_DEFAULT]);
      if (op->kind == SCHED_OP_RECORD || op->kind == SCHED_OP_WAIT || op->kind == SCHED_OP_MALLOC
          || op->kind == SCHED_OP_FREE)
        {
          SimTime at = MAX (before, issue[i]);
          if (op->kind == SCHED_OP_WAIT && op->event < n_events)
            at = MAX (at, record_time[op->event]);
          if (end[i] < 0)
            start[i] = end[i] = at;
          if (op->kind == SCHED_OP_RECORD)
            record_time[op->event] = end[i];
        }
      if (end[i] >= 0 && op->kind != SCHED_OP_SYNC_STREAM)
        *done = MAX (*done, end[i]);
    }
  g_free (record_time);
  g_free (stream_done);
}
