// The kernel half of a two-file program: compiled alone with -c, linked with multi_main.cpp.
#include "multi_scale.h"

__global__ void scale_kernel(float* p, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}

void scale(float* device_data, int n, float factor) {
  scale_kernel<<<(n + 63) / 64, 64>>>(device_data, n, factor);
}
