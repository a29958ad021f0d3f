// A histogram with a per-block __shared__ histogram and atomicAdd on shared and global memory.
#include <cstdio>

#define BINS 16

__global__ void histogram(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i] % BINS], 1u);
  }
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 5000;
  unsigned char h[n];
  unsigned int expected[BINS] = {0}, got[BINS];
  for (int i = 0; i < n; ++i) {
    h[i] = (unsigned char)(i * 7 + i / 3);
    expected[h[i] % BINS]++;
  }
  unsigned char* data;
  unsigned int* bins;
  cudaMalloc(&data, n);
  cudaMalloc(&bins, sizeof got);
  cudaMemcpy(data, h, n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof got);
  histogram<<<4, 64>>>(data, n, bins);
  cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost);
  for (int b = 0; b < BINS; ++b) {
    if (got[b] != expected[b]) {
      printf("FAILED: bin %d %u != %u\n", b, got[b], expected[b]);
      return 1;
    }
  }
  printf("histogram OK\n");
  return 0;
}
