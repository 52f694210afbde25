/* spin.cu: the harness's CUDA kernels (see spin.h). */
#include <utility>
#include <cuda_runtime.h>
#include "spin.h"

static __device__ __forceinline__ unsigned long long
global_ns (void)
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Every thread spins, not only thread 0: a block holds its warp slots only
 * while its warps run, and the point is to hold exactly the slots the
 * schedule's kernel would. The dynamic shared memory is requested at launch
 * and held by the block whether it is touched or not. Each thread times
 * itself rather than sharing thread 0's start through shared memory, so the
 * kernel uses no static shared memory and its occupancy is what the profile's
 * limits say. */
static __device__ __forceinline__ void
spin_body (unsigned long long block_ns, SpinSlot *slot)
{
  unsigned long long t0 = global_ns ();
  if (threadIdx.x == 0 && slot != NULL)
    atomicMin (&slot->start, t0);
  unsigned long long until = t0 + block_ns;
  while (global_ns () < until)
    ;
  __syncthreads ();
  if (threadIdx.x == 0 && slot != NULL)
    atomicMax (&slot->end, global_ns ());
}

__global__ void
spin_kernel (unsigned long long block_ns, SpinSlot *slot)
{
  spin_body (block_ns, slot);
}

/* The same spin as separate kernels, one per N: with lazy module loading
 * each is loaded at its own first launch (validate/examples/lazy_loading.cu
 * measured that a kernel is loaded alone, not with its module). */
template <int N>
__global__ void
spin_fresh_kernel (unsigned long long block_ns, SpinSlot *slot)
{
  spin_body (block_ns, slot);
}

/* Host stubs of spin_fresh_kernel<0> .. <SPIN_FRESH_INSTANCES - 1>. Taking a
 * stub's address loads nothing. */
template <int... N>
static const void *const *
fresh_table (std::integer_sequence<int, N...>)
{
  static const void *const table[] = { reinterpret_cast<const void *> (&spin_fresh_kernel<N>)... };
  return table;
}

static const void *const *
fresh_kernels (void)
{
  return fresh_table (std::make_integer_sequence<int, SPIN_FRESH_INSTANCES> ());
}

__global__ void
reset_kernel (SpinSlot *slots, size_t n)
{
  size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  if (i < n)
    {
      slots[i].start = ~0ULL;
      slots[i].end = 0;
    }
}

__global__ void
stamp_kernel (unsigned long long *out)
{
  *out = global_ns ();
}

__global__ void
ticker_kernel (volatile unsigned long long *out, volatile int *stop,
               unsigned long long max_ns)
{
  unsigned long long t0 = global_ns (), t = t0;
  while (*stop == 0 && t - t0 < max_ns)
    {
      t = global_ns ();
      *out = t;
      __threadfence_system ();
    }
}

__global__ void
resolution_kernel (unsigned long long *out, unsigned int samples)
{
  unsigned long long best = ~0ULL, last = global_ns ();
  for (unsigned int i = 0; i < samples; i++)
    {
      unsigned long long t = global_ns ();
      if (t != last && t - last < best)
        best = t - last;
      last = t;
    }
  *out = best;
}

extern "C" cudaError_t
spin_launch (unsigned int grid, unsigned int block, size_t smem, cudaStream_t stream,
             unsigned long long block_ns, SpinSlot *slot)
{
  spin_kernel<<<grid, block, smem, stream>>> (block_ns, slot);
  return cudaGetLastError ();
}

/* Neither the shared-memory limit nor the carveout can be set on the
 * function beforehand (cudaFuncSetAttribute would load it): the carveout
 * goes with the launch, the same as spin_configure gives spin_kernel, and
 * the shared memory stays within the default limit. */
extern "C" cudaError_t
spin_launch_fresh (unsigned int index, unsigned int grid, unsigned int block, size_t smem,
                   cudaStream_t stream, unsigned long long block_ns, SpinSlot *slot)
{
  if (index >= SPIN_FRESH_INSTANCES || smem > SPIN_FRESH_MAX_SMEM)
    return cudaErrorInvalidValue;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePreferredSharedMemoryCarveout;
  attr[0].val.sharedMemCarveout = (unsigned int) cudaSharedmemCarveoutMaxShared;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3 (grid);
  config.blockDim = dim3 (block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = attr;
  config.numAttrs = 1;
  void *args[] = { &block_ns, &slot };
  return cudaLaunchKernelExC (&config, fresh_kernels ()[index], args);
}

extern "C" cudaError_t
spin_reset_slots (SpinSlot *slots, size_t n, cudaStream_t stream)
{
  if (n == 0)
    return cudaSuccess;
  unsigned int threads = 256;
  unsigned int blocks = (unsigned int) ((n + threads - 1) / threads);
  reset_kernel<<<blocks, threads, 0, stream>>> (slots, n);
  return cudaGetLastError ();
}

extern "C" cudaError_t
spin_configure (size_t max_smem)
{
  cudaError_t rc = cudaFuncSetAttribute (spin_kernel,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int) max_smem);
  if (rc != cudaSuccess)
    return rc;
  return cudaFuncSetAttribute (spin_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               (int) cudaSharedmemCarveoutMaxShared);
}

extern "C" cudaError_t
spin_occupancy (int *blocks_per_sm, unsigned int block, size_t smem)
{
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor (blocks_per_sm, spin_kernel,
                                                        (int) block, smem);
}

extern "C" cudaError_t
spin_registers (int *regs)
{
  cudaFuncAttributes attr;
  cudaError_t rc = cudaFuncGetAttributes (&attr, spin_kernel);
  if (rc == cudaSuccess)
    *regs = attr.numRegs;
  return rc;
}

extern "C" cudaError_t
spin_stamp (unsigned long long *out, cudaStream_t stream)
{
  stamp_kernel<<<1, 1, 0, stream>>> (out);
  return cudaGetLastError ();
}

extern "C" cudaError_t
spin_ticker (volatile unsigned long long *out, volatile int *stop,
             unsigned long long max_ns, cudaStream_t stream)
{
  ticker_kernel<<<1, 1, 0, stream>>> (out, stop, max_ns);
  return cudaGetLastError ();
}

extern "C" cudaError_t
spin_resolution (unsigned long long *out, unsigned int samples, cudaStream_t stream)
{
  resolution_kernel<<<1, 1, 0, stream>>> (out, samples);
  return cudaGetLastError ();
}
