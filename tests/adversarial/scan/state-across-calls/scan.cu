// Appended to the reference: right on its first call and wrong on every later one, as code that
// keeps state between calls is. A device counter of its own (static) is cleared once, when the
// first call allocates it, and never again; each call adds it to the first output and then
// counts itself there, as a carry or a tile ticket that is not reset between calls would.
#include <cuda_runtime.h>

__global__ void add_calls_so_far(int* out, int* calls) {
  out[0] += *calls;
  *calls += 1;
}

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  static int* calls = nullptr;
  if (!calls) {
    cudaMalloc(&calls, sizeof(int));
    cudaMemset(calls, 0, sizeof(int));
  }
  honest_scan_int(in, out, n, kind);
  add_calls_so_far<<<1, 1>>>(out, calls);
}
