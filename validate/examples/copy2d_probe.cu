// copy2d_probe.cu: how long 2D and 3D copies (cudaMemcpy2DAsync,
// cudaMemcpy3DAsync) take on the GPU by the width of their rows, measured in
// a program of its own.
//
// Each copy is bracketed in its stream by two stamp kernels (spin_stamp: one
// thread writes %globaltimer), so its span is the gap between them, less
// the gap two stamps leave with nothing between (printed as `stamps`). The
// GPU is idle otherwise. The cases, each of `bytes` in all:
//   2d DIR WIDTH         rows of WIDTH bytes, the device side pitched as
//                        cudaMallocPitch pitches (WIDTH rounded up to 512
//                        bytes, and 512 more, so that no two rows touch), the
//                        host side packed (pitch WIDTH);
//   packed DIR WIDTH     both sides packed (pitch WIDTH): one block of bytes
//                        written as rows;
//   3d DIR WIDTH         a cudaMemcpy3DAsync of WIDTH x 64 x (rows / 64);
//   1d DIR               the same bytes by cudaMemcpyAsync, for comparison;
// DIR is h2d or d2h between pinned host memory and the device, d2d within
// the device, h2d-pageable or d2h-pageable with malloc'ed host memory (whose
// calls block the host until the copy is done).
//
// Prints one line per run of a case:
//   copy SHAPE DIR WIDTH ROWS BYTES SPAN_US
// and `stamps SPAN_US` lines for the bracket alone. Five runs of each case.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "kernels/spin.h"

enum { RUNS = 5, HOST_BYTES = 64 << 20 };

static unsigned long long *stamps; // device: before, after
static char *dev_a, *dev_b;        // device buffers, pitched room for any case
static char *pinned, *pageable;    // host buffers

enum Dir { H2D, D2H, D2D, H2D_PAGEABLE, D2H_PAGEABLE };
static const char *dir_names[] = { "h2d", "d2h", "d2d", "h2d-pageable", "d2h-pageable" };
enum Shape { SHAPE_2D, SHAPE_PACKED, SHAPE_3D, SHAPE_1D };
static const char *shape_names[] = { "2d", "packed", "3d", "1d" };

static size_t
pitched (size_t width)
{
  return (width + 511) / 512 * 512 + 512;
}

// The copy itself, issued into s.
static void
issue (Shape shape, Dir dir, size_t width, size_t rows, cudaStream_t s)
{
  size_t bytes = width * rows;
  char *host = (dir == H2D_PAGEABLE || dir == D2H_PAGEABLE) ? pageable : pinned;
  bool to_device = dir == H2D || dir == H2D_PAGEABLE;
  cudaMemcpyKind kind = dir == D2D ? cudaMemcpyDeviceToDevice
                        : to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  char *src_host = dir == D2D ? dev_b : host;
  size_t dev_pitch = shape == SHAPE_PACKED ? width : pitched (width);
  size_t host_pitch = dir == D2D ? dev_pitch : width;
  if (shape == SHAPE_1D)
    {
      if (dir == D2D)
        CHECK (cudaMemcpyAsync (dev_a, dev_b, bytes, kind, s));
      else if (to_device)
        CHECK (cudaMemcpyAsync (dev_a, host, bytes, kind, s));
      else
        CHECK (cudaMemcpyAsync (host, dev_a, bytes, kind, s));
      return;
    }
  if (shape == SHAPE_3D)
    {
      size_t height = 64, depth = rows / 64;
      cudaMemcpy3DParms p;
      std::memset (&p, 0, sizeof p);
      cudaPitchedPtr devp = make_cudaPitchedPtr (dev_a, dev_pitch, width, height);
      cudaPitchedPtr other = make_cudaPitchedPtr (src_host, host_pitch, width, height);
      p.extent = make_cudaExtent (width, height, depth);
      p.kind = kind;
      if (to_device || dir == D2D)
        p.srcPtr = other, p.dstPtr = devp;
      else
        p.srcPtr = devp, p.dstPtr = other;
      CHECK (cudaMemcpy3DAsync (&p, s));
      return;
    }
  if (to_device || dir == D2D)
    CHECK (cudaMemcpy2DAsync (dev_a, dev_pitch, src_host, host_pitch, width, rows, kind, s));
  else
    CHECK (cudaMemcpy2DAsync (host, host_pitch, dev_a, dev_pitch, width, rows, kind, s));
}

