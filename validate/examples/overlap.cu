// overlap.cu: a small CUDA program to record with `streamsim-validate --record`.
//
// The seed experiment's two issue orders (shared/seeds/001): an array is
// copied to the GPU, scaled and copied back in four chunks, one stream per
// chunk, first depth-first (each stream's copy, kernel and copy in turn),
// then breadth-first (all copies in, all kernels, all copies out). Then a
// pageable copy, an event that makes one stream wait for another, a memset
// (which the schedule language cannot express) and a free that waits for
// the device. Nothing here knows about streamsim: it is what a user's
// program looks like.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      std::fprintf (stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString (e_)); \
      std::exit (1);                                                             \
    }                                                                            \
  } while (0)

// Enough arithmetic per element that the kernel takes about as long as a
// chunk's copy on a current GPU.
__global__ void scale (float *a, int n, int rounds)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = a[i];
  for (int r = 0; r < rounds; r++)
    x = x * 0.999f + 0.001f;
  a[i] = x;
}

int main ()
{
  const int streams = 4;
  const int n = 16 << 20;                // floats in all: 64 MiB
  const int chunk = n / streams;
  const size_t chunk_bytes = chunk * sizeof (float);
  float *host, *dev, *pageable = (float *) std::malloc (chunk_bytes);
  CHECK (cudaMallocHost (&host, n * sizeof (float)));
  CHECK (cudaMalloc (&dev, n * sizeof (float)));
  for (int i = 0; i < n; i++)
    host[i] = (float) i;
  cudaStream_t s[streams];
  for (int i = 0; i < streams; i++)
    CHECK (cudaStreamCreate (&s[i]));
  const int block = 256, grid = (chunk + block - 1) / block, rounds = 2000;

  // depth first
  for (int i = 0; i < streams; i++)
    {
      CHECK (cudaMemcpyAsync (dev + i * chunk, host + i * chunk, chunk_bytes, cudaMemcpyHostToDevice, s[i]));
      scale<<<grid, block, 0, s[i]>>> (dev + i * chunk, chunk, rounds);
      CHECK (cudaMemcpyAsync (host + i * chunk, dev + i * chunk, chunk_bytes, cudaMemcpyDeviceToHost, s[i]));
    }
  CHECK (cudaDeviceSynchronize ());

  // breadth first
  for (int i = 0; i < streams; i++)
    CHECK (cudaMemcpyAsync (dev + i * chunk, host + i * chunk, chunk_bytes, cudaMemcpyHostToDevice, s[i]));
  for (int i = 0; i < streams; i++)
    scale<<<grid, block, 0, s[i]>>> (dev + i * chunk, chunk, rounds);
  for (int i = 0; i < streams; i++)
    CHECK (cudaMemcpyAsync (host + i * chunk, dev + i * chunk, chunk_bytes, cudaMemcpyDeviceToHost, s[i]));
  CHECK (cudaDeviceSynchronize ());

  // a pageable copy, an event, a memset and a free
  cudaEvent_t done;
  CHECK (cudaEventCreateWithFlags (&done, cudaEventDisableTiming));
  CHECK (cudaMemcpyAsync (dev, pageable, chunk_bytes, cudaMemcpyHostToDevice, s[0]));
  scale<<<grid, block, 0, s[0]>>> (dev, chunk, rounds);
  CHECK (cudaEventRecord (done, s[0]));
  CHECK (cudaStreamWaitEvent (s[1], done, 0));
  CHECK (cudaMemcpyAsync (host, dev, chunk_bytes, cudaMemcpyDeviceToHost, s[1]));
  CHECK (cudaMemsetAsync (dev + chunk, 0, chunk_bytes, s[2]));
  CHECK (cudaStreamSynchronize (s[1]));
  CHECK (cudaFree (dev));

  std::printf ("overlap: host[1] = %f\n", host[1]);
  for (int i = 0; i < streams; i++)
    CHECK (cudaStreamDestroy (s[i]));
  CHECK (cudaEventDestroy (done));
  CHECK (cudaFreeHost (host));
  std::free (pageable);
  return 0;
}
