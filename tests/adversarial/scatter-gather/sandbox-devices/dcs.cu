// Hostile, for a GPU: the CPU part unhides the GPU (CUDA_VISIBLE_DEVICES) and asks the CUDA
// runtime for devices, and the gather part lists /dev for devices beyond the NVIDIA ones. The
// sandbox gives a CPU part's run no GPU device node, and a GPU part's run only the NVIDIA ones.
#include <cuda_runtime.h>
#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "dcs.h"

namespace {

[[noreturn]] void verdict(const std::string& what) {
  std::printf("gpulab-adversarial: %s\n", what.c_str());
  std::fflush(stdout);
  std::exit(3);
}

}  // namespace

void dcs_scatter(const float*, int, Lattice, float*) {}

void dcs_gather(const float*, int, Lattice, float*) {
  // bubblewrap's minimal /dev, and the GPU's own nodes.
  const std::set<std::string> minimal = {".",      "..",  "core",    "fd",  "full",   "null",
                                         "ptmx",   "pts", "random",  "shm", "stderr", "stdin",
                                         "stdout", "tty", "urandom", "zero"};
  std::string unexpected;
  bool gpu = false;
  if (DIR* dev = opendir("/dev")) {
    while (dirent* e = readdir(dev)) {
      const std::string name = e->d_name;
      if (name.rfind("nvidia", 0) == 0)
        gpu = true;
      else if (!minimal.count(name))
        unexpected += " /dev/" + name;
    }
    closedir(dev);
  }
  if (!unexpected.empty()) verdict("devices beyond the GPU's:" + unexpected);
  verdict(gpu ? "devices as expected" : "no NVIDIA device node in a GPU part");
}

void dcs_cpu_fast(const float*, int, Lattice, float*) {
  unsetenv("CUDA_VISIBLE_DEVICES");
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0)
    verdict("a CPU part can use " + std::to_string(count) + " GPU(s)");
  verdict("devices as expected");
}
