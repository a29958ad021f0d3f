// The header every rewritten file starts with (sim/README.md, "The contract"): CUDA's
// attributes, built-in types and variables, device intrinsics, the runtime API, launches,
// shared memory and instrumented accesses, all as plain C++ over the gpulab_sim runtime.
#pragma once

// The standard headers the runtime's headers use, first: in parse mode they stay host code.
#include <math.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// In parse mode every runtime function is __host__ __device__, so that device code may call it.
#if defined(__clang__) && defined(__CUDA__)
#pragma clang force_cuda_host_device begin
#endif
#include "atomics.h"
#include "findings.h"
#include "launch.h"
#include "math.h"
#include "memory.h"
#include "profile.h"
#include "runtime_api.h"
#include "state.h"
#include "sync.h"
#include "vector_types.h"
#if defined(__clang__) && defined(__CUDA__)
#pragma clang force_cuda_host_device end
#endif

#if defined(__clang__) && defined(__CUDA__)
#include "parse_mode.h"
#else
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
// Empty rather than __attribute__((noinline)): system headers spell __attribute__((__noinline__)).
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __managed__ _Pragma("GCC error \"__managed__ memory is not supported by gpulab sim\"")
#endif

namespace gpulab_sim::detail {
void trap(const char* file, int line);
long long clock_ns();
}  // namespace gpulab_sim::detail
#define __trap() ::gpulab_sim::detail::trap(__FILE__, __LINE__)
#define clock64() ::gpulab_sim::detail::clock_ns()
#define __nanosleep(ns) ((void)(ns))
