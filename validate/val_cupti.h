/* val_cupti.h: copy and memset start and end times from CUPTI's activity records, with nothing added to the streams.
 *
 * Timing events around copies are stream operations of their own: each
 * costs the host about a microsecond and a half to record, and with few
 * connections an event waiting for its copy sits in a hardware queue and
 * holds back other streams' work (measured: a seed schedule on one
 * connection ran twice as long with events as without). CUPTI's activity
 * API instead has the driver timestamp each copy itself. libcupti is loaded
 * at run time (dlopen), so the harness builds and runs without it and then
 * falls back to events; it is looked for beside the executable first, then
 * in $STREAMSIM_CUPTI, then on the loader's path and in the CUDA toolkit. */
#ifndef VAL_CUPTI_H
#define VAL_CUPTI_H

#include <glib.h>
#include <cuda_runtime_api.h>
#include "sim/core/sim_time.h"

typedef struct
{
  guint32 stream_id; /* CUPTI's id of the stream (val_cupti_stream_id) */
  SimTime start;     /* host clock */
  SimTime end;
  guint64 bytes;
  gboolean memset;   /* a memset record (cudaMemsetAsync), not a copy's */
} ValCuptiCopy;

typedef struct ValCupti ValCupti;

/* Loads libcupti and starts recording memcpy and memset activity. NULL (and an error
 * saying why) when CUPTI is not available. Call after the CUDA context
 * exists. */
ValCupti *val_cupti_open (GError **error);
void val_cupti_free (ValCupti *cupti);

/* Which library was loaded (for the CSV's metadata). */
const char *val_cupti_library (const ValCupti *cupti);

/* CUPTI's id for a stream of the current context; cudaStreamLegacy for the
 * legacy default stream. */
gboolean val_cupti_stream_id (ValCupti *cupti, cudaStream_t stream, guint32 *id,
                              GError **error);

/* Starts collecting (records so far are dropped) and ties CUPTI's clock to
 * the host clock. */
gboolean val_cupti_begin (ValCupti *cupti, GError **error);
/* Stops collecting; the device must be idle. The copies seen since begin,
 * and memsets seen since begin, sorted by stream and start time. */
gboolean val_cupti_end (ValCupti *cupti, GError **error);
/* Stops recording for good (before runs that must not be traced). */
gboolean val_cupti_stop (ValCupti *cupti, GError **error);
gsize val_cupti_n_copies (const ValCupti *cupti);
const ValCuptiCopy *val_cupti_copy (const ValCupti *cupti, gsize index);

#endif /* VAL_CUPTI_H */
