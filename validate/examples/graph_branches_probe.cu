// graph_branches_probe.cu: how the branches of a CUDA graph run, for a model
// of graphs whose nodes run side by side: a measurement program of its own.
//
// Each graph is made by stream capture over up to three streams: s1 begins
// the capture, events recorded in s1 and waited for by s2 and s3 fork the
// branches, events recorded in s2 and s3 and waited for by s1 join them.
// Every node is a kernel of one block of 32 threads (unless said) whose
// blocks spin for the node's time; thread 0 of each block stamps its block's
// start and end with %globaltimer. A and D spin 5 us.
//   chain       A -> B -> C -> D, all in s1 (what the model has today); B, C 50 us
//   fork2       A -> {B (s2), C (s1)} -> D; B, C 50 us
//   fork3       A -> {B (s2), C (s1), E (s3)} -> D; B, C, E 50 us
//   uneven      A -> {B (s2) 100 us, C (s1) 20 us} -> D
//   fork2-wide  fork2 with B and C of one block per SM (132 on an H100), 50 us each
//   fork2-full  fork2-wide with 120 KiB of shared memory per block, so that no SM
//               holds a block of B and one of C at once (the branches must share SMs)
// For each graph: instantiate, upload, launch once untimed; then launch it 50
// times into a stream of its own, each launch followed by a synchronize
// (mode sync); then 20 times back to back into that stream with one
// synchronize after the last (mode b2b); then 20 times back to back into two
// streams in turn (mode b2b2: a graph's launches are ordered even across
// streams, so this shows whether the ordering costs more than a stream's).
//
// Times are nanoseconds of the host's CLOCK_MONOTONIC (std::chrono::steady_clock).
// The GPU's %globaltimer is tied to it before each graph: a one-thread kernel
// keeps writing %globaltimer to mapped host memory and the host reads it 2000
// times; the smallest (host time after the read) - (value read) is the offset.
// It overstates the offset by the write's latency over PCIe (under 1 us), so
// node times come out that much late against the host's.
//
// Lines (fields separated by one space; every time an integer of ns):
//   # ...                        comments
//   gpu NAME SMS                 the device (its name has spaces) and its SM count
//   clock GRAPH OFFSET WINDOW    the tie made before GRAPH: host = globaltimer +
//                                OFFSET; WINDOW the host read's duration at the best sample
//   graph GRAPH SHAPE NODE=SPIN_NS/BLOCKS...
//                                the graph: SHAPE chain (nodes in the order given) or
//                                fork (A, then the nodes between A and D side by side, then D)
//   prep GRAPH INSTANTIATE UPLOAD FIRST
//                                host time of cudaGraphInstantiate, of cudaGraphUpload
//                                and the synchronize after it, and of the first
//                                cudaGraphLaunch call (the warm-up, not in the launches)
//   launch GRAPH MODE I CALL_START CALL SYNC
//                                launch I (0-based) of MODE (sync, b2b, b2b2): its
//                                cudaGraphLaunch call began at CALL_START and took CALL;
//                                SYNC is when the synchronize after it returned (in b2b
//                                and b2b2, the one synchronize after the 20 launches)
//   node GRAPH MODE I NODE START END LAST_START BLOCKS
//                                node NODE of that launch: its first block's start, its
//                                last block's end, its last block's start (all blocks
//                                started by then), its block count
// In mode sync every time is relative to that launch's own call start (so
// CALL_START is 0); in b2b and b2b2 to the first launch's call start, so that
// one launch's D and the next one's A can be compared.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "clock_tie.h"
#include "gpu_time.h"

enum
{
  SYNC_LAUNCHES = 50,
  B2B_LAUNCHES = 20,
  LAUNCHES = 1 + SYNC_LAUNCHES + 2 * B2B_LAUNCHES, // warm-up, sync, b2b, b2b2
  NODES = 5,                                        // A B C D E
  FULL_SMEM = 120 * 1024,
};
static const char NODE_NAMES[NODES] = { 'A', 'B', 'C', 'D', 'E' };
enum { A, B, C, D, E };

