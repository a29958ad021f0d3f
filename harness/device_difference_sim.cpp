#include <cstring>

#include "device_difference.h"

namespace gpulab {

// The CPU backend's device memory is the process's own: compared where it lies, whatever the
// runtime's record of its initialisation (the inputs were written by a device-to-device copy).
long long first_device_difference(const void* a, const void* b, size_t bytes) {
  const auto* x = static_cast<const unsigned char*>(a);
  const auto* y = static_cast<const unsigned char*>(b);
  if (bytes == 0 || std::memcmp(x, y, bytes) == 0) return -1;
  for (size_t i = 0; i < bytes; ++i)
    if (x[i] != y[i]) return static_cast<long long>(i);
  return -1;
}

}  // namespace gpulab
