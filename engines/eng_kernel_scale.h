/* eng_kernel_scale.h: a kernel's time on one GPU carried to another, by what bounds it.
 *
 * A recorded or imported kernel's time belongs to the GPU it ran on. To
 * predict the program on another GPU, each such time is scaled by the
 * resource that bounds the kernel, from the two profiles' [kernel] rates:
 *
 *   memory-bound   device memory bandwidth (memory_bandwidth), of which such a
 *                  kernel gains ENG_KERNEL_MEMORY_EFFICIENCY: factor
 *                  1 - E x (1 - bw_from / bw_to)
 *   compute-bound  FP32 throughput (fp32_flops: SMs x clock x lanes)
 *   unknown        as compute-bound: the kernels of the corpus with no telling
 *                  name mostly ran as long on an H200 as on an H100
 *
 * Only the part beyond the first ENG_KERNEL_FIXED_NS scales so: that first
 * part, a launched grid's ramp up and drain, follows the SM clock. So the
 * time on the other GPU is
 *
 *   min (t, F) x clock_from / clock_to + max (0, t - F) x factor
 *
 * The class comes from the kernel's name (its label): names of matrix
 * products and convolutions (gemm, xmma, cutlass, conv, ...) are compute-
 * bound; elementwise, copies, transposes, reductions, normalizations,
 * layout changes are memory-bound (eng_kernel_scale.c lists the words).
 * engines/MODEL.md, "Kernel times on another GPU", gives the measurements. */
#ifndef ENG_KERNEL_SCALE_H
#define ENG_KERNEL_SCALE_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "sim/core/sim_time.h"

/* The part of a kernel's time that follows the clock alone. */
#define ENG_KERNEL_FIXED_NS 1000
/* The share of a bandwidth change a memory-bound kernel's time follows:
 * measured, the 101 kernels so named of 20 programs recorded on an H100 and
 * an H200 ran 0.80 to 1.02 times as long on the H200, where the bandwidth
 * ratio is 0.70; 0.2 is the least weighted error
 * (validate/kernel-ratios.sh h100 h200). */
#define ENG_KERNEL_MEMORY_EFFICIENCY 0.2

typedef enum
{
  ENG_KERNEL_UNKNOWN,
  ENG_KERNEL_COMPUTE,
  ENG_KERNEL_MEMORY,
} EngKernelClass;

/* The class a kernel's name suggests; NULL or no known word: unknown. */
EngKernelClass eng_kernel_bound (const char *name);
const char *eng_kernel_bound_name (EngKernelClass cls);

/* `time` measured on `from`, on `to`; *factor (may be NULL) the factor
 * applied beyond the fixed part. Both profiles must pass
 * gpu_profile_has_rates. */
SimTime eng_kernel_scale (const GpuProfile *from, const GpuProfile *to, EngKernelClass cls,
                          SimTime time, double *factor);

#endif /* ENG_KERNEL_SCALE_H */
