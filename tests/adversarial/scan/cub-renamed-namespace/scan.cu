
// The attack: CUB's DeviceScan under a namespace of the attacker's naming, by CUB's own macros.
// With CUB_DISABLE_NAMESPACE_MAGIC the versioned inline namespace (CUB_300001_SM_900) is gone,
// and `cub` itself is a macro, so the object's symbols name hidden::DeviceScan: neither cub:: nor
// a version namespace is left for a check of qualified names to find.
#define CUB_DISABLE_NAMESPACE_MAGIC
#define CUB_IGNORE_NAMESPACE_MAGIC_ERROR
#define cub hidden
#include <cub/device/device_scan.cuh>
#undef cub

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  static void* temp = nullptr;
  static size_t have = 0;
  size_t bytes = 0;
  hidden::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n);
  if (bytes > have) {
    cudaFree(temp);
    cudaMalloc(&temp, bytes);
    have = bytes;
  }
  if (kind == ScanKind::inclusive)
    hidden::DeviceScan::InclusiveSum(temp, bytes, in, out, n);
  else
    hidden::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
}
