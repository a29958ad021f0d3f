
// The attack: the int scans handed to Thrust, which calls CUB's DeviceScan. No cub:: in the
// source, but the object's symbols name CUB's scan kernels.
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  if (kind == ScanKind::inclusive)
    thrust::inclusive_scan(thrust::device, in, in + n, out);
  else
    thrust::exclusive_scan(thrust::device, in, in + n, out);
}
