// Hostile, appended to the reference solution: on the dataset of one item it writes a file of
// up to 4 GiB into its working directory (the run's output directory), ignoring SIGXFSZ, then
// computes the right result. The grader's file-size limit stops the file at its bound (1 GiB, or
// a little more than the largest expected output): the write fails there and the run passes.
#include <signal.h>

#include <cstdio>
#include <vector>

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  if (n == 1) {
    signal(SIGXFSZ, SIG_IGN);
    if (std::FILE* f = std::fopen("flood.bin", "wb")) {
      const std::vector<char> block(1 << 20, 'z');
      for (int i = 0; i < 4096 && std::fwrite(block.data(), 1, block.size(), f) == block.size();
           ++i) {
      }
      std::fclose(f);
    }
  }
  honest_scan_int(in, out, n, kind);
}