// One node: every thread spins `spin_ns`; thread 0 of each block writes its
// block's start and end to slots[((launch * NODES + node) * max_blocks + block) * 2].
// The launch index is *counter, which node D (bump) raises by one as it ends:
// a graph's launches run one after another, so every node of a launch reads
// the same index. Two instances: the second is given 120 KiB of dynamic
// shared memory per block (fork2-full) without touching the first's attributes.
template <int Big>
__global__ void
node_kernel (unsigned long long spin_ns, unsigned long long *slots, unsigned *counter, int node,
             int max_blocks, int bump)
{
  unsigned long long t0 = globaltimer ();
  unsigned launch = *(volatile unsigned *) counter;
  unsigned long long t;
  do
    t = globaltimer ();
  while (t - t0 < spin_ns);
  if (threadIdx.x == 0)
    {
      unsigned long long *slot = slots + ((size_t) (launch * NODES + node) * max_blocks + blockIdx.x) * 2;
      slot[0] = t0;
      slot[1] = t;
      if (bump && blockIdx.x == 0)
        {
          __threadfence ();
          atomicAdd (counter, 1u);
        }
    }
}

struct NodeSpec
{
  int node;          // A..E
  int stream;        // 0, 1, 2: s1, s2, s3
  unsigned spin_us;
  bool wide;         // one block per SM
};

struct GraphSpec
{
  const char *name;
  bool chain;
  bool full;         // the wide nodes take FULL_SMEM each
  std::vector<NodeSpec> branches; // between A and D (in order, for a chain)
};

struct Ctx
{
  int sms;
  unsigned long long *slots;
  unsigned *counter;
  volatile unsigned long long *tick;
  volatile int *stop;
  cudaStream_t cap[3], launch[2], tick_stream;
};

static int
blocks_of (const Ctx &c, const NodeSpec &n)
{
  return n.wide ? c.sms : 1;
}

static void
launch_node (const Ctx &c, const GraphSpec &g, const NodeSpec &n, cudaStream_t s)
{
  unsigned long long spin = n.spin_us * 1000ull;
  int bump = n.node == D;
  if (g.full && n.wide)
    node_kernel<1><<<c.sms, 32, FULL_SMEM, s>>> (spin, c.slots, c.counter, n.node, c.sms, bump);
  else
    node_kernel<0><<<blocks_of (c, n), 32, 0, s>>> (spin, c.slots, c.counter, n.node, c.sms, bump);
  CHECK (cudaGetLastError ());
}

static cudaGraph_t
capture (const Ctx &c, const GraphSpec &g)
{
  NodeSpec a = { A, 0, 5, false }, d = { D, 0, 5, false };
  cudaEvent_t fork, join[3];
  CHECK (cudaEventCreateWithFlags (&fork, cudaEventDisableTiming));
  for (cudaEvent_t &e : join)
    CHECK (cudaEventCreateWithFlags (&e, cudaEventDisableTiming));
  CHECK (cudaStreamBeginCapture (c.cap[0], cudaStreamCaptureModeGlobal));
  launch_node (c, g, a, c.cap[0]);
  if (!g.chain)
    {
      CHECK (cudaEventRecord (fork, c.cap[0]));
      for (const NodeSpec &n : g.branches)
        if (n.stream != 0)
          CHECK (cudaStreamWaitEvent (c.cap[n.stream], fork, 0));
    }
  for (const NodeSpec &n : g.branches)
    launch_node (c, g, n, c.cap[n.stream]);
  if (!g.chain)
    for (const NodeSpec &n : g.branches)
      if (n.stream != 0)
        {
          CHECK (cudaEventRecord (join[n.stream], c.cap[n.stream]));
          CHECK (cudaStreamWaitEvent (c.cap[0], join[n.stream], 0));
        }
  launch_node (c, g, d, c.cap[0]);
  cudaGraph_t graph;
  CHECK (cudaStreamEndCapture (c.cap[0], &graph));
  CHECK (cudaEventDestroy (fork));
  for (cudaEvent_t e : join)
    CHECK (cudaEventDestroy (e));
  return graph;
}

