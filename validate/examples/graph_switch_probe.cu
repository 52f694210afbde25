// graph_switch_probe.cu: what a cudaGraphLaunch call costs the host when the
// graph launched is not the one launched last, for the model's graph launch
// cost ([host] graph_launch, measured by graph_probe.cu relaunching one graph).
//
// Six graphs of one shape are made by stream capture and instantiated, each
// uploaded and launched once untimed. Shapes: chain, three one-block kernels
// in one stream (A -> B -> C); fork, A -> {B, C} -> D over two streams, joined
// by events. Every kernel is one block of 32 threads that sleeps 5 us.
// Modes, each 60 launches into one stream, a synchronize after each:
//   same    the first graph every time
//   cycle   the six graphs in turn
//   kernel  the first graph every time, with one plain kernel launch and its
//           synchronize between two launches (other work, no other graph)
// The order is chain same, chain cycle, chain kernel, fork same, fork cycle,
// fork kernel, then the six again (round 2), to see drift.
//
// Lines (fields separated by one space):
//   # ...                                  comments
//   gpu NAME                               the device (its name has spaces)
//   mode ROUND SHAPE MODE CALL_US SYNC_US CALL_P10 CALL_P90
//                                          medians over the mode's 60 launches of the
//                                          cudaGraphLaunch call's host time and of the
//                                          call's start to the synchronize's return,
//                                          and the call's 10th and 90th percentiles
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"

namespace
{

const int GRAPHS = 6;
const int LAUNCHES = 60;

__global__ void
nap (unsigned ns)
{
  __nanosleep (ns);
}

cudaGraphExec_t
make_graph (bool fork, cudaStream_t s1, cudaStream_t s2)
{
  cudaEvent_t split, joined;
  CHECK (cudaEventCreateWithFlags (&split, cudaEventDisableTiming));
  CHECK (cudaEventCreateWithFlags (&joined, cudaEventDisableTiming));
  CHECK (cudaStreamBeginCapture (s1, cudaStreamCaptureModeThreadLocal));
  nap<<<1, 32, 0, s1>>> (5000);
  if (fork)
    {
      CHECK (cudaEventRecord (split, s1));
      CHECK (cudaStreamWaitEvent (s2, split, 0));
      nap<<<1, 32, 0, s1>>> (5000);
      nap<<<1, 32, 0, s2>>> (5000);
      CHECK (cudaEventRecord (joined, s2));
      CHECK (cudaStreamWaitEvent (s1, joined, 0));
    }
  else
    nap<<<1, 32, 0, s1>>> (5000);
  nap<<<1, 32, 0, s1>>> (5000);
  cudaGraph_t graph;
  CHECK (cudaStreamEndCapture (s1, &graph));
  cudaGraphExec_t exec;
  CHECK (cudaGraphInstantiate (&exec, graph, 0));
  CHECK (cudaGraphDestroy (graph));
  CHECK (cudaEventDestroy (split));
  CHECK (cudaEventDestroy (joined));
  CHECK (cudaGraphUpload (exec, s1));
  CHECK (cudaGraphLaunch (exec, s1));
  CHECK (cudaStreamSynchronize (s1));
  return exec;
}

double
percentile (std::vector<double> v, double p)
{
  std::sort (v.begin (), v.end ());
  return v[(size_t) (p * (double) (v.size () - 1))];
}

void
run_mode (int round, const char *shape, const char *mode, const cudaGraphExec_t *execs,
          cudaStream_t s)
{
  std::vector<double> call (LAUNCHES), sync (LAUNCHES);
  bool cycle = mode[0] == 'c', kernel = mode[0] == 'k';
  for (int i = 0; i < LAUNCHES; i++)
    {
      if (kernel)
        {
          nap<<<1, 32, 0, s>>> (5000);
          CHECK (cudaStreamSynchronize (s));
        }
      cudaGraphExec_t exec = execs[cycle ? i % GRAPHS : 0];
      double t0 = now_us ();
      CHECK (cudaGraphLaunch (exec, s));
      double t1 = now_us ();
      CHECK (cudaStreamSynchronize (s));
      double t2 = now_us ();
      call[i] = t1 - t0;
      sync[i] = t2 - t0;
    }
  std::printf ("mode %d %s %s %.2f %.2f %.2f %.2f\n", round, shape, mode, median (call),
               median (sync), percentile (call, 0.1), percentile (call, 0.9));
}

} // namespace

int
main ()
{
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  std::printf ("gpu %s\n", prop.name);
  cudaStream_t s1, s2;
  CHECK (cudaStreamCreateWithFlags (&s1, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&s2, cudaStreamNonBlocking));
  cudaGraphExec_t chain[GRAPHS], fork[GRAPHS];
  for (int g = 0; g < GRAPHS; g++)
    {
      chain[g] = make_graph (false, s1, s2);
      fork[g] = make_graph (true, s1, s2);
    }
  static const char *const modes[] = { "same", "cycle", "kernel" };
  for (int round = 1; round <= 2; round++)
    for (int f = 0; f < 2; f++)
      for (const char *mode : modes)
        run_mode (round, f ? "fork" : "chain", mode, f ? fork : chain, s1);
  for (int g = 0; g < GRAPHS; g++)
    {
      CHECK (cudaGraphExecDestroy (chain[g]));
      CHECK (cudaGraphExecDestroy (fork[g]));
    }
  return 0;
}
