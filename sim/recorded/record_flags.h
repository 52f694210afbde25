/* record_flags.h: how the recorded program had its host threads wait for the GPU: the context's scheduling flags and the events made with cudaEventBlockingSync.
 *
 * Under cudaDeviceScheduleBlockingSync a thread that waits for the GPU
 * sleeps and wakes tens of microseconds after the GPU is done; so does one
 * that synchronizes with an event made with cudaEventBlockingSync
 * (engines/MODEL.md, "How the host waits"). The log keeps the flags of each
 * cudaSetDeviceFlags call and each cudaEventCreateWithFlags (its event
 * handle too), and, in the logs that have them, of the driver API's cuCtxCreate,
 * cuDevicePrimaryCtxSetFlags, cuCtxSetFlags and cuEventCreate made outside
 * a runtime call (as OpenMP offloading and video codecs' programs make
 * them); the schedule says them with `device_schedule` and `event NAME
 * blocking_sync`. A program of several contexts has one schedule here: the
 * last one set. */
#ifndef RECORD_FLAGS_H
#define RECORD_FLAGS_H

#include <glib.h>
#include "record_log.h"
#include "sim/core/schedule.h"

/* The schedule of the log's last call that set one (the one the context
 * kept, where several were made), and that call's function in *set_by
 * (NULL where none); SCHED_SCHEDULE_AUTO where none. */
SchedDeviceSchedule record_device_schedule (const RecordLog *log, const char **set_by);

/* The event handles (guint64 keys, owned) that were made with
 * cudaEventBlockingSync each time a cudaEventCreateWithFlags or cuEventCreate
 * made them (a handle given again to an event made without the flag is not
 * one). */
GHashTable *record_blocking_events (const RecordLog *log);

#endif /* RECORD_FLAGS_H */
