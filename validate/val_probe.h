/* val_probe.h: the calibration's probes that need a CUDA context of their own, each run as a child process.
 *
 * How streams map onto connections, whether one connection's kernels share
 * the SMs, and how many kernels run at once depend on
 * CUDA_DEVICE_MAX_CONNECTIONS, which the driver reads once per context. So
 * each probe runs as `self --probe NAME` with the variable set for it, and
 * prints "key=value" lines that the parent reads. */
#ifndef VAL_PROBE_H
#define VAL_PROBE_H

#include <glib.h>

/* What the probes found; the calibration turns it into [queues] and
 * [kernel] keys and their comments. */
typedef struct
{
  /* the smallest stream index held back behind stream 0 (the connection
   * count under round-robin), with the variable unset, 4 and 32; 0 when no
   * stream was held back or the probe failed */
  guint default_connections, connections4, connections32;
  gboolean rr_default, rr4, rr32; /* exactly the multiples were held back */
  char *delayed_default, *delayed4, *delayed32; /* which streams, busy connections */
  char *cold_default, *cold4, *cold32;          /* which streams, idle connections */
  gboolean default_measured; /* the probe with the variable unset ran */
  gboolean assign_on_submit; /* that probe's calib_fit_assign_on_submit */
  /* how much two half-SM kernels overlapped on one connection and on two;
   * -1 when not measured */
  double overlap_one_connection, overlap_two_connections;
  guint max_concurrent; /* kernels at once; 0 when not measured */
  /* with CUDA_DEVICE_MAX_CONNECTIONS unset, the first stream whose D2H was
   * held back behind stream 0's (the copy queues' count); 0 when none was */
  guint default_copy_connections;
  guint64 shared_copy_min; /* the least D2H size that showed it; 0 when none */
  gboolean copy_measured; /* that probe ran */
} ValProbeResults;

/* Runs every probe as a child process of `self` (this program's path).
 * Must be called before this process makes its first CUDA call, so that no
 * two contexts share the GPU while one is measured. A probe that fails (a
 * driver that refuses 32 connections, say) costs its own numbers only: it
 * says so on stderr and in its texts ("NOT MEASURED (why)"). */
void val_probe_run_all (const char *self, ValProbeResults *results);
void val_probe_results_clear (ValProbeResults *results);

/* `--probe NAME`, in the child: runs one probe and prints "key=value" lines
 * on stdout. Returns the exit status. */
int val_probe_main (const char *name);

#endif /* VAL_PROBE_H */
