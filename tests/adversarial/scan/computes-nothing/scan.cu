// The honest twin of link-expected-output and borrow-record: the same submission without their
// links. It computes nothing and leaves its output folder as the runner wrote it, so it scores
// zero: what those two must score too.
#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
