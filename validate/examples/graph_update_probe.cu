// graph_update_probe.cu: whether how a graph was made, or a kernel node's
// parameters set again before each launch, changes how its nodes follow one
// another: a measurement program of its own, to run under the recorder
// (`streamsim-validate --record`), whose CUPTI records give each node's start
// and end on the GPU.
//
// The graph is jacobiCudaGraphs' (NVIDIA cuda-samples): a memset of 8 B, a
// kernel, a D2H of 8 B into pageable memory, in that order. The kernel is the
// harness's kind of spin kernel, 5 us, in 66 blocks of 256 threads (the
// sample's shape). Four modes, each launched 3 times untimed and then 30
// times, a cudaStreamSynchronize after each launch:
//   captured      captured from one stream (cudaStreamBeginCapture)
//   captured-set  the same, with cudaGraphExecKernelNodeSetParams before each
//                 launch (same parameters)
//   built         made node by node (cudaGraphAddMemsetNode, AddKernelNode,
//                 AddMemcpyNode with cudaMemcpy3DParms), as the sample does
//   built-set     built, with the parameters set before each launch, as the
//                 sample does
// Prints, per mode, the launch call's median time on the host:
//   mode NAME calls_us
// The node times are the recording's (validate/graph-update-table.sh reads
// them from its timeline).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "gpu_time.h"
#include "host_time.h"

enum { WARMUP = 3, TRIALS = 30, BLOCKS = 66, THREADS = 256, SPIN_NS = 5000 };

__global__ void
spin_kernel (unsigned long long spin_ns)
{
  spin_for (spin_ns);
}

static unsigned long long spin_ns = SPIN_NS;

static cudaGraph_t
captured (cudaStream_t s, char *device, char *pageable)
{
  cudaGraph_t graph;
  CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeGlobal));
  CHECK (cudaMemsetAsync (device, 0, 8, s));
  spin_kernel<<<BLOCKS, THREADS, 0, s>>> (spin_ns);
  CHECK (cudaGetLastError ());
  CHECK (cudaMemcpyAsync (pageable, device, 8, cudaMemcpyDeviceToHost, s));
  CHECK (cudaStreamEndCapture (s, &graph));
  return graph;
}

static cudaGraph_t
built (char *device, char *pageable)
{
  cudaGraph_t graph;
  CHECK (cudaGraphCreate (&graph, 0));
  cudaMemsetParams ms = {};
  ms.dst = device;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = 2;
  ms.height = 1;
  cudaGraphNode_t memset_node, kernel_node, copy_node;
  CHECK (cudaGraphAddMemsetNode (&memset_node, graph, nullptr, 0, &ms));
  void *args[] = { &spin_ns };
  cudaKernelNodeParams kp = {};
  kp.func = (void *) spin_kernel;
  kp.gridDim = dim3 (BLOCKS);
  kp.blockDim = dim3 (THREADS);
  kp.kernelParams = args;
  CHECK (cudaGraphAddKernelNode (&kernel_node, graph, &memset_node, 1, &kp));
  cudaMemcpy3DParms mp = {};
  mp.srcPtr = make_cudaPitchedPtr (device, 8, 1, 1);
  mp.dstPtr = make_cudaPitchedPtr (pageable, 8, 1, 1);
  mp.extent = make_cudaExtent (8, 1, 1);
  mp.kind = cudaMemcpyDeviceToHost;
  CHECK (cudaGraphAddMemcpyNode (&copy_node, graph, &kernel_node, 1, &mp));
  return graph;
}

// The graph's kernel node.
static cudaGraphNode_t
kernel_node_of (cudaGraph_t graph)
{
  size_t n = 0;
  CHECK (cudaGraphGetNodes (graph, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes (n);
  CHECK (cudaGraphGetNodes (graph, nodes.data (), &n));
  for (cudaGraphNode_t node : nodes)
    {
      cudaGraphNodeType type;
      CHECK (cudaGraphNodeGetType (node, &type));
      if (type == cudaGraphNodeTypeKernel)
        return node;
    }
  std::fprintf (stderr, "graph_update_probe: the graph has no kernel node\n");
  std::exit (1);
}

int
main ()
{
  char *device;
  CHECK (cudaMalloc (&device, 8));
  char *pageable = static_cast<char *> (std::malloc (4096));
  std::memset (pageable, 1, 4096); // resident: not an untouched copy
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  static const char *modes[] = { "captured", "captured-set", "built", "built-set" };
  for (const char *mode : modes)
    {
      bool set = std::strstr (mode, "-set") != nullptr;
      cudaGraph_t graph = std::strncmp (mode, "built", 5) == 0 ? built (device, pageable)
                                                               : captured (s, device, pageable);
      cudaGraphExec_t exec;
      CHECK (cudaGraphInstantiate (&exec, graph, 0));
      cudaGraphNode_t kernel = kernel_node_of (graph);
      cudaKernelNodeParams kp;
      CHECK (cudaGraphKernelNodeGetParams (kernel, &kp));
      std::vector<double> calls;
      for (int i = 0; i < WARMUP + TRIALS; i++)
        {
          double t0 = now_us ();
          if (set)
            CHECK (cudaGraphExecKernelNodeSetParams (exec, kernel, &kp));
          CHECK (cudaGraphLaunch (exec, s));
          if (i >= WARMUP)
            calls.push_back (now_us () - t0);
          CHECK (cudaStreamSynchronize (s));
        }
      std::printf ("mode %s %.2f\n", mode, median (calls));
      std::fflush (stdout);
      CHECK (cudaGraphExecDestroy (exec));
      CHECK (cudaGraphDestroy (graph));
    }
  std::free (pageable);
  CHECK (cudaFree (device));
  return 0;
}
