/* record_capture.h: which recorded calls a stream capture took into a graph rather than ran.
 *
 * Between cudaStreamBeginCapture and the matching cudaStreamEndCapture, work
 * issued to a capturing stream is not run: it becomes a node of a graph that
 * runs later, when cudaGraphLaunch launches it (a call the schedule language
 * cannot express yet). A stream captures from its cudaStreamBeginCapture
 * until the capture ends, and so does a stream that waits for an event
 * recorded in a capturing stream during it (CUDA's fork and join). Logs
 * written before the recorder kept the capture's stream (record_log.h) name
 * none: there a stream counts as capturing when a copy or a launch issued to
 * it inside the capture has no CUPTI record (captured work never runs as
 * itself), and whatever follows from that through its records and waits. */
#ifndef RECORD_CAPTURE_H
#define RECORD_CAPTURE_H

#include <glib.h>
#include "record_log.h"

/* What a call is to a capture. */
typedef enum
{
  CAPTURE_ROLE_OTHER,
  CAPTURE_ROLE_WORK,    /* a copy or a launch: CUPTI times it when it runs */
  CAPTURE_ROLE_OTHER_WORK, /* other work on its stream: a memset, a host function, ... */
  CAPTURE_ROLE_RECORD,
  CAPTURE_ROLE_WAIT,
  CAPTURE_ROLE_BEGIN,
  CAPTURE_ROLE_END,
} CaptureRole;

/* Per call of `log`, TRUE when a capture took it. `order` lists the calls in
 * the order they began, `role` and `timed` (whether CUPTI reported GPU work
 * for it) are per call. The result has one entry per call (g_free it). */
gboolean *record_capture_find (const RecordLog *log, const guint *order, const CaptureRole *role,
                               const gboolean *timed);

#endif /* RECORD_CAPTURE_H */
