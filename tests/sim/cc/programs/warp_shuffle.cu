// A warp-shuffle reduction: each warp sums its values with __shfl_down_sync, lane 0 adds the
// warp's sum to the total atomically.
#include <cstdio>

__inline__ __device__ int warp_sum(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void sum(const int* in, int* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = warp_sum(v);
  if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(total, v);
}

int main() {
  const int n = 1000;
  int h[n], expected = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = i % 10;
    expected += h[i];
  }
  int *in, *total;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&total, sizeof(int));
  cudaMemset(total, 0, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<(n + 127) / 128, 128>>>(in, total, n);
  int result = 0;
  cudaMemcpy(&result, total, sizeof(int), cudaMemcpyDeviceToHost);
  if (result != expected) {
    printf("FAILED: %d != %d\n", result, expected);
    return 1;
  }
  printf("warp shuffle OK\n");
  return 0;
}
