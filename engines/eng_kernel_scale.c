/* eng_kernel_scale.c: kernel times carried between GPUs (eng_kernel_scale.h). */
#include "eng_kernel_scale.h"

#include <math.h>
#include <string.h>

/* Words of kernel names, compared without case. Compute first: "gemm" in
 * "splitKreduce" kernels of cuBLASLt does not occur, but a convolution's
 * "implicit_gemm" must not read as a memory kernel for "implicit". */
static const char *const compute_words[] = {
  "gemm", "xmma", "cutlass", "wgmma", "conv", "fprop", "dgrad", "wgrad", "matmul", "matrixmul",
  "tensorop", "hmma", "sgemm", "dot_product", NULL,
};

static const char *const memory_words[] = {
  "elementwise", "elemwise", "element_wise", "copy", "cpy", "transpose", "reduce", "reduction",
  "softmax", "norm", "bn_", "gather", "scatter", "foreach", "nchwtonhwc", "nhwctonchw",
  "tensortransform", "dropout", "vectoradd", "fill", "memset", "loss", "topk", "cat",
  "index", "embedding", "pool", "fft", "scale", "add", "multiply", "multi_tensor", NULL,
};

static gboolean
has_word (const char *lower, const char *const *words)
{
  for (const char *const *w = words; *w != NULL; w++)
    if (strstr (lower, *w) != NULL)
      return TRUE;
  return FALSE;
}

EngKernelClass
eng_kernel_bound (const char *name)
{
  if (name == NULL)
    return ENG_KERNEL_UNKNOWN;
  g_autofree char *lower = g_ascii_strdown (name, -1);
  if (has_word (lower, compute_words))
    return ENG_KERNEL_COMPUTE;
  if (has_word (lower, memory_words))
    return ENG_KERNEL_MEMORY;
  return ENG_KERNEL_UNKNOWN;
}

const char *
eng_kernel_bound_name (EngKernelClass cls)
{
  switch (cls)
    {
    case ENG_KERNEL_COMPUTE:
      return "compute-bound";
    case ENG_KERNEL_MEMORY:
      return "memory-bound";
    case ENG_KERNEL_UNKNOWN:
      break;
    }
  return "of unknown bound";
}

SimTime
eng_kernel_scale (const GpuProfile *from, const GpuProfile *to, EngKernelClass cls,
                  SimTime time, double *factor)
{
  g_return_val_if_fail (gpu_profile_has_rates (from, NULL) && gpu_profile_has_rates (to, NULL),
                        time);
  double compute = from->fp32_flops / to->fp32_flops;
  double memory = 1 - ENG_KERNEL_MEMORY_EFFICIENCY
                       * (1 - from->memory_bandwidth / to->memory_bandwidth);
  double f = cls == ENG_KERNEL_MEMORY ? memory : compute;
  if (factor != NULL)
    *factor = f;
  double fixed = (double) MIN (time, (SimTime) ENG_KERNEL_FIXED_NS);
  double rest = (double) MAX ((SimTime) 0, time - (SimTime) ENG_KERNEL_FIXED_NS);
  return (SimTime) llround (fixed * from->sm_clock / to->sm_clock + rest * f);
}
