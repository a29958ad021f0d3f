// Hostile: the host function never returns. The grader kills the run at its time limit.
#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  volatile bool forever = true;
  while (forever) {
  }
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
