// segmented-scan's baseline (driver_baseline.cu): CUB's scan by key, trusted, timed by
// `gpulab bench` beside the reference (grading does not time it: the rubric has no speedup).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// cub::DeviceScan::InclusiveSumByKey (or ExclusiveSumByKey) over the same values, keyed by
// int32 segment ids. The constructor computes the keys on the host from the head flags (the id
// of element i is the number of heads in 1..i), uploads one copy per input set and allocates
// CUB's temporary storage: none of that is timed. On the sim backend (CUB has no CPU back-end)
// the constructor throws std::runtime_error.
class CubScanByKey {
 public:
  CubScanByKey(const std::vector<uint8_t>& flags, int n_sets, bool inclusive);
  ~CubScanByKey();
  CubScanByKey(const CubScanByKey&) = delete;
  CubScanByKey& operator=(const CubScanByKey&) = delete;

  // Enqueues the scan of `in` (n floats, device) into `out` on the default stream, with the keys
  // of input set `set`.
  void run(int set, const float* in, float* out) const;
  const char* name() const;

 private:
  int n_ = 0;
  bool inclusive_ = true;
  std::vector<int*> keys_;
  void* temp_ = nullptr;
  size_t temp_bytes_ = 0;
};