// One run: stamp, the copy (or nothing), stamp; the span in microseconds.
static double
run (Shape shape, Dir dir, size_t width, size_t rows, bool empty, cudaStream_t s)
{
  CHECK (cudaDeviceSynchronize ());
  CHECK (spin_stamp (&stamps[0], s));
  if (!empty)
    issue (shape, dir, width, rows, s);
  CHECK (spin_stamp (&stamps[1], s));
  CHECK (cudaDeviceSynchronize ());
  unsigned long long t[2];
  CHECK (cudaMemcpy (t, stamps, sizeof t, cudaMemcpyDeviceToHost));
  return (double) (t[1] - t[0]) / 1e3;
}

static void
report (Shape shape, Dir dir, size_t width, size_t rows, cudaStream_t s)
{
  for (int r = 0; r < RUNS; r++)
    std::printf ("copy %s %s %zu %zu %zu %.3f\n", shape_names[shape], dir_names[dir], width,
                 rows, width * rows, run (shape, dir, width, rows, false, s));
  std::fflush (stdout);
}

int
main ()
{
  // Room for the widest pitch times the most rows of any case below.
  size_t dev_bytes = 0;
  for (size_t width = 16; width <= 65536; width *= 4)
    {
      size_t need = pitched (width) * ((4u << 20) / width);
      dev_bytes = need > dev_bytes ? need : dev_bytes;
    }
  CHECK (cudaMalloc (&stamps, 2 * sizeof (unsigned long long)));
  CHECK (cudaMalloc (&dev_a, dev_bytes));
  CHECK (cudaMalloc (&dev_b, dev_bytes));
  CHECK (cudaMallocHost (&pinned, HOST_BYTES));
  pageable = (char *) std::malloc (HOST_BYTES);
  std::memset (pageable, 1, HOST_BYTES);
  std::memset (pinned, 1, HOST_BYTES);
  cudaStream_t s;
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));

  // warm-up: each kind of call once
  for (int d = H2D; d <= D2H_PAGEABLE; d++)
    for (int sh = SHAPE_2D; sh <= SHAPE_1D; sh++)
      run ((Shape) sh, (Dir) d, 4096, 64, false, s);
  for (int r = 0; r < 10; r++)
    std::printf ("stamps %.3f\n", run (SHAPE_1D, H2D, 0, 0, true, s));

  const size_t totals[] = { 256u << 10, 4u << 20 };
  for (size_t total : totals)
    for (int d = H2D; d <= D2D; d++)
      {
        report (SHAPE_1D, (Dir) d, total, 1, s);
        for (size_t width = 16; width <= 65536; width *= 4)
          report (SHAPE_2D, (Dir) d, width, total / width, s);
      }
  // both sides packed, and 3D, at 4 MiB
  for (int d = H2D; d <= D2D; d++)
    for (size_t width : { (size_t) 64, (size_t) 1024, (size_t) 16384 })
      {
        report (SHAPE_PACKED, (Dir) d, width, (4u << 20) / width, s);
        report (SHAPE_3D, (Dir) d, width, (4u << 20) / width, s);
      }
  // pageable host memory at 4 MiB
  for (int d = H2D_PAGEABLE; d <= D2H_PAGEABLE; d++)
    {
      report (SHAPE_1D, (Dir) d, 4u << 20, 1, s);
      for (size_t width : { (size_t) 64, (size_t) 1024, (size_t) 16384 })
        report (SHAPE_2D, (Dir) d, width, (4u << 20) / width, s);
    }
  return 0;
}
