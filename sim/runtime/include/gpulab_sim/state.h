// The running CUDA thread's state as device code sees it: threadIdx, blockIdx, blockDim,
// gridDim read the fiber that runs now. Per OS thread (`__thread`: no TLS wrapper calls on the
// hot path), set by the executor when it switches fibers.
#pragma once

#include <atomic>
#include <cstdint>

#include "vector_types.h"

namespace gpulab_sim::detail {

struct Block;
struct Worker;

enum class tstate : unsigned char { unstarted, running, barrier, warp, exited };

struct Thread {
  uint3 idx;
  unsigned linear;  // x fastest; lane = linear % 32, warp = linear / 32
  tstate state;
  Block* block;
  Worker* worker;  // the fiber running this thread
  // Where the thread waits at __syncthreads, and its predicate.
  const char* bar_file;
  int bar_line;
  int bar_pred;
  // The warp operation the thread waits in, its operand and result.
  unsigned wmask;
  int wop;
  int warg;
  int wwidth;
  unsigned long long wvalue;
  unsigned long long wresult;
  const char* wfile;
  int wline;
  // The lock this thread holds (global_race.h): its word's index in the arena plus one, or 0.
  std::uint32_t lock;
};

// The part of a block (internal.h) that the loop over its threads reads and writes per thread,
// inline in every launch (launch.h).
struct BlockRun {
  Thread* thread0 = nullptr;  // the block's threads; only [0, next) hold state of this block
  unsigned n = 0;             // threads
  unsigned next = 0;          // first thread not started yet
  unsigned live = 0;          // threads not exited
  unsigned arrived = 0;       // threads waiting at __syncthreads
  unsigned warp_groups = 0;   // pending warp operations, over all warps
  const std::atomic<bool>* aborted = nullptr;  // the launch's: an error stops it
  std::uint64_t race_base = 0;                 // this block's part of its threads' race tags
};

struct Coords {
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};

// The untracked range (a symbol, the fiber's own stack) the OS thread touched last.
struct Cache {
  std::uintptr_t lo;
  std::uintptr_t len;
};

extern __thread Thread* cur_thread;
extern __thread const Coords* cur_coords;
extern __thread Cache cache;

inline const uint3& thread_idx() {
  return cur_thread->idx;
}
inline const uint3& block_idx() {
  return cur_coords->block_idx;
}
inline const dim3& block_dim() {
  return cur_coords->block_dim;
}
inline const dim3& grid_dim() {
  return cur_coords->grid_dim;
}

}  // namespace gpulab_sim::detail

#define threadIdx (::gpulab_sim::detail::thread_idx())
#define blockIdx (::gpulab_sim::detail::block_idx())
#define blockDim (::gpulab_sim::detail::block_dim())
#define gridDim (::gpulab_sim::detail::grid_dim())
// A variable, not a macro, so that cudaDeviceProp::warpSize still names the member.
static constexpr int warpSize = 32;
