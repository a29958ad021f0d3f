// A shared-memory tree reduction: __shared__, __syncthreads, a second pass on the partial sums.
#include <cstdio>
#include <vector>

#define BLOCK 128

__global__ void reduce_sum(const int* in, int* out, int n) {
  __shared__ int partial[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int v = 0;
  if (i < n) v += in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  partial[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 100000;
  std::vector<int> h(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = i % 7 - 3;
    expected += h[i];
  }
  int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  int *in, *partials, *total;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&partials, blocks * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reduce_sum<<<blocks, BLOCK>>>(in, partials, n);
  reduce_sum<<<1, BLOCK>>>(partials, total, blocks);
  int result = 0;
  cudaMemcpy(&result, total, sizeof(int), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess || result != expected) {
    printf("FAILED: %d != %lld\n", result, expected);
    return 1;
  }
  printf("reduction %d OK\n", result);
  return 0;
}
