// Broken, with a fancy progress bar: the host function draws a bar of U+2588 blocks (3 bytes
// each in UTF-8), 10000 of them, redrawn with carriage returns, then writes through a null
// pointer. Its output is more than the grader keeps (16 KiB) and quotes (the last 2000 bytes),
// so both cuts fall inside the bar; a cut inside a character once made the report invalid
// UTF-8, and the grader wrote no report at all.
#include <unistd.h>

#include <string>

#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  // A title line of 10 bytes: with it the grader's 16 KiB cut falls inside a block (without,
  // the bar's 3-byte blocks happen to line up with it).
  std::string bar = "progress:\n";
  for (int step = 0; step < 10; ++step) {
    bar += "\r[";
    for (int i = 0; i < 1000; ++i) bar += "\xE2\x96\x88";
    bar += "] " + std::to_string(10 * (step + 1)) + "%";
  }
  // Unbuffered, so that all of it is out before the crash.
  for (size_t done = 0; done < bar.size();) {
    const ssize_t n = write(1, bar.data() + done, bar.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  volatile int* nowhere = nullptr;
  *nowhere = 42;
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
