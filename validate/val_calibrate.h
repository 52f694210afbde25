/* val_calibrate.h: microbenchmarks that measure a GPU and write its device profile. */
#ifndef VAL_CALIBRATE_H
#define VAL_CALIBRATE_H

#include <glib.h>
#include "val_device.h"

/* Runs the probes that need a CUDA context of their own (connection counts,
 * whether one connection's kernels overlap, the concurrency limit), each as
 * a child process `self --probe NAME` with CUDA_DEVICE_MAX_CONNECTIONS set
 * for it. Must be called before this process makes its first CUDA call, so
 * that no two contexts share the GPU while one is measured. Results are kept
 * for val_calibrate_run. `self` is this program's path. */
gboolean val_calibrate_probes (const char *self, GError **error);

/* Measures everything else on `dev` and writes the complete profile to
 * `path` (its name is the file's basename without .ini), each key with a
 * comment saying how it was measured. Progress goes to stderr. */
gboolean val_calibrate_run (const ValDevice *dev, const char *path, GError **error);

/* `--probe NAME`, in the child: runs one probe and prints "key=value" lines
 * on stdout. Returns the exit status. */
int val_calibrate_probe_main (const char *name);

#endif /* VAL_CALIBRATE_H */
