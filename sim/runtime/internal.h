// The runtime's private state: launches, blocks, fibers, and the per-OS-thread executor.
#pragma once

#include <gpulab_sim/sim.h>

#include <atomic>
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab_sim::detail {

// Thrown inside a fiber to stop its CUDA thread after an error; caught at the fiber's top.
struct kernel_abort {};

struct Launch {
  const char* file;
  int line;
  dim3 grid;
  dim3 block;
  std::size_t shmem;
  unsigned nthreads;
  run_fn run;        // the launch's loop over threads (launch.h), on fibers
  direct_fn direct;  // or, for a barrier-free kernel in unchecked mode, without them
  void* ctx;
  bool unchecked = false;  // built in unchecked mode: plain accesses leave no trace (launch.h)
  std::atomic<bool> aborted{false};
  std::atomic<int> error{0};   // the cudaError_t the first error finding sets
  std::uint64_t race_seq = 0;  // the global race detector's launch sequence number
};

struct Worker {
  boost::context::fiber self;  // this fiber, while suspended
  std::uintptr_t stack_lo = 0;
  std::uintptr_t stack_hi = 0;
  Block* block = nullptr;
};

struct SharedObj {
  const void* tag;
  int id;
  const void* key;
  std::uintptr_t lo;
  std::size_t size;
  const char* name;
  const char* file;
  int line;
};

struct WarpGroup {
  unsigned mask;
  unsigned arrived;
  int op;
  const char* file;
  int line;
};
struct Warp {
  std::vector<WarpGroup> groups;  // pending operations (disjoint masks)
  std::uint32_t sync_count;       // completed warp operations: they separate hazards
};

struct Block : BlockRun {
  Launch* launch = nullptr;
  Coords coords{};
  std::vector<Thread> threads;  // thread0 is its data
  Thread direct;                // the one thread of a barrier-free block in unchecked mode
  dim3 shape{0, 0, 0};          // the block shape that the threads' idx and linear are set for
  unsigned bar_count = 0;
  unsigned bar_total = 0;
  std::uint32_t epoch = 0;   // barrier intervals so far
  std::uint32_t serial = 0;  // distinguishes blocks run on this OS thread
  std::vector<Thread*> ready;
  std::size_t ready_head = 0;
  std::vector<Warp> warps;
  std::vector<SharedObj> shared;  // [0] is the dynamic shared memory
  std::size_t static_shared = 0;
  std::size_t arena_used = 0;
};

inline std::uint64_t race_thread_tag(const Block& b, const Thread& t) {
  return b.race_base | std::uint64_t{t.linear} << kRaceThreadShift |
         (std::uint64_t{b.epoch} & kRaceEpochMask) << kRaceEpochShift;
}

// Memory (memory.cpp): is [p, p+n) inside one device allocation or symbol? shadow is set to
// its initialisation bytes (null where untracked).
bool device_range(const void* p, std::size_t n, unsigned char** shadow);
// Is p device memory (in the arena, or in a symbol), as cudaMemcpyDefault tells the kinds apart?
bool device_pointer(const void* p);
// Why the n bytes at p are not inside one allocation or symbol, as the rest of a sentence
// whose subject is those bytes: "start at offset 8 in a 32-byte cudaMalloc allocation (made
// at a.cu:5) but run 16 bytes past its end".
std::string range_problem(const void* p, std::size_t n);
void free_all_allocations();
std::size_t allocated_bytes();
void cache_reset();
// host: cudaMallocHost memory (freed by cudaFreeHost, never checked). initialised: the shadow
// starts "written" (memory the host may write directly, which no check sees).
cudaError_t add_alloc(void** p, std::size_t size, bool host, bool initialised, const char* what,
                      const char* file, int line);
cudaError_t remove_alloc(void* p, bool host);
std::string device_location(std::uintptr_t a);  // "offset 8 in a 4096-byte cudaMalloc ..."
// The harness's hook (harness/backend_hooks.h): the allocation at `whole` is a grader's output,
// `bytes` of it after `before` bytes of guard zone. Its guards become red zone and its array
// "never written" in the shadow; a copy from it carries that along (a device-to-device copy
// copies the shadow), which is how each poisoning of an output makes it unwritten again.
void mark_output(const void* whole, std::size_t before, std::size_t bytes, const char* name);
// The harness's other hook: a copy out of device memory that no sticky error refuses.
bool read_device(void* dst, const void* src, std::size_t n);
void race_forget_all();  // every word: written in no launch

// The global-memory race detector (global_race.cpp): a fresh sequence number per launch, and
// the base of a block's tags (race_thread_tag adds the thread and epoch; race_tag holds the
// running thread's).
std::uint64_t race_next_launch();
void race_drop_pending();  // after a block: what an error cut short is not judged
inline std::uint64_t race_block_base(std::uint64_t seq, std::uint64_t block_linear) {
  return seq << kRaceSeqShift | (block_linear & kRaceBlockMask) << kRaceBlockShift;
}

// Shared memory (shared.cpp, hazards.cpp).
void shared_begin_block(Block& b);
bool shared_contains(std::uintptr_t a);
void shared_access(Block& b, Thread* t, std::uintptr_t a, std::size_t size, unsigned mode,
                   const char* file, int line, const char* func);
void hazard_track(Block& b, Thread* t, std::size_t off, std::size_t size, unsigned mode,
                  const char* file, int line, const char* func, const SharedObj& obj);
std::uint8_t* shared_arena_base();

// The cost model (profile.cpp), while profile_on: a launch, and a block's end (its notes costed).
// profile_switch (memory.cpp) turns it on or off, with the fast paths (arena_fast_size); while
// on, access_slow notes every access of `t` but to its own stack (`mode`: rd, wr, rw, or
// rw | mode_atomic).
extern bool profile_on;
void profile_switch(bool on);
void profile_note(const Thread& t, std::uintptr_t a, std::size_t size, unsigned mode,
                  const char* file, int line);
void profile_launch(const Launch& l);
void profile_block_end(const Block& b);

// Executor (executor.cpp, block.cpp).
void run_block(Launch& l, uint3 block_idx);
void block_current(Thread* t);
void make_ready(Block& b, Thread* t);
bool resolve_active_masks(Block& b);  // warp.cpp: wakes __activemask() callers
std::size_t max_dynamic_shared();
void set_max_dynamic_shared(std::size_t n);
void reset_executor_limits();
constexpr std::size_t kStaticSharedLimit = 48 * 1024;
constexpr std::size_t kOptinSharedLimit = 227 * 1024;

// Runtime API state (runtime_api.cpp).
void set_last_error(cudaError_t e);
cudaError_t sticky_error();
void set_sticky_error(cudaError_t e);

// Findings (report.cpp). report() records and prints; for errors it also stops the launch.
// fail() is report() then unwinding the calling CUDA thread. `detail` says what happened; the
// kind's advice (finding_kinds.def) follows it, so a call site adds none of its own. `times`:
// occurrences this one record stands for.
void report(finding_kind k, const Thread* t, const char* file, int line, const char* func,
            const std::string& title, const std::string& detail, std::size_t times = 1);
[[noreturn]] void fail(finding_kind k, const Thread* t, const char* file, int line,
                       const char* func, const std::string& title, const std::string& detail);
void flush_launch();
// At exit (settings.cpp registers it first): the final count of every finding seen more often
// than its record said, then the report's end record.
void finish_report();
// The harness's hook (harness/backend_hooks.h): a batch's call on dataset `k` begins. The
// report's record {"call":k}; every finding made in the call is sent again the first time it is
// made there, so the report tells each call's findings. At exit, before the final counts,
// {"call":-1}: what follows is no call's.
void begin_call(int k);
// Starts the pool of threads that run blocks (it starts at the first launch otherwise).
void start_workers();
// For warnings: true when this OS thread already reported the site a few times in this launch;
// the occurrence is counted and the caller skips building the message.
bool counted_quietly(finding_kind k, const Thread* t, const char* file, int line);
void merge_quiet_counts(const Launch& l);  // after an OS thread's last block of a launch
std::string dims(uint3 v);
std::string hex(std::uintptr_t v);
std::string where(const char* file, int line);

}  // namespace gpulab_sim::detail
