// Hostile, appended to the reference solution: on the dataset of one item it prints 2 GiB to
// stdout, then computes the right result. The grader keeps a bounded tail of what a run prints
// and counts the rest: the run passes and the report stays small.
#include <cstdio>
#include <string>

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  if (n == 1) {
    const std::string line(1023, 'y');
    for (int i = 0; i < 2 * 1024 * 1024; ++i) std::puts(line.c_str());
    std::fflush(stdout);
  }
  honest_scan_int(in, out, n, kind);
}
