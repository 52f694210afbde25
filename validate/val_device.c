/* val_device.c: opening the GPU and describing it (see val_device.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "val_device.h"
#include "val_cuda.h"

#define DEFAULT_CONNECTIONS 8

static unsigned schedule_flags;

void
val_device_set_schedule (SchedDeviceSchedule schedule)
{
  static const unsigned flags[] = {
    [SCHED_SCHEDULE_AUTO] = 0,
    [SCHED_SCHEDULE_SPIN] = cudaDeviceScheduleSpin,
    [SCHED_SCHEDULE_YIELD] = cudaDeviceScheduleYield,
    [SCHED_SCHEDULE_BLOCKING_SYNC] = cudaDeviceScheduleBlockingSync,
  };
  schedule_flags = flags[schedule];
}

void
val_device_set_connections (guint connections)
{
  if (connections == 0)
    return;
  char value[16];
  g_snprintf (value, sizeof value, "%u", connections);
  g_setenv ("CUDA_DEVICE_MAX_CONNECTIONS", value, TRUE);
}

guint
val_device_connections (void)
{
  const char *env = g_getenv ("CUDA_DEVICE_MAX_CONNECTIONS");
  guint64 n = env != NULL ? g_ascii_strtoull (env, NULL, 10) : 0;
  return n >= 1 && n <= 32 ? (guint) n : DEFAULT_CONNECTIONS;
}

char *
val_device_profile_name (const char *gpu)
{
  char **words = g_strsplit_set (gpu, " -_", -1);
  char *name = NULL;
  for (char **w = words; *w != NULL && name == NULL; w++)
    if (g_ascii_isalpha (**w) && strpbrk (*w, "0123456789") != NULL)
      name = g_ascii_strdown (*w, -1);
  g_strfreev (words);
  return name != NULL ? name : g_strdup ("gpu");
}

/* The driver's release ("580.159.04") is not in the runtime API; the kernel
 * module prints it in /proc. */
static char *
driver_release (void)
{
  char *text = NULL;
  if (!g_file_get_contents ("/proc/driver/nvidia/version", &text, NULL, NULL))
    return NULL;
  char *release = NULL;
  char **words = g_strsplit_set (text, " \t\n", -1);
  for (char **w = words; *w != NULL && release == NULL; w++)
    if (g_ascii_isdigit (**w) && strchr (*w, '.') != NULL && strlen (*w) >= 6)
      release = g_strdup (*w);
  g_strfreev (words);
  g_free (text);
  return release;
}

gboolean
val_device_open (ValDevice *dev, const char *profile_name, GError **error)
{
  memset (dev, 0, sizeof *dev);
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount (&count);
  if (rc != cudaSuccess || count == 0)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                   "no CUDA GPU is usable here (%s): the harness needs an NVIDIA GPU and its driver",
                   rc != cudaSuccess ? cudaGetErrorString (rc) : "no device found");
      return FALSE;
    }
  /* before the context exists, which takes the flags it is made with */
  if (schedule_flags != 0 && !VAL_CUDA (cudaSetDeviceFlags (schedule_flags), error))
    return FALSE;
  if (!VAL_CUDA (cudaSetDevice (0), error)
      || !VAL_CUDA (cudaGetDeviceProperties (&dev->prop, 0), error)
      || !VAL_CUDA (cudaDeviceGetStreamPriorityRange (&dev->priority_least,
                                                      &dev->priority_greatest), error))
    return FALSE;
  /* Create the context now, so that its cost stays out of every timing. */
  if (!VAL_CUDA (cudaFree (NULL), error))
    return FALSE;

  int runtime = 0, driver_api = 0;
  if (!VAL_CUDA (cudaRuntimeGetVersion (&runtime), error)
      || !VAL_CUDA (cudaDriverGetVersion (&driver_api), error))
    return FALSE;

  dev->gpu = g_strdup (dev->prop.name);
  dev->profile_name = profile_name != NULL ? g_strdup (profile_name)
                                           : val_device_profile_name (dev->gpu);
  dev->cuda = g_strdup_printf ("%d.%d", runtime / 1000, runtime % 1000 / 10);
  char *release = driver_release ();
  dev->driver = release != NULL
                  ? g_strdup_printf ("%s (CUDA %d.%d)", release, driver_api / 1000,
                                     driver_api % 1000 / 10)
                  : g_strdup_printf ("CUDA %d.%d", driver_api / 1000, driver_api % 1000 / 10);
  g_free (release);
  return TRUE;
}

void
val_device_clear (ValDevice *dev)
{
  g_free (dev->gpu);
  g_free (dev->profile_name);
  g_free (dev->driver);
  g_free (dev->cuda);
  memset (dev, 0, sizeof *dev);
}
