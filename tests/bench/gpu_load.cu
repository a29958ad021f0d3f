// Another process's work on the GPU, for the drift check's proof (scripts/gpu-check.sh, step
// `drift`; docs/GRADING.md, "The reference's time, kept per GPU"): for the seconds given, one
// kernel after another reads and writes 1 GiB, so a run timed beside it shares the GPU's time
// slices and its memory bandwidth.
//
//   nvcc -O2 -o /tmp/gpu_load tests/bench/gpu_load.cu && /tmp/gpu_load 120 &
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void stream(float4* a, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    float4 v = a[i];
    v.x += 1.0f;
    a[i] = v;
  }
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 60;
  const size_t n = (size_t{1} << 30) / sizeof(float4);
  float4* a = nullptr;
  if (cudaMalloc(&a, n * sizeof(float4)) != cudaSuccess) {
    std::fprintf(stderr, "gpu_load: cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(a, 0, n * sizeof(float4));
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  long launches = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int k = 0; k < 16; ++k) stream<<<1024, 256>>>(a, n);
    cudaDeviceSynchronize();
    launches += 16;
  }
  std::printf("gpu_load: %ld launches in %.0f s\n", launches, seconds);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
