// The host half of a two-file program: plain C++ calling the CUDA runtime API.
#include <cuda_runtime.h>

#include <cstdio>

#include "multi_scale.h"

int main() {
  const int n = 300;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  float* d = nullptr;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale(d, n, 3.0f);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n; ++i) {
    if (h[i] != 3.0f * i) {
      printf("FAILED at %d\n", i);
      return 1;
    }
  }
  printf("two files OK\n");
  return 0;
}
