// clang-format off
// parse_mode_sample.cu as the rewriter is to emit it (sim/README.md, "The contract"), edit for
// edit on the same lines, compiled by g++ and run by contract.cpp: a reference for the
// rewriter's output.
#include <gpulab_sim/sim.h>
static char gpulab_sim_tu;  // a per-file tag: the address keys this file's shared variables
#line 1 "parse_mode_sample.cu"
// clang-format off
// Parsed by clang-14 in CUDA mode as the rewriter parses students' files (host-only, no CUDA
// install): sim.h must give the attributes their CUDA meaning and let <<<>>> through.
// contract_sample.cpp is this file as the rewriter is to emit it, line for line.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__constant__ float coeffs[4]; static ::gpulab_sim::symbol gpulab_sim_sym_0(&coeffs, sizeof(coeffs), "coeffs");
__device__ int counter; static ::gpulab_sim::symbol gpulab_sim_sym_1(&counter, sizeof(counter), "counter");

__device__ __forceinline__ float square(float x) { return x * x; }

template <int kBlock>
__global__ void __launch_bounds__(kBlock) kernel(float* out, const float* in, int n) {
  auto& tile = ::gpulab_sim::shared<float[kBlock]>(&gpulab_sim_tu, 0, "tile", __FILE__, __LINE__);
  float* dyn = ::gpulab_sim::dynamic_shared<float>(__FILE__, __LINE__);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  (*::gpulab_sim::access(&(tile[threadIdx.x]), ::gpulab_sim::wr, __FILE__, __LINE__)) = i < n ? (*::gpulab_sim::access(&(in[i]), ::gpulab_sim::rd, __FILE__, __LINE__)) : 0.0f;
  (*::gpulab_sim::access(&(dyn[threadIdx.x]), ::gpulab_sim::wr, __FILE__, __LINE__)) = (*::gpulab_sim::access(&(tile[threadIdx.x]), ::gpulab_sim::rd, __FILE__, __LINE__));
  __syncthreads();
  float v = __shfl_down_sync(0xffffffffu, (*::gpulab_sim::access(&(tile[threadIdx.x]), ::gpulab_sim::rd, __FILE__, __LINE__)), 1);
  v += __shfl_xor_sync(0xffffffffu, v, 1, 16);
  const unsigned ballot = __ballot_sync(0xffffffffu, v > 0.0f);
  __syncwarp();
  if (i < n) (*::gpulab_sim::access(&(out[i]), ::gpulab_sim::wr, __FILE__, __LINE__)) = square(v) + rsqrtf((*::gpulab_sim::access(&(coeffs[0]), ::gpulab_sim::rd, __FILE__, __LINE__)) + 1.0f) + __expf(v) + __popc(ballot) + min(1, 2) + __half2float(__float2half(v));
  atomicAdd(&counter, 1);
  atomicAdd(out, 1.0f);
  atomicCAS(&counter, 0, 1);
  if (__syncthreads_count(v > 0.0f) == 0) __trap();
}

struct __align__(16) Pair {
  float a, b;
};

int sample_main() {  // main() in the .cu; renamed to run inside the test binary
  float* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  const float c[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeffs, c, sizeof(c));
  ::gpulab_sim::launch(__FILE__, __LINE__, 4, 256, 0, 0, [&](auto&&... gpulab_a) { kernel<256>(gpulab_a...); }, d, d, 1024);
  ::gpulab_sim::launch(__FILE__, __LINE__, dim3(4), dim3(256), 256 * sizeof(float), 0, [&](auto&&... gpulab_a) { kernel<256>(gpulab_a...); }, d, d, 1024);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  cudaFree(d);
  return err == cudaSuccess ? 0 : 1;
}
