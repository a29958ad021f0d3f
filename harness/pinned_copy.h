// Copies between a large host range the harness does not own the pages of (a dataset's mapped
// file, the memory file an output is handed over in) and device memory, at the bus's pinned
// speed: the range is page-locked for the copy's duration (cudaHostRegister) and released after.
// A pageable copy of the same gigabyte goes through the driver's staging buffer at a fraction of
// that (docs/PERF.md, "A timed sample's moves"). Where the range cannot be locked (a driver or a
// tool that refuses it), the copy is the pageable one, and the refusal is cleared so that no
// later check reads it as the student's error. On the CPU backend, a plain copy.
#pragma once

#include <cstddef>

namespace gpulab {

// `bytes` from `host`, which nothing writes during the copy, to the device at `device`.
void copy_to_device_pinned(void* device, const void* host, size_t bytes);

// `bytes` from the device at `device` to `host`, a writable mapping.
void copy_to_host_pinned(void* host, const void* device, size_t bytes);

}  // namespace gpulab
