/* val_calibrate.h: microbenchmarks that measure a GPU and write its device profile. */
#ifndef VAL_CALIBRATE_H
#define VAL_CALIBRATE_H

#include <glib.h>
#include "val_device.h"
#include "val_probe.h"

/* Measures `dev` and writes the complete profile to `path` (its name is the
 * file's basename without .ini), each key with a comment saying how it was
 * measured; `probes` are val_probe_run_all's results, gathered before this
 * process touched the GPU. Progress goes to stderr. */
gboolean val_calibrate_run (const ValDevice *dev, const ValProbeResults *probes, const char *path,
                            GError **error);

#endif /* VAL_CALIBRATE_H */