struct Launch
{
  long long start, call, sync; // host ns, absolute
};

static void
print_launches (const Ctx &c, const GraphSpec &g, const char *mode, int first_index,
                const std::vector<Launch> &launches, const std::vector<unsigned long long> &slots,
                long long offset, bool own_origin)
{
  std::vector<NodeSpec> nodes = g.branches;
  nodes.insert (nodes.begin (), NodeSpec { A, 0, 5, false });
  nodes.push_back (NodeSpec { D, 0, 5, false });
  for (size_t i = 0; i < launches.size (); i++)
    {
      long long origin = own_origin ? launches[i].start : launches[0].start;
      std::printf ("launch %s %s %zu %lld %lld %lld\n", g.name, mode, i, launches[i].start - origin,
                   launches[i].call, launches[i].sync - origin);
      int idx = first_index + (int) i;
      for (const NodeSpec &n : nodes)
        {
          int blocks = blocks_of (c, n);
          unsigned long long first = 0, last_end = 0, last_start = 0;
          for (int b = 0; b < blocks; b++)
            {
              const unsigned long long *s = &slots[((size_t) (idx * NODES + n.node) * c.sms + b) * 2];
              if (b == 0 || s[0] < first)
                first = s[0];
              if (s[1] > last_end)
                last_end = s[1];
              if (s[0] > last_start)
                last_start = s[0];
            }
          std::printf ("node %s %s %zu %c %lld %lld %lld %d\n", g.name, mode, i, NODE_NAMES[n.node],
                       (long long) first + offset - origin, (long long) last_end + offset - origin,
                       (long long) last_start + offset - origin, blocks);
        }
    }
}

static void
measure (Ctx &c, const GraphSpec &g)
{
  long long window, offset = clock_tie (c.tick_stream, c.tick, c.stop, &window);
  std::printf ("clock %s %lld %lld\n", g.name, offset, window);
  std::printf ("graph %s %s", g.name, g.chain ? "chain" : "fork");
  std::vector<NodeSpec> all = g.branches;
  all.insert (all.begin (), NodeSpec { A, 0, 5, false });
  all.push_back (NodeSpec { D, 0, 5, false });
  for (const NodeSpec &n : all)
    std::printf (" %c=%u/%d", NODE_NAMES[n.node], n.spin_us * 1000, blocks_of (c, n));
  std::printf ("\n");

  size_t nslots = (size_t) LAUNCHES * NODES * c.sms * 2;
  CHECK (cudaMemset (c.slots, 0, nslots * sizeof *c.slots));
  CHECK (cudaMemset (c.counter, 0, sizeof *c.counter));
  CHECK (cudaDeviceSynchronize ());

  cudaGraph_t graph = capture (c, g);
  cudaGraphExec_t exec;
  long long t0 = now_ns ();
  CHECK (cudaGraphInstantiate (&exec, graph, 0));
  long long t1 = now_ns ();
  CHECK (cudaGraphUpload (exec, c.launch[0]));
  CHECK (cudaStreamSynchronize (c.launch[0]));
  long long t2 = now_ns ();
  CHECK (cudaGraphLaunch (exec, c.launch[0]));
  long long t3 = now_ns ();
  CHECK (cudaStreamSynchronize (c.launch[0]));
  std::printf ("prep %s %lld %lld %lld\n", g.name, t1 - t0, t2 - t1, t3 - t2);

  std::vector<Launch> sync (SYNC_LAUNCHES), b2b (B2B_LAUNCHES), b2b2 (B2B_LAUNCHES);
  for (Launch &l : sync)
    {
      l.start = now_ns ();
      CHECK (cudaGraphLaunch (exec, c.launch[0]));
      l.call = now_ns () - l.start;
      CHECK (cudaStreamSynchronize (c.launch[0]));
      l.sync = now_ns ();
    }
  for (int mode = 0; mode < 2; mode++)
    {
      std::vector<Launch> &v = mode ? b2b2 : b2b;
      for (int i = 0; i < B2B_LAUNCHES; i++)
        {
          v[i].start = now_ns ();
          CHECK (cudaGraphLaunch (exec, c.launch[mode ? i % 2 : 0]));
          v[i].call = now_ns () - v[i].start;
        }
      CHECK (cudaDeviceSynchronize ());
      long long done = now_ns ();
      for (Launch &l : v)
        l.sync = done;
    }

  unsigned counter;
  CHECK (cudaMemcpy (&counter, c.counter, sizeof counter, cudaMemcpyDeviceToHost));
  if (counter != LAUNCHES)
    {
      std::fprintf (stderr, "%s: %u launches counted, not %d\n", g.name, counter, (int) LAUNCHES);
      std::exit (1);
    }
  std::vector<unsigned long long> host (nslots);
  CHECK (cudaMemcpy (host.data (), c.slots, nslots * sizeof *c.slots, cudaMemcpyDeviceToHost));
  print_launches (c, g, "sync", 1, sync, host, offset, true);
  print_launches (c, g, "b2b", 1 + SYNC_LAUNCHES, b2b, host, offset, false);
  print_launches (c, g, "b2b2", 1 + SYNC_LAUNCHES + B2B_LAUNCHES, b2b2, host, offset, false);
  std::fflush (stdout);
  CHECK (cudaGraphExecDestroy (exec));
  CHECK (cudaGraphDestroy (graph));
}

