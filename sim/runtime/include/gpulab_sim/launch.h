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
bool launch_check(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem);
void launch_run(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem, run_fn run,
                void* ctx);
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
// Ends t and starts the next thread on the same fiber (null: none left).
inline Thread* thread_next(BlockRun& b, Thread* t, Worker* w) {
  thread_end(b, t);
  return thread_start(b, w);
}
}  // namespace detail

template <class F, class... A>
void launch(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
            cudaStream_t stream, F&& kernel, A&&... args) {
  (void)stream;  // streams are in order and synchronous
  if (!detail::launch_check(file, line, grid, block, shmem)) return;
  using Stored = std::tuple<std::decay_t<A>...>;
  Stored stored(std::forward<A>(args)...);
  struct Ctx {
    std::remove_reference_t<F>& kernel;
    const Stored& stored;
  } ctx{kernel, stored};
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
  detail::launch_run(file, line, grid, block, shmem, run, &ctx);
}
}  // namespace gpulab_sim
