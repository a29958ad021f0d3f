// Hostile: on the dataset of one item, a fork bomb: each of nine rounds doubles the processes
// (up to 512), and every new one leaves the session, so that killing the run's process group
// misses it, and sleeps for half a minute. The sandbox's process limit refuses forks past it,
// and its pid namespace ends them all with the run. It computes nothing.
#include <unistd.h>

#include <cstdio>

#include "scan.h"

void scan_int(const int*, int*, int n, ScanKind) {
  if (n != 1) return;
  const pid_t original = getpid();
  int refused = 0;
  for (int round = 0; round < 9; ++round)
    if (fork() < 0) ++refused;
  if (getpid() != original) {
    setsid();
    sleep(30);
    _exit(0);
  }
  std::printf("gpulab-adversary: %d forks refused\n", refused);
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
