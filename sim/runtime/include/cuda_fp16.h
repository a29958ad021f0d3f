// What `#include <cuda_fp16.h>` finds under sim: __half and __half2 as storage types with
// CUDA's conversions (round to nearest even) and arithmetic done in float.
#pragma once

#include <cstdint>
#include <cstring>

#include "gpulab_sim/sim.h"

#if defined(__clang__) && defined(__CUDA__)
#pragma clang force_cuda_host_device begin
#endif

struct alignas(2) __half {
  std::uint16_t bits;
};
struct alignas(4) __half2 {
  __half x, y;
};

inline __half __float2half_rn(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t abs = u & 0x7fffffffu;
  std::uint16_t h;
  if (abs > 0x7f800000u) {  // NaN
    h = static_cast<std::uint16_t>(sign | 0x7e00u);
  } else if (abs >= 0x477ff000u) {  // rounds to infinity
    h = static_cast<std::uint16_t>(sign | 0x7c00u);
  } else if (abs < 0x38800000u) {  // subnormal or zero: scale into the 10-bit mantissa
    const int shift = 113 - static_cast<int>(abs >> 23);
    if (shift > 24) {
      h = static_cast<std::uint16_t>(sign);
    } else {
      const std::uint32_t m = (abs & 0x7fffffu) | 0x800000u;
      std::uint32_t r = m >> (shift + 13);
      const std::uint32_t rest = m & ((1u << (shift + 13)) - 1), half = 1u << (shift + 12);
      if (rest > half || (rest == half && (r & 1))) ++r;
      h = static_cast<std::uint16_t>(sign | r);
    }
  } else {
    std::uint32_t r = ((abs - 0x38000000u) >> 13);
    const std::uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1))) ++r;
    h = static_cast<std::uint16_t>(sign | r);
  }
  return __half{h};
}
inline __half __float2half(float f) {
  return __float2half_rn(f);
}

inline float __half2float(__half h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h.bits & 0x8000u) << 16;
  const std::uint32_t exp = (h.bits >> 10) & 0x1fu, man = h.bits & 0x3ffu;
  std::uint32_t u;
  if (exp == 0x1f) {
    u = sign | 0x7f800000u | (man << 13);
  } else if (exp != 0) {
    u = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    u = sign;
  } else {  // subnormal: normalise
    int e = -1;
    std::uint32_t m = man;
    do {
      ++e;
      m <<= 1;
    } while (!(m & 0x400u));
    u = sign | static_cast<std::uint32_t>(112 - e) << 23 | ((m & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline __half2 __floats2half2_rn(float a, float b) {
  return {__float2half(a), __float2half(b)};
}
inline __half2 __float2half2_rn(float a) {
  return {__float2half(a), __float2half(a)};
}
inline float __low2float(__half2 h) {
  return __half2float(h.x);
}
inline float __high2float(__half2 h) {
  return __half2float(h.y);
}
inline __half __hadd(__half a, __half b) {
  return __float2half(__half2float(a) + __half2float(b));
}
inline __half __hsub(__half a, __half b) {
  return __float2half(__half2float(a) - __half2float(b));
}
inline __half __hmul(__half a, __half b) {
  return __float2half(__half2float(a) * __half2float(b));
}
inline __half __hdiv(__half a, __half b) {
  return __float2half(__half2float(a) / __half2float(b));
}
inline __half __hfma(__half a, __half b, __half c) {
  return __float2half(__half2float(a) * __half2float(b) + __half2float(c));
}
inline __half operator+(__half a, __half b) {
  return __hadd(a, b);
}
inline __half operator-(__half a, __half b) {
  return __hsub(a, b);
}
inline __half operator*(__half a, __half b) {
  return __hmul(a, b);
}
inline __half operator/(__half a, __half b) {
  return __hdiv(a, b);
}

#if defined(__clang__) && defined(__CUDA__)
#pragma clang force_cuda_host_device end
#endif
