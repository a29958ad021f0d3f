// Hostile, appended to the reference (expect.json renames its spmv_csr): before any work,
// spmv_csr dlopen()s libraries that every grading machine has but that no runner loads: those
// gpulab itself uses (libarchive, OpenSSL's libcrypto, zlib) and the CUDA toolkit's cuSPARSE,
// cuBLAS and NVRTC, by name and by their paths under /usr/local/cuda. Should any load, it says so
// and computes the honest answer: a library would be there to do the work. A run's sandbox holds
// only the files its runner loads, so each dlopen fails; it then says that and exits, and the
// grader quotes it.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

void spmv_csr(CsrMatrix a, const float* x, float* y) {
  static const char* const kLibraries[] = {
      "libarchive.so.13",
      "libarchive.so",
      "libcrypto.so.3",
      "libcrypto.so",
      "libz.so.1",
      "libz.so",
      "libcusparse.so",
      "libcublas.so",
      "libnvrtc.so",
      "/usr/local/cuda/lib64/libcusparse.so",
      "/usr/local/cuda/lib64/libcublas.so",
      "/usr/local/cuda/lib64/libnvrtc.so",
      "/usr/local/cuda/targets/x86_64-linux/lib/libcusparse.so",
      "/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so",
      "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so",
      "/usr/local/cuda/targets/sbsa-linux/lib/libcusparse.so",
  };
  int loaded = 0;
  for (const char* name : kLibraries)
    if (dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
      std::printf("gpulab-adversary: loaded %s\n", name);
      ++loaded;
    }
  if (loaded > 0) {
    honest_spmv_csr(a, x, y);
    return;
  }
  std::printf("gpulab-adversary: every dlopen failed (%zu libraries)\n",
              sizeof kLibraries / sizeof *kLibraries);
  std::fflush(stdout);
  std::exit(3);
}
