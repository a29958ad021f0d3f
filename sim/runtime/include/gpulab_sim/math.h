// CUDA's device math intrinsics with plain float semantics (the fast-math variants are exact
// here), the integer bit intrinsics, and CUDA's global min/max overloads.
#pragma once

#include <math.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace gpulab_sim::detail {
template <class To, class From>
inline To bit_cast(From f) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &f, sizeof(t));
  return t;
}
}  // namespace gpulab_sim::detail

// glibc declares __expf, __sinf, ... as host functions; when clang parses CUDA, ours are
// device overloads of them (a __host__ __device__ one may not overload a __host__ one).
#if defined(__clang__) && defined(__CUDA__)
#define GPULAB_SIM_GLIBC_TWIN __attribute__((device))
#else
#define GPULAB_SIM_GLIBC_TWIN
#endif

inline float rsqrtf(float x) {
  return 1.0f / std::sqrt(x);
}
inline double rsqrt(double x) {
  return 1.0 / std::sqrt(x);
}
inline float rcbrtf(float x) {
  return 1.0f / std::cbrt(x);
}
inline float __fdividef(float a, float b) {
  return a / b;
}
inline float __frsqrt_rn(float x) {
  return 1.0f / std::sqrt(x);
}
inline float __fsqrt_rn(float x) {
  return std::sqrt(x);
}
inline float __frcp_rn(float x) {
  return 1.0f / x;
}
#if defined(__clang__) && defined(__CUDA__)
#pragma clang force_cuda_host_device end
#endif
GPULAB_SIM_GLIBC_TWIN inline float __expf(float x) {
  return std::exp(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __exp10f(float x) {
  return std::pow(10.0f, x);
}
GPULAB_SIM_GLIBC_TWIN inline float __logf(float x) {
  return std::log(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __log2f(float x) {
  return std::log2(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __log10f(float x) {
  return std::log10(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __sinf(float x) {
  return std::sin(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __cosf(float x) {
  return std::cos(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __tanf(float x) {
  return std::tan(x);
}
GPULAB_SIM_GLIBC_TWIN inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
GPULAB_SIM_GLIBC_TWIN inline float __powf(float a, float b) {
  return std::pow(a, b);
}
#if defined(__clang__) && defined(__CUDA__)
#pragma clang force_cuda_host_device begin
#endif
inline float __fmaf_rn(float a, float b, float c) {
  return std::fma(a, b, c);
}
inline float __fmaf_rz(float a, float b, float c) {
  return std::fma(a, b, c);
}
inline double __fma_rn(double a, double b, double c) {
  return std::fma(a, b, c);
}
inline float __fadd_rn(float a, float b) {
  return a + b;
}
inline float __fsub_rn(float a, float b) {
  return a - b;
}
inline float __fmul_rn(float a, float b) {
  return a * b;
}
inline float __fdiv_rn(float a, float b) {
  return a / b;
}
inline double __dadd_rn(double a, double b) {
  return a + b;
}
inline double __dmul_rn(double a, double b) {
  return a * b;
}
inline float __saturatef(float x) {
  return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}  // NaN -> 0

inline int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) {
  return __builtin_ffs(x);
}
inline int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
inline unsigned int __brev(unsigned int x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
inline int __mul24(int a, int b) {
  return a * b;
}
inline unsigned __umul24(unsigned a, unsigned b) {
  return a * b;
}
inline int __mulhi(int a, int b) {
  return static_cast<int>((static_cast<long long>(a) * b) >> 32);
}
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned __sad(int a, int b, unsigned c) {
  return c + static_cast<unsigned>(a > b ? a - b : b - a);
}
inline unsigned __usad(unsigned a, unsigned b, unsigned c) {
  return c + (a > b ? a - b : b - a);
}

inline float __int_as_float(int x) {
  return gpulab_sim::detail::bit_cast<float>(x);
}
inline int __float_as_int(float x) {
  return gpulab_sim::detail::bit_cast<int>(x);
}
inline float __uint_as_float(unsigned x) {
  return gpulab_sim::detail::bit_cast<float>(x);
}
inline unsigned __float_as_uint(float x) {
  return gpulab_sim::detail::bit_cast<unsigned>(x);
}
inline double __longlong_as_double(long long x) {
  return gpulab_sim::detail::bit_cast<double>(x);
}
inline long long __double_as_longlong(double x) {
  return gpulab_sim::detail::bit_cast<long long>(x);
}
inline int __float2int_rn(float x) {
  return static_cast<int>(std::nearbyint(x));
}
inline int __float2int_rz(float x) {
  return static_cast<int>(x);
}
inline int __float2int_ru(float x) {
  return static_cast<int>(std::ceil(x));
}
inline int __float2int_rd(float x) {
  return static_cast<int>(std::floor(x));
}
inline unsigned __float2uint_rn(float x) {
  return static_cast<unsigned>(std::nearbyint(x));
}
inline unsigned __float2uint_rz(float x) {
  return static_cast<unsigned>(x);
}
inline float __int2float_rn(int x) {
  return static_cast<float>(x);
}
inline float __uint2float_rn(unsigned x) {
  return static_cast<float>(x);
}
inline int __double2int_rn(double x) {
  return static_cast<int>(std::nearbyint(x));
}
inline float __double2float_rn(double x) {
  return static_cast<float>(x);
}
inline long long __float2ll_rn(float x) {
  return static_cast<long long>(std::nearbyint(x));
}

// CUDA declares min/max for these pairs in the global namespace; non-templates, so that they
// win over std::min/std::max after `using namespace std;`.
#define GPULAB_SIM_MINMAX(R, A, B)    \
  inline R min(A a, B b) {            \
    return (R)a < (R)b ? (R)a : (R)b; \
  }                                   \
  inline R max(A a, B b) {            \
    return (R)a > (R)b ? (R)a : (R)b; \
  }
GPULAB_SIM_MINMAX(int, int, int)
GPULAB_SIM_MINMAX(unsigned, unsigned, unsigned)
GPULAB_SIM_MINMAX(unsigned, int, unsigned)
GPULAB_SIM_MINMAX(unsigned, unsigned, int)
GPULAB_SIM_MINMAX(long, long, long)
GPULAB_SIM_MINMAX(unsigned long, unsigned long, unsigned long)
GPULAB_SIM_MINMAX(long long, long long, long long)
GPULAB_SIM_MINMAX(unsigned long long, unsigned long long, unsigned long long)
GPULAB_SIM_MINMAX(unsigned long long, long long, unsigned long long)
GPULAB_SIM_MINMAX(unsigned long long, unsigned long long, long long)
GPULAB_SIM_MINMAX(double, double, double)
GPULAB_SIM_MINMAX(double, float, double)
GPULAB_SIM_MINMAX(double, double, float)
#undef GPULAB_SIM_MINMAX
inline float min(float a, float b) {
  return std::fmin(a, b);
}
inline float max(float a, float b) {
  return std::fmax(a, b);
}
