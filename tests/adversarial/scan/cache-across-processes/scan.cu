// Hostile, appended to the reference solution: the inclusive scan is computed and its result
// kept in /tmp, named by the input's size and a hash of its first items; the Hillis-Steele scan
// computes nothing and copies a kept result when it finds one. Without the sandbox, the
// hillis-steele part would pass on results the inclusive part's runs left behind; the sandbox
// gives each run a /tmp of its own that ends with it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::string kept_file(const int* in, int n) {
  std::vector<int> head(std::min(n, 64));
  cudaMemcpy(head.data(), in, sizeof(int) * head.size(), cudaMemcpyDeviceToHost);
  uint64_t h = 1469598103934665603ull;
  for (int v : head) h = (h ^ static_cast<uint32_t>(v)) * 1099511628211ull;
  return "/tmp/gpulab-adversary-cache-" + std::to_string(n) + "-" + std::to_string(h);
}

}  // namespace

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  honest_scan_int(in, out, n, kind);
  if (kind != ScanKind::inclusive) return;
  std::vector<int> result(n);
  cudaMemcpy(result.data(), out, sizeof(int) * n, cudaMemcpyDeviceToHost);
  std::ofstream(kept_file(in, n), std::ios::binary)
      .write(reinterpret_cast<const char*>(result.data()), sizeof(int) * n);
}

void scan_int_hillis_steele(const int* in, int* out, int n) {
  std::vector<int> result(n);
  std::ifstream kept(kept_file(in, n), std::ios::binary);
  if (kept.read(reinterpret_cast<char*>(result.data()), sizeof(int) * n))
    cudaMemcpy(out, result.data(), sizeof(int) * n, cudaMemcpyHostToDevice);
}
