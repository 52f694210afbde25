/* schedule_device.h: a schedule's per-device kernel shapes (grid=, block=, smem=, regs= lists) chosen for the device predicted. */
#ifndef SCHEDULE_DEVICE_H
#define SCHEDULE_DEVICE_H

#include <glib.h>
#include "schedule.h"

/* Sets grid, block, smem and regs of every kernel that lists them per
 * device to the entries for `names` (the device's name, then the names it
 * inherits from, most specific first, NULL-ended), as time= is chosen
 * (schedule_kernel_time): the earliest name with an entry wins, then the
 * bare entry. Fails with file:line:column when a list has neither. Called
 * once the device is known, before the schedule is simulated or copied;
 * calling it again for another device chooses again. */
gboolean schedule_select_device (Schedule *sched, const char *const *names, GError **error);

#endif /* SCHEDULE_DEVICE_H */
