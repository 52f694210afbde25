/* spin.cu: the harness's CUDA kernels (see spin.h). */
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
__global__ void
spin_kernel (unsigned long long block_ns, SpinSlot *slot)
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