int
main ()
{
  Ctx c;
  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  c.sms = prop.multiProcessorCount;
  std::printf ("gpu %s %d\n", prop.name, c.sms);
  CHECK (cudaFuncSetAttribute (node_kernel<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, FULL_SMEM));
  CHECK (cudaFuncSetAttribute (node_kernel<1>, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  CHECK (cudaMalloc (&c.slots, (size_t) LAUNCHES * NODES * c.sms * 2 * sizeof *c.slots));
  CHECK (cudaMalloc (&c.counter, sizeof *c.counter));
  void *mapped;
  CHECK (cudaHostAlloc (&mapped, 64, cudaHostAllocMapped));
  c.tick = static_cast<volatile unsigned long long *> (mapped);
  c.stop = reinterpret_cast<volatile int *> (static_cast<char *> (mapped) + 32);
  for (cudaStream_t &s : c.cap)
    CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  for (cudaStream_t &s : c.launch)
    CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&c.tick_stream, cudaStreamNonBlocking));

  // Loads the kernels' code before any graph is made.
  node_kernel<0><<<1, 32, 0, c.launch[0]>>> (0, c.slots, c.counter, A, c.sms, 0);
  node_kernel<1><<<1, 32, FULL_SMEM, c.launch[0]>>> (0, c.slots, c.counter, A, c.sms, 0);
  CHECK (cudaGetLastError ());
  CHECK (cudaStreamSynchronize (c.launch[0]));

  const GraphSpec graphs[] = {
    { "chain", true, false, { { B, 0, 50, false }, { C, 0, 50, false } } },
    { "fork2", false, false, { { B, 1, 50, false }, { C, 0, 50, false } } },
    { "fork3", false, false, { { B, 1, 50, false }, { C, 0, 50, false }, { E, 2, 50, false } } },
    { "uneven", false, false, { { B, 1, 100, false }, { C, 0, 20, false } } },
    { "fork2-wide", false, false, { { B, 1, 50, true }, { C, 0, 50, true } } },
    { "fork2-full", false, true, { { B, 1, 50, true }, { C, 0, 50, true } } },
  };
  for (const GraphSpec &g : graphs)
    measure (c, g);
  long long window, offset = clock_tie (c.tick_stream, c.tick, c.stop, &window);
  std::printf ("clock end %lld %lld\n", offset, window);
  return 0;
}
