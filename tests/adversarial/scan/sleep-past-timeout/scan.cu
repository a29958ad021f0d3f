// Hostile: sleeps for an hour, using no CPU time, so only the wall-clock limit can stop it.
#include <chrono>
#include <thread>

#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  std::this_thread::sleep_for(std::chrono::hours(1));
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
