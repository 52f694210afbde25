/* kernel_times.h: each kernel's time on the device predicted: as the schedule gives it, or carried from the GPU it was measured on.
 *
 * A kernel's `time=` list names the devices its times belong to
 * (`time=h100:20.4us`). Predicting on a device the list does not name, and
 * without a bare time (one for every device), the time of the first listed
 * device whose profile loads and has the rates (sm_clock,
 * memory_bandwidth, fp32_flops) is scaled to the device predicted, by what
 * bounds the kernel (engines/eng_kernel_scale.h). A bare time is used as
 * it is: it says the time is the same everywhere. */
#ifndef KERNEL_TIMES_H
#define KERNEL_TIMES_H

#include <glib.h>
#include "engines/eng_kernel_scale.h"
#include "sim/core/schedule.h"

/* One kernel whose time was carried from another GPU. */
typedef struct
{
  guint32 op;
  const char *from;   /* the device it was measured on (the schedule's name) */
  SimTime measured;   /* its time there */
  SimTime time;       /* on the device predicted */
  EngKernelClass cls;
  double factor;      /* applied beyond the fixed part */
} KernelTimeCarried;

/* Adds to `sched` a time for `profile`'s device to every kernel that needs
 * one and can get one so; returns those kernels (KernelTimeCarried, in op
 * order). A kernel left without a time keeps the model's error for it. */
GArray *kernel_times_carry (Schedule *sched, const GpuProfile *profile);

/* One line for a prediction's notes: how many kernels were carried, from
 * which devices, by which factors; NULL when none was. */
char *kernel_times_note (const GArray *carried, const GpuProfile *profile);

#endif /* KERNEL_TIMES_H */
