// The inline half of the global-memory race detector (global_race.cpp has the rest). Fibers
// never interleave inside a statement, so `p[i] += v` from many threads computes the right sum
// on the CPU while it loses updates on a GPU: the detector looks at who wrote each word instead.
// Per 4-byte word of the device arena, a tag of its last writer in the current launch (launch
// sequence number, block, thread, the block's barrier epoch, atomic or not) and where it wrote.
// A write to a word that another thread wrote in the same launch, not ordered by a
// __syncthreads() of one block, not both atomic and not both made under the same lock, is a
// race. The fast path is one load and compare, and a store when the word changes hands;
// anything else goes to race_slow().
//
// A lock is a word that a thread's atomicCAS turned from 0 to another value while it held no
// lock; the holder's next atomic write to that word (atomicExch, atomicCAS) or plain store to it
// releases it (atomics.h, race_slow). Per word, the lock its last writer held (race_locks):
// two writes under one lock are ordered by it on a GPU too, so they do not race. One lock at a
// time: a lock taken while another is held is not followed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "state.h"

namespace gpulab_sim::detail {

// Tag bits, high to low: launch sequence (20), block (20), thread in block (10), barrier epoch
// (13), atomic (1). The sequence is never 0, so 0 is "not written in a launch" and is also the
// tag of host code: host writes never race and just clear the word's owner.
constexpr unsigned kRaceSeqShift = 44, kRaceBlockShift = 24, kRaceThreadShift = 14,
                   kRaceEpochShift = 1;
constexpr std::uint64_t kRaceSeqMask = 0xfffff, kRaceBlockMask = 0xfffff, kRaceThreadMask = 0x3ff,
                        kRaceEpochMask = 0x1fff, kRaceAtomic = 1;

extern std::uint64_t* race_tags;         // one per word of the arena (memory.cpp reserves them)
extern std::uint32_t* race_sites;        // one per word: file id << 20 | line of that write
extern std::uint32_t* race_locks;        // one per word: the lock held at that write, or 0
extern __thread std::uint64_t race_tag;  // the running CUDA thread's tag (block.cpp)

// The lock the running thread holds (0: none, or host code).
inline std::uint32_t race_held_lock() {
  return cur_thread ? cur_thread->lock : 0;
}

struct RaceSiteCache {
  const char* file;
  std::uint32_t id;
};
extern __thread RaceSiteCache race_site_cache;
[[gnu::cold]] std::uint32_t race_file_id(const char* file);
// store: a plain store (`=`), whose value decides whether a race with another plain store lost
// anything; false for read-modify-writes and atomics.
[[gnu::cold]] void race_slow(std::uintptr_t off, std::uint64_t tag, bool store, const char* file,
                             int line, const char* func);
// A race between two plain stores waits for the second one's value (global_race.cpp): settled at
// the thread's next barrier, warp operation or exit.
extern __thread bool race_pending;
void race_settle();

inline std::uint32_t race_site(const char* file, int line) {
  const std::uint32_t id = file == race_site_cache.file ? race_site_cache.id : race_file_id(file);
  return id << 20 | (static_cast<std::uint32_t>(line) & 0xfffff);
}

// A write of N bytes (a multiple of 4) at arena offset off (a multiple of 4).
template <std::size_t N>
inline void race_write(std::uintptr_t off, std::uint64_t tag, bool store, const char* file,
                       int line, const char* func) {
  static_assert(N % 4 == 0, "whole words only");
  std::uint64_t* r = race_tags + off / 4;
  for (std::size_t k = 0; k < N / 4; ++k) {
    const std::uint64_t v = __atomic_load_n(r + k, __ATOMIC_RELAXED);
    if (v == tag) continue;  // this thread wrote it last, in this barrier interval
    if ((v ^ tag) >> kRaceSeqShift || (v & tag & kRaceAtomic)) {  // new launch, or atomics
      __atomic_store_n(r + k, tag, __ATOMIC_RELAXED);
      __atomic_store_n(race_sites + off / 4 + k, race_site(file, line), __ATOMIC_RELAXED);
      // Written only where a lock is or was on record: most words never see one.
      const std::uint32_t lock = race_held_lock();
      std::uint32_t* l = race_locks + off / 4 + k;
      if (lock || __atomic_load_n(l, __ATOMIC_RELAXED)) __atomic_store_n(l, lock, __ATOMIC_RELAXED);
    } else {
      race_slow(off + 4 * k, tag, store, file, line, func);
    }
  }
}

// Every write through an access() of type T; sub-word writes (char, short) are not tracked, as
// neighbours in one word are not the same location.
template <class T>
inline void race_note(std::uintptr_t off, bool store, const char* file, int line,
                      const char* func) {
  if constexpr (sizeof(T) % 4 == 0) {
    if (alignof(T) % 4 == 0 || off % 4 == 0)
      race_write<sizeof(T)>(off, race_tag, store, file, line, func);
  }
}

}  // namespace gpulab_sim::detail
