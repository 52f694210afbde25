/* val_device.h: the GPU the harness runs on: opening it, its limits and the names it goes by. */
#ifndef VAL_DEVICE_H
#define VAL_DEVICE_H

#include <glib.h>
#include <cuda_runtime_api.h>
#include "sim/core/schedule.h"

typedef struct
{
  int ordinal;
  char *gpu;          /* "NVIDIA H100 80GB HBM3" */
  char *profile_name; /* "h100": --device, else derived from the GPU name */
  char *driver;       /* "580.159.04" when the kernel module says, else the driver API version */
  char *cuda;         /* runtime version, "13.0" */
  struct cudaDeviceProp prop;
  int priority_least, priority_greatest; /* cudaDeviceGetStreamPriorityRange */
} ValDevice;

/* Sets CUDA_DEVICE_MAX_CONNECTIONS for this process. Must come before the
 * first CUDA call: the value is read once, when the context is created.
 * 0 leaves the environment as it is (the driver's default, 8). */
void val_device_set_connections (guint connections);

/* How the host is to wait for the GPU (cudaSetDeviceFlags'
 * cudaDeviceSchedule*), given to the context val_device_open makes: call
 * it before. SCHED_SCHEDULE_AUTO sets no flag. */
void val_device_set_schedule (SchedDeviceSchedule schedule);

/* The connection count this process will get: the variable if set, else 8. */
guint val_device_connections (void);

/* Opens device 0 and reads its properties. `profile_name` NULL derives the
 * name from the GPU ("NVIDIA H100 80GB HBM3" -> "h100"). Fails with a clear
 * message when there is no GPU or no driver. */
gboolean val_device_open (ValDevice *dev, const char *profile_name, GError **error);
void val_device_clear (ValDevice *dev);

/* The profile name that fits a GPU name: the first word that starts with a
 * letter and holds a digit ("H100", "A100", "L40S"), lower-cased; "gpu" when
 * none does. */
char *val_device_profile_name (const char *gpu);

#endif /* VAL_DEVICE_H */
