// clang-format off
// Parsed by clang-14 in CUDA mode as the rewriter parses students' files (host-only, no CUDA
// install): sim.h must give the attributes their CUDA meaning and let <<<>>> through.
// contract_sample.cpp is this file as the rewriter is to emit it, line for line.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__constant__ float coeffs[4];
__device__ int counter;

__device__ __forceinline__ float square(float x) { return x * x; }

template <int kBlock>
__global__ void __launch_bounds__(kBlock) kernel(float* out, const float* in, int n) {
  __shared__ float tile[kBlock];
  extern __shared__ float dyn[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  dyn[threadIdx.x] = tile[threadIdx.x];
  __syncthreads();
  float v = __shfl_down_sync(0xffffffffu, tile[threadIdx.x], 1);
  v += __shfl_xor_sync(0xffffffffu, v, 1, 16);
  const unsigned ballot = __ballot_sync(0xffffffffu, v > 0.0f);
  __syncwarp();
  if (i < n) out[i] = square(v) + rsqrtf(coeffs[0] + 1.0f) + __expf(v) + __popc(ballot) + min(1, 2) + __half2float(__float2half(v));
  atomicAdd(&counter, 1);
  atomicAdd(out, 1.0f);
  atomicCAS(&counter, 0, 1);
  if (__syncthreads_count(v > 0.0f) == 0) __trap();
}

struct __align__(16) Pair {
  float a, b;
};

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  const float c[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeffs, c, sizeof(c));
  kernel<256><<<4, 256>>>(d, d, 1024);
  kernel<256><<<dim3(4), dim3(256), 256 * sizeof(float), 0>>>(d, d, 1024);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  cudaFree(d);
  return err == cudaSuccess ? 0 : 1;
}
