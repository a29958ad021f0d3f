// A submission that does not compile: a kernel calls a function that does not exist.
#include "histogram.h"

__global__ void count_kernel(const int* keys, int n, int* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[undeclared_function(keys[i])], 1);
}

void reduce_sum(const int*, int, int*) {}

void histogram_global(const int* keys, int n, int bins, int* counts) {
  count_kernel<<<(n + 255) / 256, 256>>>(keys, n, counts);
}

void histogram_private(const int*, int, int, int*) {}

void histogram_sort(const int*, int, int, int*) {}
