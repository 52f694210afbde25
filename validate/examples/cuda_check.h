// cuda_check.h: CHECK (call) for the measurement programs beside it: a failed
// CUDA call prints where and why, and the program exits 1. (overlap.cu keeps
// its own: it stands for a user's program and compiles alone.)
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

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

#endif /* CUDA_CHECK_H */
