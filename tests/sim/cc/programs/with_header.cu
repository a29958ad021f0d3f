// Kernels and launches in the student's own headers (beside the .cu, and through -I).
#include <cstdio>

#include "with_header/kernels.cuh"
#include <helpers.cuh>

int main() {
  float h[4] = {1, 2, 3, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  run_reverse(d);        // 8 6 4 2
  LAUNCH_REVERSE(d);     // 4 8 12 16
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (h[0] != 4 || h[1] != 8 || h[2] != 12 || h[3] != 16) {
    printf("FAILED: %g %g %g %g\n", h[0], h[1], h[2], h[3]);
    return 1;
  }
  printf("headers OK\n");
  return 0;
}
