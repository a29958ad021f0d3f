
// The attack: the int scans handed to Thrust, which calls CUB's DeviceScan. No cub:: in the
// source, but the headers the compiler reads are Thrust's scan and CUB's.
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  if (kind == ScanKind::inclusive)
    thrust::inclusive_scan(thrust::device, in, in + n, out);
  else
    thrust::exclusive_scan(thrust::device, in, in + n, out);
}
