// A stand-in for the runtime's sim.h in the rewriter's string tests: just the parse-mode
// attributes and the few names the test kernels use, so that these tests pin the rewriter's
// output independently of the runtime's headers.
#pragma once
#include <gpulab_sim/parse_mode.h>

#include <cstddef>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct uint3 {
  unsigned x, y, z;
};
struct float4 {
  float x, y, z, w;
};
typedef struct CUstream_st* cudaStream_t;
extern const uint3 threadIdx, blockIdx;
extern const dim3 blockDim, gridDim;
// A macro, as in the runtime: clang knows a __device__ builtin of that name.
void gpulab_stub_syncthreads();
#define __syncthreads() gpulab_stub_syncthreads()
template <class T>
T atomicAdd(T* address, T value);
