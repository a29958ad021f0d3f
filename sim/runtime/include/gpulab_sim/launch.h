// Kernel launches (contract item 1): the arguments are copied once, the configuration is
// checked like CUDA does, then every CUDA thread calls the rewriter's lambda with its own copy.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "global_race.h"
#include "runtime_api.h"
#include "state.h"

namespace gpulab_sim {
namespace detail {
using run_fn = void (*)(void* ctx, Worker* w, BlockRun& b);
// A barrier-free kernel's loop over threads [first, n) of a block in unchecked mode: no fibers,
// every thread in turn in the one Thread t (block.cpp).
using direct_fn = void (*)(void* ctx, Thread& t, unsigned first);
bool launch_check(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem);
// unchecked: the kernel was built in unchecked mode, whose plain accesses leave no trace, so
// what an atomic finds unwritten may have been written (nothing is judged unwritten).
void launch_run(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem, run_fn run,
                void* ctx, bool unchecked);
void launch_run_direct(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
                       direct_fn run, void* ctx);
void thread_exit_slow(Thread* t);

// The steps of a fiber's loop over the threads of its block, inline so that a barrier-free
// block costs a few instructions per thread. Threads start in order: [0, next) are started, and
// no barrier releases before all have started, so a starting thread is in barrier epoch 0.
inline Thread* thread_start(BlockRun& b, Worker* w) {
  const unsigned i = b.next;
  if (i >= b.n || b.aborted->load(std::memory_order_relaxed)) return nullptr;
  b.next = i + 1;
  Thread* t = b.thread0 + i;  // idx and linear are set for the launch's block shape
  t->state = tstate::running;
  t->worker = w;
  t->lock = 0;
  cur_thread = t;
  race_tag = b.race_base | std::uint64_t{i} << kRaceThreadShift;
  return t;
}
// Ends t. With no thread waiting at a barrier or in a warp operation, it has nothing to check.
inline void thread_end(BlockRun& b, Thread* t) {
  if (race_pending) race_settle();  // this thread's last store is done: was it a lost update?
  t->state = tstate::exited;
  --b.live;
  if ((b.arrived | b.warp_groups) != 0) thread_exit_slow(t);
}
// What a launch's loop over threads reads: the kernel (the rewriter's lambda) and the arguments,
// stored once per launch; each thread copies them.
template <class F, class... A>
struct LaunchArgs {
  using Stored = std::tuple<std::decay_t<A>...>;
  std::remove_reference_t<F>& kernel;
  const Stored& stored;
};

// Ends t and starts the next thread on the same fiber (null: none left).
inline Thread* thread_next(BlockRun& b, Thread* t, Worker* w) {
  thread_end(b, t);
  return thread_start(b, w);
}
}  // namespace detail

// A launch of a kernel that the rewriter proved barrier-free: neither it nor anything it calls
// has a __syncthreads, a warp operation or a __shared__ variable (sim/rewriter/barrier_free.cpp).
// Checked, that is the launch above. Unchecked, each block is a plain loop over its threads on
// the OS thread, without fibers or per-thread bookkeeping, so a kernel of one line runs close to
// the same loop in plain C++ (docs/PERF.md).
// A launch (contract item 1). In each mode's namespace, since it tells the runtime which mode
// the kernel was built in.
#ifdef GPULAB_SIM_UNCHECKED
inline namespace unchecked {
#else
inline namespace checked {
#endif
template <class F, class... A>
void launch(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
            cudaStream_t stream, F&& kernel, A&&... args) {
  (void)stream;  // streams are in order and synchronous
  if (!detail::launch_check(file, line, grid, block, shmem)) return;
  using Ctx = detail::LaunchArgs<F, A...>;
  using Stored = typename Ctx::Stored;
  const Stored stored(std::forward<A>(args)...);
  Ctx ctx{kernel, stored};
  // The loop over threads is instantiated here, with the kernel, so that the kernel inlines
  // into it: a barrier-free block is this plain loop on one fiber, with no indirect call per
  // thread. Each thread gets its own copy of the arguments (a kernel may modify its by-value
  // parameters); the compiler drops the copy where the kernel only reads it. An exception (an
  // error's unwinding, or the kernel's own) leaves the loop: the fiber's top catches it, ends
  // the thread and calls the loop again for the threads left (block.cpp). No try block here:
  // in one, every value live across a call (the checks' slow paths) would lose the registers
  // that calls clobber, such as a float accumulator's.
  auto run = [](void* c, detail::Worker* w, detail::BlockRun& b) {
    const Ctx& x = *static_cast<const Ctx*>(c);
    for (detail::Thread* t = detail::thread_start(b, w); t; t = detail::thread_next(b, t, w)) {
      Stored mine(x.stored);
      std::apply(x.kernel, mine);
    }
  };
#ifdef GPULAB_SIM_UNCHECKED
  detail::launch_run(file, line, grid, block, shmem, run, &ctx, true);
#else
  detail::launch_run(file, line, grid, block, shmem, run, &ctx, false);
#endif
}

template <class F, class... A>
void launch_barrier_free(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
                         cudaStream_t stream, F&& kernel, A&&... args) {
#ifndef GPULAB_SIM_UNCHECKED
  launch(file, line, grid, block, shmem, stream, std::forward<F>(kernel), std::forward<A>(args)...);
#else
  (void)stream;  // streams are in order and synchronous
  if (!detail::launch_check(file, line, grid, block, shmem)) return;
  using Ctx = detail::LaunchArgs<F, A...>;
  using Stored = typename Ctx::Stored;
  const Stored stored(std::forward<A>(args)...);
  Ctx ctx{kernel, stored};
  // Per thread: one store of its x (and y, z as they change), the kernel inlined, the arguments
  // copied from a local copy the kernel's stores cannot reach, so they stay in registers.
  auto run = [](void* c, detail::Thread& t, unsigned first) {
    const Ctx& x = *static_cast<const Ctx*>(c);
    const Stored args(x.stored);
    const dim3 shape = detail::cur_coords->block_dim;
    unsigned x0 = 0, y0 = 0, z0 = 0;  // where to start: thread 0 but after an exception
    if (first != 0) {
      x0 = first % shape.x;
      y0 = first / shape.x % shape.y;
      z0 = first / (shape.x * shape.y);
    }
    for (unsigned z = z0; z < shape.z; ++z, y0 = 0) {
      t.idx.z = z;
      for (unsigned y = y0; y < shape.y; ++y, x0 = 0) {
        t.idx.y = y;
        for (unsigned i = x0; i < shape.x; ++i) {
          t.idx.x = i;
          Stored mine(args);
          std::apply(x.kernel, mine);
        }
      }
    }
  };
  detail::launch_run_direct(file, line, grid, block, shmem, run, &ctx);
#endif
}
}  // namespace checked or unchecked
}  // namespace gpulab_sim
