// CUDA's built-in vector types (char1 ... double4), dim3 and the make_* functions, with CUDA's
// sizes and alignments so that structs holding them have the same layout as on the GPU.
#pragma once

namespace gpulab_sim {}

#define GPULAB_SIM_VEC(name, T, a1, a2, a3, a4)                 \
  struct alignas(a1) name##1 {                                  \
    T x;                                                        \
  };                                                            \
  struct alignas(a2) name##2 {                                  \
    T x, y;                                                     \
  };                                                            \
  struct alignas(a3) name##3 {                                  \
    T x, y, z;                                                  \
  };                                                            \
  struct alignas(a4) name##4 {                                  \
    T x, y, z, w;                                               \
  };                                                            \
  inline constexpr name##1 make_##name##1(T x) {                \
    return name##1 {x};                                         \
  }                                                             \
  inline constexpr name##2 make_##name##2(T x, T y) {           \
    return name##2 {x, y};                                      \
  }                                                             \
  inline constexpr name##3 make_##name##3(T x, T y, T z) {      \
    return name##3 {x, y, z};                                   \
  }                                                             \
  inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { \
    return name##4 {x, y, z, w};                                \
  }

GPULAB_SIM_VEC(char, signed char, 1, 2, 1, 4)
GPULAB_SIM_VEC(uchar, unsigned char, 1, 2, 1, 4)
GPULAB_SIM_VEC(short, short, 2, 4, 2, 8)
GPULAB_SIM_VEC(ushort, unsigned short, 2, 4, 2, 8)
GPULAB_SIM_VEC(int, int, 4, 8, 4, 16)
GPULAB_SIM_VEC(uint, unsigned int, 4, 8, 4, 16)
GPULAB_SIM_VEC(long, long, 8, 16, 8, 16)
GPULAB_SIM_VEC(ulong, unsigned long, 8, 16, 8, 16)
GPULAB_SIM_VEC(longlong, long long, 8, 16, 8, 16)
GPULAB_SIM_VEC(ulonglong, unsigned long long, 8, 16, 8, 16)
GPULAB_SIM_VEC(float, float, 4, 8, 4, 16)
GPULAB_SIM_VEC(double, double, 8, 16, 8, 16)
#undef GPULAB_SIM_VEC

// dim3 converts from integers (missing dimensions are 1) and from uint3, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
