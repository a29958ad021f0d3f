// scan's baseline (driver_baseline.cu): CUB's device-wide scan, the library bar the reference is
// measured against in `gpulab bench scan`.
#pragma once

#include "scan.h"

void baseline_cub_scan(const int* in, int* out, int n, ScanKind kind);
