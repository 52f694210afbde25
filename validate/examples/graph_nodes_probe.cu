// graph_nodes_probe.cu: how the nodes of a CUDA graph follow one another
// when they are not all kernels: a measurement program of its own, to run
// under the recorder (`streamsim-validate --record`), whose CUPTI records
// give each node's start and end on the GPU.
//
// Five chains, each captured from one stream into a graph, instantiated once
// and launched 3 times untimed and then 30 times, each launch followed by a
// cudaStreamSynchronize:
//   pageable-8B    memset 8 B, a kernel of 5 us (one block of 32 threads; GRAPH_NODES_BLOCKS
//                  and GRAPH_NODES_THREADS set another shape), D2H 8 B into pageable memory
//   pinned-8B      the same, the D2H into pinned memory
//   pageable-1MiB  the same with a D2H of 1 MiB into pageable memory
//   pinned-1MiB    the same into pinned memory
//   h2d            H2D 8 B from pinned memory, the kernel, D2H 8 B into pinned memory
// The same chains are then made 30 times one call at a time (no graph), for
// comparison. Prints, per chain and mode, the launch call's median time on
// the host:
//   chain NAME graph|direct calls_us
// The node times are the recording's (validate/graph-nodes-table.sh reads
// them from its timeline).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum { WARMUP = 3, TRIALS = 30, MiB = 1 << 20, SPIN_NS = 5000 };

__global__ void
spin_kernel (unsigned long long spin_ns)
{
  spin_for (spin_ns);
}

struct Buffers
{
  char *device;
  char *pinned;
  char *pageable;
};

// The kernel's shape: one block of 32 threads, or as GRAPH_NODES_BLOCKS
// and GRAPH_NODES_THREADS say (a kernel over many SMs ends as its last block
// does, which may change when the node after it starts).
struct Shape
{
  unsigned blocks = 1, threads = 32;
};
static Shape shape;

// One chain's calls into `s`.
static void
issue (const char *name, cudaStream_t s, const Buffers &b)
{
  bool h2d = std::strcmp (name, "h2d") == 0;
  bool big = std::strstr (name, "1MiB") != nullptr;
  bool pageable = std::strncmp (name, "pageable", 8) == 0;
  size_t bytes = big ? MiB : 8;
  if (h2d)
    CHECK (cudaMemcpyAsync (b.device, b.pinned, 8, cudaMemcpyHostToDevice, s));
  else
    CHECK (cudaMemsetAsync (b.device, 0, 8, s));
  spin_kernel<<<shape.blocks, shape.threads, 0, s>>> (SPIN_NS);
  CHECK (cudaGetLastError ());
  CHECK (cudaMemcpyAsync (pageable ? b.pageable : b.pinned, b.device, bytes,
                          cudaMemcpyDeviceToHost, s));
}

int
main ()
{
  if (const char *v = std::getenv ("GRAPH_NODES_BLOCKS"))
    shape.blocks = (unsigned) std::strtoul (v, nullptr, 10);
  if (const char *v = std::getenv ("GRAPH_NODES_THREADS"))
    shape.threads = (unsigned) std::strtoul (v, nullptr, 10);
  if (shape.blocks == 0 || shape.threads == 0 || shape.threads > 1024)
    {
      std::fprintf (stderr, "GRAPH_NODES_BLOCKS and GRAPH_NODES_THREADS: 1 or more, threads at most 1024\n");
      return 2;
    }
  static const char *chains[] = { "pageable-8B", "pinned-8B", "pageable-1MiB", "pinned-1MiB", "h2d" };
  Buffers b;
  CHECK (cudaMalloc (&b.device, MiB));
  CHECK (cudaMallocHost (&b.pinned, MiB));
  b.pageable = static_cast<char *> (std::malloc (MiB));
  std::memset (b.pageable, 1, MiB); // resident: not an untouched copy
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  for (const char *name : chains)
    {
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeGlobal));
      issue (name, s, b);
      CHECK (cudaStreamEndCapture (s, &graph));
      CHECK (cudaGraphInstantiate (&exec, graph, 0));
      std::vector<double> calls;
      for (int i = 0; i < WARMUP + TRIALS; i++)
        {
          double t0 = now_us ();
          CHECK (cudaGraphLaunch (exec, s));
          if (i >= WARMUP)
            calls.push_back (now_us () - t0);
          CHECK (cudaStreamSynchronize (s));
        }
      std::printf ("chain %s graph %.2f\n", name, median (calls));
      CHECK (cudaGraphExecDestroy (exec));
      CHECK (cudaGraphDestroy (graph));
      calls.clear ();
      for (int i = 0; i < WARMUP + TRIALS; i++)
        {
          double t0 = now_us ();
          issue (name, s, b);
          if (i >= WARMUP)
            calls.push_back (now_us () - t0);
          CHECK (cudaStreamSynchronize (s));
        }
      std::printf ("chain %s direct %.2f\n", name, median (calls));
      std::fflush (stdout);
    }
  std::free (b.pageable);
  return 0;
}
