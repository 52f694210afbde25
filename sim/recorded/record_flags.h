/* record_flags.h: how the recorded program had its host threads wait for the GPU: cudaSetDeviceFlags' schedule and the events made with cudaEventBlockingSync.
 *
 * Under cudaDeviceScheduleBlockingSync a thread that waits for the GPU
 * sleeps and wakes tens of microseconds after the GPU is done; so does one
 * that synchronizes with an event made with cudaEventBlockingSync
 * (engines/MODEL.md, "How the host waits"). The log keeps the flags of each
 * cudaSetDeviceFlags call and each cudaEventCreateWithFlags (its event
 * handle too); the schedule says them with `device_schedule` and `event
 * NAME blocking_sync`. The driver API's own (cuCtxCreate's flags,
 * cuEventCreate's) are not logged. */
#ifndef RECORD_FLAGS_H
#define RECORD_FLAGS_H

#include <glib.h>
#include "record_log.h"
#include "sim/core/schedule.h"

/* The schedule of the log's last cudaSetDeviceFlags call (the one the
 * context kept, where several were made); SCHED_SCHEDULE_AUTO where none. */
SchedDeviceSchedule record_device_schedule (const RecordLog *log);

/* The event handles (guint64 keys, owned) that were made with
 * cudaEventBlockingSync each time a cudaEventCreateWithFlags made them (a
 * handle that the runtime gave again to an event made without the flag is
 * not one). */
GHashTable *record_blocking_events (const RecordLog *log);

#endif /* RECORD_FLAGS_H */
