// A submission that does not compile: a kernel calls a function that does not exist.
#include "segmented_scan.h"

__global__ void kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = undeclared_function(in[i]);
}

void segmented_scan_inclusive(const float* in, const uint8_t*, float* out, int n) {
  kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}

void segmented_scan_exclusive(const float*, const uint8_t*, float*, int) {}

void spmv_csr(CsrMatrix, const float*, float*) {}
