// One block on one OS thread: its CUDA threads run on fibers. A fiber ("worker") runs threads
// one after another until one blocks at a barrier; only then is another fiber started for the
// threads not yet run. So a barrier-free kernel runs on a single fiber, as a plain loop, and a
// kernel with barriers gets one fiber per thread, switching only where threads wait.
#include <cstring>
#include <memory>

#include "fiber_stacks.h"
#include "internal.h"

namespace gpulab_sim::detail {

__thread Thread* cur_thread = nullptr;
__thread const Coords* cur_coords = nullptr;
__thread Cache cache;
__thread std::uint64_t race_tag = 0;

namespace {

struct Exec {
  boost::context::fiber sched;  // the scheduler (this OS thread's own stack), while suspended
  Worker* finished = nullptr;   // the worker that just ran out of threads
  Block block;
  StackPool stacks;
  std::vector<std::unique_ptr<Worker>> workers;  // all ever made on this OS thread
  std::vector<Worker*> idle;
  std::vector<Worker*> active;
  std::uint32_t serial = 0;
};

Exec& exec() {
  static thread_local Exec e;
  return e;
}

// Fibers switch to each other directly (a thread waiting at a barrier resumes the next ready
// thread, not the scheduler: one switch per barrier crossing instead of two). Whoever is
// resumed stores the suspended side's handle in the slot that side named here.
__thread boost::context::fiber* handle_slot = nullptr;

void switch_to(boost::context::fiber& target, boost::context::fiber* mine) {
  handle_slot = mine;
  boost::context::fiber from = std::move(target).resume();
  *handle_slot = std::move(from);
}

// Boost.Context's StackAllocator concept over the pool; records the stack's range so that
// accesses to the thread's own locals pass the address check.
struct PooledStack {
  StackPool* pool;
  Worker* w;
  boost::context::stack_context allocate() {
    auto s = pool->take();
    w->stack_hi = reinterpret_cast<std::uintptr_t>(s.sp);
    w->stack_lo = w->stack_hi - s.size;
    return s;
  }
  void deallocate(boost::context::stack_context& s) noexcept { pool->give(s); }
};

// A fiber's work: the launch's loop over threads (launch.h), again after each thread that an
// exception ended (cur_thread is the thread that threw).
void run_threads(Worker* w) {
  Block& b = *w->block;
  Launch& l = *b.launch;
  for (;;) {
    try {
      l.run(l.ctx, w, b);
      return;
    } catch (const kernel_abort&) {
    } catch (const std::exception& e) {
      report(finding_kind::kernel_exception, cur_thread, l.file, l.line, nullptr,
             "C++ exception in a kernel", std::string("what(): ") + e.what());
    }
    thread_end(b, cur_thread);
  }
}

Worker* start_worker(Exec& ex, Block& b) {
  Worker* w;
  if (ex.idle.empty()) {
    ex.workers.push_back(std::make_unique<Worker>());
    w = ex.workers.back().get();
  } else {
    w = ex.idle.back();
    ex.idle.pop_back();
  }
  w->block = &b;
  w->self = boost::context::fiber(std::allocator_arg, PooledStack{&ex.stacks, w},
                                  [w, &ex](boost::context::fiber&& from) {
                                    *handle_slot = std::move(from);
                                    run_threads(w);
                                    // Back to the scheduler; it receives an empty handle.
                                    handle_slot = &w->self;
                                    ex.finished = w;
                                    return std::move(ex.sched);
                                  });
  ex.active.push_back(w);
  return w;
}

// Runs a fiber from the scheduler until control comes back to it.
void resume(Exec& ex, Worker* w) {
  switch_to(w->self, &ex.sched);
  if (Worker* f = ex.finished) {
    ex.finished = nullptr;
    for (auto& a : ex.active)
      if (a == f) {
        a = ex.active.back();
        ex.active.pop_back();
        break;
      }
    ex.idle.push_back(f);
  }
}

std::string thread_list(const Block& b, tstate s, const char* file, int line) {
  std::string r;
  unsigned n = 0;
  for (unsigned i = 0; i < b.next; ++i) {
    const Thread& t = b.threads[i];
    if (t.state != s || (file && (t.bar_line != line || std::strcmp(t.bar_file, file)))) continue;
    if (n < 4) r += (n ? ", " : "") + dims(t.idx);
    ++n;
  }
  if (n > 4) r += " and " + std::to_string(n - 4) + " more";
  return std::to_string(n) + (n == 1 ? " thread (" : " threads (") + r + ")";
}

void report_stuck(Block& b) {
  // Every live thread waits, and no barrier can release: name who waits where.
  const Thread* warp_waiter = nullptr;
  const Thread* bar_waiter = nullptr;
  for (unsigned i = 0; i < b.next; ++i) {
    const Thread& t = b.threads[i];
    if (t.state == tstate::warp && !warp_waiter) warp_waiter = &t;
    if (t.state == tstate::barrier && !bar_waiter) bar_waiter = &t;
  }
  if (warp_waiter) {
    const Thread& t = *warp_waiter;
    const unsigned base = t.linear & ~31u;
    std::string missing;
    bool at_barrier = false;
    for (unsigned l = 0; l < 32; ++l) {
      const Thread* o = base + l < b.next ? &b.threads[base + l] : nullptr;
      if (!(t.wmask >> l & 1) || !o || (o->state == tstate::warp && o->wmask == t.wmask)) continue;
      missing = "lane " + std::to_string(l) + " (thread " + dims(o->idx) + ")";
      if (o->state == tstate::barrier) {
        at_barrier = true;
        missing += " waits at __syncthreads() at " + where(o->bar_file, o->bar_line);
      }
      if (o->state == tstate::warp)
        missing += " waits in another warp operation at " + where(o->wfile, o->wline);
      break;
    }
    if (at_barrier)  // each waits for the other: a deadlock
      report(finding_kind::deadlock, &t, t.wfile, t.wline, nullptr, "deadlock",
             "a warp operation waits for every thread named in its mask " + hex(t.wmask) +
                 ", but " + missing + ", which waits for this one. " +
                 thread_list(b, tstate::barrier, nullptr, 0) + " wait at __syncthreads().");
    else
      report(finding_kind::warp_mask, &t, t.wfile, t.wline, nullptr,
             "warp operation never completes",
             "it waits for every thread named in its mask " + hex(t.wmask) + ", but " + missing +
                 " never arrives. Does the mask name threads that take another branch?");
    return;
  }
  report(finding_kind::deadlock, bar_waiter, bar_waiter ? bar_waiter->bar_file : nullptr,
         bar_waiter ? bar_waiter->bar_line : 0, nullptr, "deadlock",
         "every live thread of the block waits and none can go on.");
}

void release_barrier(Block& b, Thread* last) {
  unsigned count = 0;
  for (unsigned i = 0; i < b.next; ++i) {
    Thread* t = &b.threads[i];
    if (t->state != tstate::barrier) continue;
    if (t->bar_line != last->bar_line ||
        (t->bar_file != last->bar_file && std::strcmp(t->bar_file, last->bar_file))) {
      fail(finding_kind::divergent_barrier, last, last->bar_file, last->bar_line, nullptr,
           "divergent __syncthreads()",
           "threads of one block wait at two different __syncthreads() calls: " +
               thread_list(b, tstate::barrier, t->bar_file, t->bar_line) + " at " +
               where(t->bar_file, t->bar_line) + ", and " +
               thread_list(b, tstate::barrier, last->bar_file, last->bar_line) + " at " +
               where(last->bar_file, last->bar_line) +
               ". Every thread of the block must reach the same __syncthreads().");
    }
    count += t->bar_pred != 0;
  }
  b.bar_count = count;
  b.bar_total = b.arrived;
  b.arrived = 0;
  ++b.epoch;
  for (unsigned i = 0; i < b.next; ++i) {
    Thread* t = &b.threads[i];
    if (t->state != tstate::barrier) continue;
    t->state = tstate::running;
    if (t != last) make_ready(b, t);
  }
}

}  // namespace

// A thread returned while others wait at a barrier or in a warp operation (launch.h calls this
// only then): does its return leave them waiting forever?
void thread_exit_slow(Thread* t) {
  Block& b = *t->block;
  if (b.launch->aborted) return;
  if (b.arrived > 0) {
    const Thread* w = nullptr;
    for (unsigned i = 0; i < b.next && !w; ++i)
      if (b.threads[i].state == tstate::barrier) w = &b.threads[i];
    report(finding_kind::divergent_barrier, t, w->bar_file, w->bar_line, nullptr,
           "divergent __syncthreads()",
           "thread " + dims(t->idx) + " returned while " +
               thread_list(b, tstate::barrier, nullptr, 0) + " wait at __syncthreads() at " +
               where(w->bar_file, w->bar_line) +
               ". Every thread of the block must reach each __syncthreads(); an early `return` "
               "before it (e.g. a bounds check) skips it.");
    return;
  }
  // A pending warp operation whose mask names this thread can never complete now.
  const unsigned lane = t->linear & 31;
  for (const WarpGroup& g : b.warps[t->linear >> 5].groups) {
    if ((g.mask >> lane & 1) && !(g.arrived >> lane & 1)) {
      report(finding_kind::warp_mask, t, g.file, g.line, nullptr, "bad warp mask",
             "the mask " + hex(g.mask) + " names lane " + std::to_string(lane) + " (thread " +
                 dims(t->idx) +
                 "), which returned without calling it. Pass the mask of the "
                 "threads that really take this branch (e.g. __activemask() or __ballot_sync).");
      return;
    }
  }
}

void make_ready(Block& b, Thread* t) {
  b.ready.push_back(t);
}

// Inline in syncthreads(): Boost.Context switches with a jump, not a return, so after each switch
// the CPU's return-address predictor is one entry off and every return up to the kernel is
// mispredicted; one call level fewer is one misprediction fewer per barrier crossing.
[[gnu::always_inline]] inline void block_current_inline(Thread* t) {
  if (race_pending) race_settle();  // this thread's last store is done: was it a lost update?
  Worker* w = t->worker;
  Block& b = *t->block;
  if (b.ready_head < b.ready.size()) {
    Thread* next = b.ready[b.ready_head++];
    if (b.ready_head == b.ready.size()) {
      b.ready.clear();
      b.ready_head = 0;
    }
    cur_thread = next;
    switch_to(next->worker->self, &w->self);
  } else {
    switch_to(exec().sched, &w->self);
  }
  cur_thread = t;
  race_tag = race_thread_tag(b, *t);  // the block may have passed a barrier meanwhile
  if (t->block->launch->aborted) throw kernel_abort{};
}

void block_current(Thread* t) {
  block_current_inline(t);
}

namespace {
// A barrier-free kernel's block in unchecked mode (launch.h): the launch's loop runs every thread
// in turn in one Thread, on this OS thread's own stack. An exception ends the thread that threw
// (t.idx); the loop goes on from the next. All threads share the block's first race tag: only
// atomics are noted in unchecked mode, and they never race with each other.
void run_direct(Launch& l, Block& b) {
  Thread& t = b.direct;
  t.block = &b;
  t.state = tstate::running;
  t.worker = nullptr;
  t.linear = 0;
  t.lock = 0;
  cur_thread = &t;
  race_tag = race_thread_tag(b, t);
  unsigned first = 0;
  while (first < b.n && !l.aborted) {
    try {
      l.direct(l.ctx, t, first);
      break;
    } catch (const kernel_abort&) {
    } catch (const std::exception& e) {
      report(finding_kind::kernel_exception, &t, l.file, l.line, nullptr,
             "C++ exception in a kernel", std::string("what(): ") + e.what());
    }
    first = t.idx.x + l.block.x * (t.idx.y + l.block.y * t.idx.z) + 1;
  }
}

void finish_block() {
  cur_thread = nullptr;
  cur_coords = nullptr;
  race_tag = 0;
  race_drop_pending();
}
}  // namespace

void run_block(Launch& l, uint3 block_idx) {
  Exec& ex = exec();
  Block& b = ex.block;
  b.launch = &l;
  b.aborted = &l.aborted;
  b.coords = Coords{block_idx, l.block, l.grid};
  b.n = l.nthreads;
  b.epoch = 0;
  b.race_base = race_block_base(
      l.race_seq, block_idx.x + std::uint64_t{l.grid.x} *
                                    (block_idx.y + std::uint64_t{l.grid.y} * block_idx.z));
  if (l.direct) {  // none of the fibers' bookkeeping below
    cur_coords = &b.coords;
    run_direct(l, b);
    finish_block();
    return;
  }
  if (b.threads.size() < b.n) {
    b.threads.resize(b.n);
    for (Thread& t : b.threads) t.block = &b;
    b.thread0 = b.threads.data();
    b.shape = dim3{0, 0, 0};
  }
  // Each thread's coordinates depend only on the block's shape: set once for consecutive blocks
  // (and launches) of one shape, not per thread started.
  if (b.shape.x != l.block.x || b.shape.y != l.block.y || b.shape.z != l.block.z) {
    uint3 idx{0, 0, 0};  // x fastest, without a division per thread
    for (unsigned i = 0; i < b.n; ++i) {
      Thread& t = b.threads[i];
      t.idx = idx;
      t.linear = i;
      if (++idx.x == l.block.x) {
        idx.x = 0;
        if (++idx.y == l.block.y) {
          idx.y = 0;
          ++idx.z;
        }
      }
    }
    b.shape = l.block;
  }
  b.next = 0;
  b.live = b.n;
  b.arrived = 0;
  b.serial = ++ex.serial;
  b.ready.clear();
  b.ready_head = 0;
  b.warp_groups = 0;
  b.warps.resize((b.n + 31) / 32);
  for (auto& w : b.warps) {
    w.groups.clear();
    w.sync_count = 0;
  }
  cur_coords = &b.coords;
  cache_reset();  // allocations may have changed since the last launch
  shared_begin_block(b);

  for (;;) {
    if (l.aborted) break;
    if (b.ready_head < b.ready.size()) {
      Thread* t = b.ready[b.ready_head++];
      if (b.ready_head == b.ready.size()) {
        b.ready.clear();
        b.ready_head = 0;
      }
      cur_thread = t;
      resume(ex, t->worker);
    } else if (b.next < b.n) {
      resume(ex, start_worker(ex, b));
    } else if (b.live > 0) {
      if (resolve_active_masks(b)) continue;
      report_stuck(b);
      break;
    } else {
      break;
    }
  }
  // After an error, fibers may still wait: destroying one unwinds its stack.
  while (!ex.active.empty()) {
    Worker* w = ex.active.back();
    ex.active.pop_back();
    w->self = boost::context::fiber();
    ex.idle.push_back(w);
  }
  if (profile_on) profile_block_end(b);
  finish_block();
}

int syncthreads(int kind, int pred, const char* file, int line) {
  Thread* t = cur_thread;
  if (!t) return pred;
  Block& b = *t->block;
  t->state = tstate::barrier;
  t->bar_file = file;
  t->bar_line = line;
  t->bar_pred = pred;
  ++b.arrived;
  if (b.arrived == b.live && b.next == b.n) {
    release_barrier(b, t);
    race_tag = race_thread_tag(b, *t);  // a new barrier interval
  } else {
    block_current_inline(t);
  }
  switch (kind) {
    case bar_count:
      return static_cast<int>(b.bar_count);
    case bar_and:
      return b.bar_count == b.bar_total;
    case bar_or:
      return b.bar_count > 0;
    default:
      return 0;
  }
}

void trap(const char* file, int line) {
  if (!cur_thread) std::abort();
  fail(finding_kind::kernel_exception, cur_thread, file, line, nullptr, "__trap() called",
       "the kernel called __trap() (or a failed device assertion).");
}

}  // namespace gpulab_sim::detail
