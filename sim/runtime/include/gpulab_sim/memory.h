// Instrumented memory accesses (contract item 4), __shared__ objects (item 2) and symbol
// registration (item 3). All cudaMalloc'd memory lies in one reserved arena with a shadow byte
// per byte (0: no allocation / red zone, 1: allocated but never written, 2: written), so the
// inline fast path of access() is a range check and one shadow load, with no lookup and no
// lock (writes also note their writer for the race detector, global_race.h); symbols and the
// fiber's own stack hit a one-entry cache; anything else (shared memory, errors, uninitialised
// bytes) goes to access_slow() in the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "global_race.h"
#include "state.h"

namespace gpulab_sim {

enum mode : unsigned { rd = 1, wr = 2, rw = 3 };

namespace detail {
constexpr unsigned mode_atomic = 4;  // an atomic's check (atomics.h), beside rd, wr and rw
[[gnu::cold]] void* access_slow(const void* p, std::size_t size, std::size_t align, unsigned mode,
                                const char* file, int line, const char* func);
void* shared_object(const void* tag, int id, const void* type_key, std::size_t size,
                    std::size_t align, const char* name, const char* file, int line);
void* dynamic_shared_base(const char* file, int line);
void register_symbol(const void* addr, std::size_t size, const char* name);

// The device-memory arena and its shadow (memory.cpp); size 0 until the first allocation.
extern std::uintptr_t arena_base;
extern std::uintptr_t arena_size;
// What the inline fast paths take for arena_size: the same, or 0 while the cost model counts
// (profile.h), so that every access then takes access_slow, which notes it. Counting costs the
// fast paths nothing while it is off.
extern std::uintptr_t arena_fast_size;
extern unsigned char* arena_shadow;
constexpr unsigned char shadow_none = 0, shadow_uninit = 1, shadow_init = 2;

// n is a constant after inlining, so these are one load and one compare for 1, 2, 4, 8 bytes.
template <std::size_t N>
inline bool shadow_all_init(const unsigned char* s) {
  if constexpr (N == 4) {
    std::uint32_t v;
    std::memcpy(&v, s, 4);
    return v == 0x02020202u;
  } else if constexpr (N == 8) {
    std::uint64_t v;
    std::memcpy(&v, s, 8);
    return v == 0x0202020202020202ull;
  } else {
    for (std::size_t i = 0; i < N; ++i)
      if (s[i] != shadow_init) return false;
    return true;
  }
}
template <std::size_t N>
inline bool shadow_all_allocated(const unsigned char* s) {
  if constexpr (N == 4) {
    std::uint32_t v;
    std::memcpy(&v, s, 4);
    return ((v - 0x01010101u) & ~v & 0x80808080u) == 0;  // no zero byte
  } else if constexpr (N == 8) {
    std::uint64_t v;
    std::memcpy(&v, s, 8);
    return ((v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull) == 0;
  } else {
    for (std::size_t i = 0; i < N; ++i)
      if (s[i] == shadow_none) return false;
    return true;
  }
}
template <class T>
struct type_key {
  static constexpr char key = 0;
};
// The macro whose definition holds the access being checked, for the findings' messages (set
// only around an access_ref that the rewriter placed in a macro's body).
struct macro_site {
  const char* name;
  const char* file;
  int line;
};
inline thread_local const macro_site* in_macro = nullptr;
struct macro_scope {
  const macro_site* outer;
  explicit macro_scope(const macro_site* s) : outer(in_macro) { in_macro = s; }
  ~macro_scope() { in_macro = outer; }
  macro_scope(const macro_scope&) = delete;
  macro_scope& operator=(const macro_scope&) = delete;
};
// The rewriter's count of accesses it could not instrument in one file (memory.cpp reports it).
void report_not_instrumented(int count, const char* file, int line);
}  // namespace detail

// Unchecked mode (-DGPULAB_SIM_UNCHECKED, `gpulab sim-cc --unchecked`): an access is the plain
// pointer, so nothing is checked and a kernel runs as fast as plain C++ would. The two modes'
// inline functions are in different inline namespaces, so that files built in different modes
// can be linked together without one mode's definition standing in for the other's.
#ifdef GPULAB_SIM_UNCHECKED
inline namespace unchecked {
template <class T>
inline T* access(T* p, unsigned, const char*, int, const char* = nullptr) {
  return p;
}
template <class T>
inline T& access_ref(T& e, unsigned, const char*, int, const char* = nullptr) {
  return e;
}
template <class T>
inline T& access_ref(T& e, unsigned, const char*, int, const char*, const char*, int,
                     const char* = nullptr) {
  return e;
}
struct not_instrumented {
  not_instrumented(int, const char*, int) {}
};
}  // namespace unchecked
#else
inline namespace checked {
template <class T>
inline T* access(T* p, unsigned m, const char* file, int line,
                 const char* func = __builtin_FUNCTION()) {
  // (Host code calling a __host__ __device__ function ends in access_slow, which lets it be.)
  constexpr std::size_t n = sizeof(T);
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t off = a - detail::arena_base;
  if (off < detail::arena_fast_size) {
    if (a % alignof(T) == 0) {
      unsigned char* s = detail::arena_shadow + off;
      if (m == wr) {
        if (detail::shadow_all_allocated<n>(s)) {
          std::memset(s, detail::shadow_init, n);
          detail::race_note<T>(off, true, file, line, func);
          return p;
        }
      } else if (detail::shadow_all_init<n>(s)) {
        if (m == rw) detail::race_note<T>(off, false, file, line, func);
        return p;
      }
    }
  } else if (a - detail::cache.lo < detail::cache.len &&
             detail::cache.len - (a - detail::cache.lo) >= n) {
    return p;
  }
  // Through const volatile void*: T may be volatile (the classic volatile warp reduction).
  const void* q = const_cast<const void*>(static_cast<const volatile void*>(p));
  return static_cast<T*>(detail::access_slow(q, n, alignof(T), m, file, line, func));
}
// What the rewriter wraps where one text is compiled several times (a template's body, a macro's
// body), so that it may be a location in one and a value in another: a location is checked as
// access() checks it, a value passes through (access_ref below). In a macro's body it also names
// the macro, whose use __FILE__ and __LINE__ name.
template <class T>
inline T& access_ref(T& e, unsigned m, const char* file, int line,
                     const char* func = __builtin_FUNCTION()) {
  return *access(__builtin_addressof(e), m, file, line, func);
}
template <class T>
inline T& access_ref(T& e, unsigned m, const char* file, int line, const char* macro,
                     const char* macro_file, int macro_line,
                     const char* func = __builtin_FUNCTION()) {
  const detail::macro_site site{macro, macro_file, macro_line};
  detail::macro_scope scope(&site);
  return *access(__builtin_addressof(e), m, file, line, func);
}
// Named in the rewritten file's first lines where the rewriter left accesses unchecked.
struct not_instrumented {
  not_instrumented(int count, const char* file, int line) {
    detail::report_not_instrumented(count, file, line);
  }
};
}  // namespace checked
#endif

// A value where access_ref's text is a location elsewhere: nothing to check, in either mode.
template <class T, class = std::enable_if_t<!std::is_lvalue_reference_v<T>>>
inline T access_ref(T&& e, unsigned, const char*, int, const char* = nullptr) {
  return static_cast<T&&>(e);
}
template <class T, class = std::enable_if_t<!std::is_lvalue_reference_v<T>>>
inline T access_ref(T&& e, unsigned, const char*, int, const char*, const char*, int,
                    const char* = nullptr) {
  return static_cast<T&&>(e);
}

// The running block's own copy of a __shared__ variable of type T (an array type usually).
template <class T>
inline T& shared(const void* tag, int id, const char* name, const char* file, int line) {
  return *static_cast<T*>(detail::shared_object(tag, id, &detail::type_key<T>::key, sizeof(T),
                                                alignof(T), name, file, line));
}
template <class T>
inline T* dynamic_shared(const char* file, int line) {
  return static_cast<T*>(detail::dynamic_shared_base(file, line));
}

// A namespace-scope __device__/__constant__ variable, known to the bounds checker.
struct symbol {
  symbol(const void* addr, std::size_t size, const char* name) {
    detail::register_symbol(addr, size, name);
  }
};

}  // namespace gpulab_sim

// __ldg reads through the pointer: checked like any read (in the mode's namespace: it calls
// the mode's access).
namespace gpulab_sim {
#ifdef GPULAB_SIM_UNCHECKED
inline namespace unchecked {
#else
inline namespace checked {
#endif
template <class T>
inline T ldg(const T* p, const char* file, int line) {
  return *::gpulab_sim::access(p, ::gpulab_sim::rd, file, line);
}
}  // namespace checked or unchecked
}  // namespace gpulab_sim
#define __ldg(p) ::gpulab_sim::ldg((p), __FILE__, __LINE__)
