// CUDA's atomics, truly atomic across blocks that run on different OS threads (GCC/Clang
// __atomic builtins; std::atomic_ref is C++20). Each checks its address like an access; atomics
// do not take part in the shared-memory hazard check (they do not race with each other); on
// global memory they are noted as atomic writes, which race only with plain writes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "memory.h"

namespace gpulab_sim::detail {
[[gnu::cold]] void atomic_check_slow(const void* p, std::size_t size, const char* file, int line,
                                     const char* func);
inline void atomic_check(const void* p, std::size_t size, const char* file, int line,
                         const char* func) {
  if (!cur_thread) return;
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t off = a - arena_base;
  if (off < arena_fast_size && a % size == 0) {
    const unsigned char* s = arena_shadow + off;
    if (size == 4 && shadow_all_init<4>(s)) {
      race_write<4>(off, race_tag | kRaceAtomic, false, file, line, func);
      return;
    }
    if (size == 8 && shadow_all_init<8>(s)) {
      race_write<8>(off, race_tag | kRaceAtomic, false, file, line, func);
      return;
    }
  }
  atomic_check_slow(p, size, file, line, func);
}
// After the running thread's atomic wrote the word at p (global_race.h, locks): a write to the
// lock it holds releases it; a CAS that turned 0 into another value (`acquire`), with no lock
// held, takes the word as its lock.
inline void lock_after_atomic(const void* p, bool acquire) {
  Thread* t = cur_thread;
  if (!t) return;
  const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - arena_base;
  if (off >= arena_size || off / 4 + 1 > UINT32_MAX) return;
  const auto word = static_cast<std::uint32_t>(off / 4 + 1);
  if (t->lock == word)
    t->lock = 0;
  else if (acquire && !t->lock)
    t->lock = word;
}
// Read-modify-write through a compare-and-swap loop (floats, min/max, inc/dec).
template <class T, class F>
inline T atomic_update(T* p, F f) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  T desired;
  do {
    desired = f(old);
  } while (!__atomic_compare_exchange(p, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  return old;
}
}  // namespace gpulab_sim::detail

namespace gpulab_sim::atom {
#define GPULAB_SIM_CHECK(p) detail::atomic_check(p, sizeof(*p), file, line, func)
#define GPULAB_SIM_SIG(T, name, ...)                           \
  inline T name(T* p, __VA_ARGS__, const char* file, int line, \
                const char* func = __builtin_FUNCTION())

// One read-modify-write that a GCC builtin does in one step, and one through a CAS loop.
#define GPULAB_SIM_FETCH(T, name, builtin)  \
  GPULAB_SIM_SIG(T, name, T v) {            \
    GPULAB_SIM_CHECK(p);                    \
    return builtin(p, v, __ATOMIC_SEQ_CST); \
  }
#define GPULAB_SIM_UPDATE(T, name, expr)                        \
  GPULAB_SIM_SIG(T, name, T v) {                                \
    GPULAB_SIM_CHECK(p);                                        \
    return detail::atomic_update(p, [v](T o) { return expr; }); \
  }

#define GPULAB_SIM_ATOMIC_INT(T)                                                    \
  GPULAB_SIM_FETCH(T, add, __atomic_fetch_add)                                      \
  GPULAB_SIM_FETCH(T, sub, __atomic_fetch_sub)                                      \
  GPULAB_SIM_FETCH(T, and_, __atomic_fetch_and)                                     \
  GPULAB_SIM_FETCH(T, or_, __atomic_fetch_or)                                       \
  GPULAB_SIM_FETCH(T, xor_, __atomic_fetch_xor)                                     \
  GPULAB_SIM_UPDATE(T, min, v < o ? v : o)                                          \
  GPULAB_SIM_UPDATE(T, max, v > o ? v : o)                                          \
  GPULAB_SIM_SIG(T, exch, T v) {                                                    \
    GPULAB_SIM_CHECK(p);                                                            \
    const T old = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                      \
    detail::lock_after_atomic(p, false);                                            \
    return old;                                                                     \
  }                                                                                 \
  GPULAB_SIM_SIG(T, cas, T expected, T desired) {                                   \
    GPULAB_SIM_CHECK(p);                                                            \
    const T compared = expected;                                                    \
    if (__atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, \
                                    __ATOMIC_SEQ_CST))                              \
      detail::lock_after_atomic(p, compared == 0 && desired != 0);                  \
    return expected;                                                                \
  }
GPULAB_SIM_ATOMIC_INT(int)
GPULAB_SIM_ATOMIC_INT(unsigned int)
GPULAB_SIM_ATOMIC_INT(unsigned long long)
GPULAB_SIM_ATOMIC_INT(long long)
#undef GPULAB_SIM_ATOMIC_INT

GPULAB_SIM_SIG(unsigned int, inc, unsigned int v) {
  GPULAB_SIM_CHECK(p);
  return detail::atomic_update(p, [v](unsigned o) { return o >= v ? 0u : o + 1; });
}
GPULAB_SIM_SIG(unsigned int, dec, unsigned int v) {
  GPULAB_SIM_CHECK(p);
  return detail::atomic_update(p, [v](unsigned o) { return (o == 0 || o > v) ? v : o - 1; });
}
#define GPULAB_SIM_ATOMIC_FLOAT(T)                    \
  GPULAB_SIM_UPDATE(T, add, o + v)                    \
  GPULAB_SIM_UPDATE(T, sub, o - v)                    \
  GPULAB_SIM_UPDATE(T, min, v < o ? v : o)            \
  GPULAB_SIM_UPDATE(T, max, v > o ? v : o)            \
  GPULAB_SIM_SIG(T, exch, T v) {                      \
    GPULAB_SIM_CHECK(p);                              \
    T old;                                            \
    __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST); \
    return old;                                       \
  }
GPULAB_SIM_ATOMIC_FLOAT(float)
GPULAB_SIM_ATOMIC_FLOAT(double)
#undef GPULAB_SIM_ATOMIC_FLOAT
#undef GPULAB_SIM_UPDATE
#undef GPULAB_SIM_FETCH
#undef GPULAB_SIM_SIG
#undef GPULAB_SIM_CHECK
}  // namespace gpulab_sim::atom

#define GPULAB_SIM_AT(op, ...) ::gpulab_sim::atom::op(__VA_ARGS__, __FILE__, __LINE__)
#define atomicAdd(p, v) GPULAB_SIM_AT(add, p, v)
#define atomicSub(p, v) GPULAB_SIM_AT(sub, p, v)
#define atomicExch(p, v) GPULAB_SIM_AT(exch, p, v)
#define atomicMin(p, v) GPULAB_SIM_AT(min, p, v)
#define atomicMax(p, v) GPULAB_SIM_AT(max, p, v)
#define atomicAnd(p, v) GPULAB_SIM_AT(and_, p, v)
#define atomicOr(p, v) GPULAB_SIM_AT(or_, p, v)
#define atomicXor(p, v) GPULAB_SIM_AT(xor_, p, v)
#define atomicInc(p, v) GPULAB_SIM_AT(inc, p, v)
#define atomicDec(p, v) GPULAB_SIM_AT(dec, p, v)
#define atomicCAS(p, c, v) GPULAB_SIM_AT(cas, p, c, v)
// Block- and system-scope variants: one memory, so the same operations.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicExch_block atomicExch
#define atomicCAS_block atomicCAS
#define atomicMin_block atomicMin
#define atomicMax_block atomicMax
