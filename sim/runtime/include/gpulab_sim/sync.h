// __syncthreads and the warp operations. Each is a barrier among fibers; the macros pass the
// call site so that divergence and mask errors name the student's line.
#pragma once

#include <cstring>
#include <type_traits>

namespace gpulab_sim::detail {

enum barrier_kind { bar_plain, bar_count, bar_and, bar_or };
int syncthreads(int kind, int pred, const char* file, int line);

enum warp_op {
  wop_sync,
  wop_shfl,
  wop_up,
  wop_down,
  wop_xor,
  wop_ballot,
  wop_any,
  wop_all,
  wop_add,
  wop_min,
  wop_max,
  wop_and,
  wop_or,
  wop_xor_reduce,
  wop_match_any,
  wop_active,  // __activemask: resolved when the block can go no further (warp.cpp)
};
unsigned long long warp_collective(int op, unsigned mask, unsigned long long value, int arg,
                                   int width, const char* file, int line);
unsigned active_mask(const char* file, int line);
void fence();

template <class T>
inline T shuffle(int op, unsigned mask, T v, int arg, int width, const char* file, int line) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                "shuffles move values of at most 8 bytes");
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  bits = warp_collective(op, mask, bits, arg, width, file, line);
  T r;
  std::memcpy(&r, &bits, sizeof(T));
  return r;
}
template <class T>
inline unsigned match_any(unsigned mask, T v, const char* file, int line) {
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return static_cast<unsigned>(warp_collective(wop_match_any, mask, bits, 0, 32, file, line));
}

}  // namespace gpulab_sim::detail

#define __syncthreads() ::gpulab_sim::detail::syncthreads(0, 1, __FILE__, __LINE__)
#define __syncthreads_count(p) ::gpulab_sim::detail::syncthreads(1, !!(p), __FILE__, __LINE__)
#define __syncthreads_and(p) ::gpulab_sim::detail::syncthreads(2, !!(p), __FILE__, __LINE__)
#define __syncthreads_or(p) ::gpulab_sim::detail::syncthreads(3, !!(p), __FILE__, __LINE__)
#define __syncwarp(...)                                                                            \
  ((void)::gpulab_sim::detail::warp_collective(0, ::gpulab_sim::detail::mask_or_full(__VA_ARGS__), \
                                               0, 0, 32, __FILE__, __LINE__))

#define GPULAB_SIM_SHFL(op, mask, v, arg, ...)                                                    \
  ::gpulab_sim::detail::shuffle(op, mask, v, arg, ::gpulab_sim::detail::width_or_32(__VA_ARGS__), \
                                __FILE__, __LINE__)
namespace gpulab_sim::detail {
inline int width_or_32() {
  return 32;
}
inline int width_or_32(int w) {
  return w;
}
inline unsigned mask_or_full() {
  return 0xffffffffu;
}
inline unsigned mask_or_full(unsigned m) {
  return m;
}
}  // namespace gpulab_sim::detail
#define __shfl_sync(mask, v, src, ...) \
  GPULAB_SIM_SHFL(::gpulab_sim::detail::wop_shfl, mask, v, src, ##__VA_ARGS__)
#define __shfl_up_sync(mask, v, d, ...) \
  GPULAB_SIM_SHFL(::gpulab_sim::detail::wop_up, mask, v, d, ##__VA_ARGS__)
#define __shfl_down_sync(mask, v, d, ...) \
  GPULAB_SIM_SHFL(::gpulab_sim::detail::wop_down, mask, v, d, ##__VA_ARGS__)
#define __shfl_xor_sync(mask, v, m, ...) \
  GPULAB_SIM_SHFL(::gpulab_sim::detail::wop_xor, mask, v, m, ##__VA_ARGS__)
#define GPULAB_SIM_VOTE(op, mask, p) \
  static_cast<unsigned>(             \
      ::gpulab_sim::detail::warp_collective(op, mask, p, 0, 32, __FILE__, __LINE__))
#define __ballot_sync(mask, p) GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_ballot, mask, !!(p))
#define __any_sync(mask, p) \
  static_cast<int>(GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_any, mask, !!(p)))
#define __all_sync(mask, p) \
  static_cast<int>(GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_all, mask, !!(p)))
#define __reduce_add_sync(mask, v) \
  GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_add, mask, (unsigned)(v))
#define __reduce_min_sync(mask, v) \
  GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_min, mask, (unsigned)(v))
#define __reduce_max_sync(mask, v) \
  GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_max, mask, (unsigned)(v))
#define __reduce_and_sync(mask, v) \
  GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_and, mask, (unsigned)(v))
#define __reduce_or_sync(mask, v) GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_or, mask, (unsigned)(v))
#define __reduce_xor_sync(mask, v) \
  GPULAB_SIM_VOTE(::gpulab_sim::detail::wop_xor_reduce, mask, (unsigned)(v))
#define __match_any_sync(mask, v) ::gpulab_sim::detail::match_any(mask, v, __FILE__, __LINE__)
#define __activemask() ::gpulab_sim::detail::active_mask(__FILE__, __LINE__)
#define __threadfence() ::gpulab_sim::detail::fence()
#define __threadfence_block() ::gpulab_sim::detail::fence()
#define __threadfence_system() ::gpulab_sim::detail::fence()
