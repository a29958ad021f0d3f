// Hostile (or merely broken): the host function writes through a null pointer.
#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  volatile int* nowhere = nullptr;
  *nowhere = 42;
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
