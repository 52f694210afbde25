/* spin.h: the harness's CUDA kernels, callable from C: a spin kernel that holds each block for a set time, and clock probes.
 *
 * Every kernel reads the GPU's global timer (%globaltimer, nanoseconds), the
 * one clock that all SMs share, so times taken by different kernels and
 * blocks compare directly. A spin kernel records its first block's start and
 * its last block's end into a pair of 64-bit slots in device memory
 * (atomicMin / atomicMax), which is exact even when the kernel sat in a queue
 * before it ran: nothing on the host or in the stream is involved. */
#ifndef SPIN_H
#define SPIN_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A slot pair: start is set to the earliest block start (initialise to
 * ~0ULL), end to the latest block end (initialise to 0). */
typedef struct
{
  unsigned long long start;
  unsigned long long end;
} SpinSlot;

/* Launches the spin kernel: `grid` blocks of `block` threads with `smem`
 * bytes of dynamic shared memory; every block spins for `block_ns` from its
 * own start, then the slot (may be NULL) gets the first start and last end. */
cudaError_t spin_launch (unsigned int grid, unsigned int block, size_t smem,
                         cudaStream_t stream, unsigned long long block_ns,
                         SpinSlot *slot);

/* Separate copies of the spin kernel, each loaded at its own first launch
 * under CUDA_MODULE_LOADING=LAZY (the default since CUDA 12.2): a launch of
 * one never launched before in the process loads its code. */
#define SPIN_FRESH_INSTANCES 256
/* Their dynamic shared memory stays within the default per-block limit:
 * raising it would load the kernel before its launch. */
#define SPIN_FRESH_MAX_SMEM (48u * 1024u)

/* spin_launch of copy `index` (0 .. SPIN_FRESH_INSTANCES - 1), with the
 * carveout spin_configure gives the spin kernel; cudaErrorInvalidValue for
 * an index or `smem` out of range. */
cudaError_t spin_launch_fresh (unsigned int index, unsigned int grid, unsigned int block,
                               size_t smem, cudaStream_t stream, unsigned long long block_ns,
                               SpinSlot *slot);

/* Sets `n` slots to {~0, 0}. */
cudaError_t spin_reset_slots (SpinSlot *slots, size_t n, cudaStream_t stream);

/* Allows the spin kernel up to `max_smem` bytes of dynamic shared memory
 * (needed above 48 KiB) and asks for the largest shared-memory carveout for
 * every launch. An SM runs blocks of two kernels side by side only when both
 * want the same L1/shared split; with one carveout for all spin launches,
 * shared memory never keeps kernels apart, which is what the model assumes. */
cudaError_t spin_configure (size_t max_smem);

/* Blocks of the spin kernel one SM holds at once for this shape. */
cudaError_t spin_occupancy (int *blocks_per_sm, unsigned int block, size_t smem);

/* Registers per thread the spin kernel was compiled with. */
cudaError_t spin_registers (int *regs);

/* One thread writes %globaltimer into *out when it starts. */
cudaError_t spin_stamp (unsigned long long *out, cudaStream_t stream);

/* One thread writes %globaltimer into the host-visible *out (mapped pinned
 * memory) over and over until *stop becomes non-zero or `max_ns` pass; the
 * host reads it to relate its own clock to the GPU's. */
cudaError_t spin_ticker (volatile unsigned long long *out, volatile int *stop,
                         unsigned long long max_ns, cudaStream_t stream);

/* One thread samples %globaltimer `samples` times and writes the smallest
 * non-zero step it saw into *out (the timer's resolution). */
cudaError_t spin_resolution (unsigned long long *out, unsigned int samples,
                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* SPIN_H */
