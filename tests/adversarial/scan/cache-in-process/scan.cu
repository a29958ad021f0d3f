// Hostile, appended to the reference solution: keeps each result on the device, keyed by the
// input's address, size and kind, and when called again with the same key copies the kept
// result instead of scanning, saying so on stderr. Every timed sample sees its input at a new
// address (harness/input_sets.h), so the copy is never taken; its results stay right.
#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <tuple>

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  static std::map<std::tuple<const int*, int, int>, int*> kept;
  const auto key = std::make_tuple(in, n, static_cast<int>(kind));
  const auto found = kept.find(key);
  if (found != kept.end()) {
    cudaMemcpy(out, found->second, sizeof(int) * n, cudaMemcpyDeviceToDevice);
    std::fprintf(stderr, "gpulab-adversary: cache hit\n");
    return;
  }
  honest_scan_int(in, out, n, kind);
  int* copy = nullptr;
  cudaMalloc(&copy, sizeof(int) * n);
  cudaMemcpy(copy, out, sizeof(int) * n, cudaMemcpyDeviceToDevice);
  kept[key] = copy;
}
