/* record_hostfn.h: how long a recorded host function ran (`hostfn STREAM TIME`).
 *
 * The recorder sees cudaLaunchHostFunc and cudaStreamAddCallback calls, not
 * the functions' runs on the driver's callback thread. Their time is read
 * from their stream instead: the function begins after its stream reaches
 * it (the work before it has ended, or at its call where the stream was
 * idle), the profile's `hostfn_wake` later (`hostfn_wake_idle` where the
 * stream was idle at the call; where the callback thread was still busy
 * with the function before, `hostfn_next` after that one's end), and its
 * stream goes on `hostfn_resume` after it returns (engines/MODEL.md, "Host
 * functions"). So where the stream's next work (CUPTI-timed) was issued
 * before the function returned, that work's start says when it returned:
 * TIME = next start - hostfn_resume - begin. Otherwise the run is not seen:
 * no later work in its stream (before another host function), or its next
 * work was issued after the function had returned (the host, not the
 * function, held the stream); TIME is then taken as 0, the least it can
 * be. Streams are matched by handle alone (the legacy default stream's
 * ties to the blocking streams are left out). */
#ifndef RECORD_HOSTFN_H
#define RECORD_HOSTFN_H

#include <glib.h>

typedef enum
{
  HOSTFN_ROLE_OTHER,    /* no work of a stream */
  HOSTFN_ROLE_WORK,     /* GPU work (a kernel, copy or memset) */
  HOSTFN_ROLE_HOSTFN,   /* a host function */
} HostfnRole;

typedef struct
{
  HostfnRole role;
  guint64 stream;       /* its stream's handle */
  guint64 enter, exit;  /* the call, CUPTI's clock */
  gboolean timed;       /* WORK: CUPTI timed it */
  guint64 start, end;   /* WORK: on the GPU */
} HostfnCall;

/* The profile's costs (gpu_profile.h), ns; all 0 without a profile. */
typedef struct
{
  guint64 wake, wake_idle, next, resume;
} HostfnCosts;

typedef enum
{
  HOSTFN_ESTIMATED,     /* from its stream's next work */
  HOSTFN_UNSEEN,        /* no later work in its stream: TIME 0 */
  HOSTFN_ISSUED_LATE,   /* the next work was issued after it returned: TIME 0 */
} HostfnHow;

typedef struct
{
  HostfnHow how;
  guint64 time;         /* the function's own run, ns */
  gboolean idle;        /* its stream was idle at the call */
  guint64 ready;        /* its stream reached it (CUPTI's clock) */
  guint64 begin, end;   /* its run by the estimate; where unseen, the earliest it could
                           have run, for TIME 0 (the measured timeline's row) */
  guint64 next_start;   /* ESTIMATED, ISSUED_LATE: its stream's next work's start */
} HostfnTime;

/* The `n` calls in the order they began; one result per call, meaningful
 * for host functions (g_free it). */
HostfnTime *record_hostfn_find (const HostfnCall *calls, guint n, const HostfnCosts *costs);

#endif /* RECORD_HOSTFN_H */
