// Hostile: reads the expected output of its dataset from the grader's dataset cache (the
// directory beside its input directory, named on its command line) and copies it into its
// output. In the sandbox only the input directory is there: it copies nothing and fails.
#include <cuda_runtime.h>

#include <fstream>
#include <string>
#include <vector>

#include "scan.h"

namespace {

std::string dataset_dir() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  for (std::string w; std::getline(in, w, '\0');)
    if (w == "--dataset" && std::getline(in, w, '\0')) return w;
  return "";
}

}  // namespace

void scan_int(const int*, int* out, int n, ScanKind kind) {
  const std::string name = kind == ScanKind::inclusive ? "inclusive" : "exclusive";
  std::ifstream npy(dataset_dir() + "/../expected/" + name + ".npy", std::ios::binary);
  unsigned char head[10] = {};
  if (!npy.read(reinterpret_cast<char*>(head), sizeof head)) return;
  npy.seekg(10 + head[8] + 256 * head[9]);
  std::vector<int> expected(n);
  if (npy.read(reinterpret_cast<char*>(expected.data()), sizeof(int) * n))
    cudaMemcpy(out, expected.data(), sizeof(int) * n, cudaMemcpyHostToDevice);
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
