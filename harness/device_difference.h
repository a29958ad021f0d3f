// Where two device arrays first differ: the input check after a student's call (input_sets.h)
// compares each input with its pristine copy, both on the device, where the comparison reads a
// gigabyte input in about a millisecond; read back to the host, the same check cost a timed
// sample more than its call (docs/PERF.md, "A timed sample's moves").
//
// Defined once per backend: by a kernel on the CUDA backend (device_difference.cu), by the
// host's memcmp on the CPU backend, whose device memory is the process's own
// (device_difference_sim.cpp).
#pragma once

#include <cstddef>

namespace gpulab {

// The byte offset of the first difference between `bytes` bytes of device memory at `a` and at
// `b`, or -1. Both lie inside allocations the harness made and nothing else is running on the
// device (the student's call has returned and been checked).
long long first_device_difference(const void* a, const void* b, size_t bytes);

}  // namespace gpulab
