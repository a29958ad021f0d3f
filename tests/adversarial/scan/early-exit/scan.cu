// Hostile: ends the runner process with status 0 before it has written anything, hoping a
// clean exit reads as success.
#include <cstdlib>

#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  std::exit(0);
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
