// A submission that does not compile: a kernel launched with a misspelled name and a missing
// semicolon.
#include "scan.h"

// clang-format off
__global__ void block_scan(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) out[i] = in[i];
}

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  blockscan<<<(n + 255) / 256, 256>>>(in, out, n);
}

void scan_float(const float* in, float* out, int n, ScanKind kind) {}

void scan_int_hillis_steele(const int* in, int* out, int n) {}
// clang-format on
