// Launches: the configuration check, the block order, and the pool of OS threads that runs
// blocks (each block entirely on one OS thread; see block.cpp).
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include "internal.h"
#include "report_channel.h"
#include "settings.h"

namespace gpulab_sim::detail {
namespace {

std::atomic<std::size_t> g_max_dynamic_shared{kStaticSharedLimit};

// Every OS thread may hold up to 1024 fiber stacks, each two memory mappings (a guard page and
// the stack): 16 threads stay well inside Linux's default limit of 65530 mappings.
constexpr unsigned kDefaultMaxThreads = 16;

unsigned env_threads() {
  if (settings().threads > 0) return settings().threads;
  return std::clamp(std::thread::hardware_concurrency(), 1u, kDefaultMaxThreads);
}

struct Job {
  Launch* launch;
  std::uint64_t nblocks;
  const std::vector<std::uint64_t>* order;  // null: natural order
  std::atomic<std::uint64_t> next{0};
};

void work(Job& j) {
  const dim3 g = j.launch->grid;
  for (;;) {
    const std::uint64_t i = j.next.fetch_add(1);
    if (i >= j.nblocks || j.launch->aborted) {
      merge_quiet_counts(*j.launch);
      return;
    }
    const std::uint64_t b = j.order ? (*j.order)[i] : i;
    uint3 idx;
    if (j.nblocks <= 0xffffffffu) {  // 32-bit divisions: a few ns a block less
      const unsigned b32 = static_cast<unsigned>(b);
      idx = uint3{b32 % g.x, b32 / g.x % g.y, b32 / (g.x * g.y)};
    } else {
      idx = uint3{static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
                  static_cast<unsigned>(b / (std::uint64_t{g.x} * g.y))};
    }
    run_block(*j.launch, idx);
  }
}

// Threads that wait for a job; the launching thread works too.
class Pool {
 public:
  Pool() {
    const unsigned n =
        std::max(env_threads(), std::min(std::thread::hardware_concurrency(), kDefaultMaxThreads));
    for (unsigned i = 1; i < n; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void run(Job& j) {
    const unsigned helpers = static_cast<unsigned>(
        std::min<std::uint64_t>({threads_.size(), env_threads() - 1, j.nblocks - 1}));
    if (helpers == 0) {
      work(j);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &j;
      wanted_ = helpers;
      busy_ = 0;
      ++generation_;
    }
    wake_.notify_all();
    work(j);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return wanted_ == 0 && busy_ == 0; });
    job_ = nullptr;
  }

 private:
  void loop() {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || (generation_ != seen && wanted_ > 0); });
      if (stop_) return;
      seen = generation_;
      --wanted_;
      ++busy_;
      Job* j = job_;
      lock.unlock();
      work(*j);
      lock.lock();
      --busy_;
      if (busy_ == 0 && wanted_ == 0) done_.notify_all();
    }
  }
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  Job* job_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned wanted_ = 0;
  unsigned busy_ = 0;
  bool stop_ = false;
};

Pool& pool() {
  static Pool p;
  return p;
}

std::string config(dim3 g, dim3 b, std::size_t shmem) {
  return "grid " + dims(g) + ", block " + dims(b) + ", " + std::to_string(shmem) +
         " bytes of dynamic shared memory";
}

}  // namespace

std::size_t max_dynamic_shared() {
  return g_max_dynamic_shared;
}
void set_max_dynamic_shared(std::size_t n) {
  std::size_t cur = g_max_dynamic_shared;
  while (n > cur && !g_max_dynamic_shared.compare_exchange_weak(cur, n)) {
  }
}
void reset_executor_limits() {
  g_max_dynamic_shared = kStaticSharedLimit;
}

bool launch_check(const char* file, int line, dim3 g, dim3 b, std::size_t shmem) {
  if (cur_thread)  // device code launching a kernel: the launch lock is held, and CUDA needs -rdc
    fail(finding_kind::kernel_exception, cur_thread, file, line, nullptr,
         "kernel launch from device code",
         "dynamic parallelism (launching a kernel from a kernel) is not supported by gpulab sim.");
  if (sticky_error() != cudaSuccess) return false;  // a crashed context runs nothing
  const std::uint64_t threads = std::uint64_t{b.x} * b.y * b.z;
  std::string why;
  cudaError_t err = cudaErrorInvalidConfiguration;
  if (g.x == 0 || g.y == 0 || g.z == 0 || threads == 0)
    why = "a grid or block dimension is 0";
  else if (b.x > 1024 || b.y > 1024 || b.z > 64)
    why = "a block dimension is over its limit (1024, 1024, 64)";
  else if (threads > 1024)
    why = "the block has " + std::to_string(threads) + " threads; the limit is 1024";
  else if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
    why = "a grid dimension is over its limit (2^31-1, 65535, 65535)";
  else if (shmem > max_dynamic_shared()) {
    err = cudaErrorInvalidValue;
    why = std::to_string(shmem) + " bytes of dynamic shared memory is over the limit of " +
          std::to_string(max_dynamic_shared()) +
          " (raise it with cudaFuncSetAttribute(kernel, "
          "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), up to " +
          std::to_string(kOptinSharedLimit) + ")";
  }
  if (why.empty()) return true;
  set_last_error(err);
  report(finding_kind::bad_launch, nullptr, file, line, nullptr,
         "bad kernel launch (" + std::string(cudaGetErrorName(err)) + ")",
         config(g, b, shmem) + ": " + why + ". The kernel did not run.");
  return false;
}

namespace {
void launch_blocks(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem, run_fn run,
                   direct_fn direct, void* ctx, bool unchecked) {
  static std::mutex one_launch_at_a_time;
  std::lock_guard<std::mutex> lock(one_launch_at_a_time);
  Launch l;
  l.file = file;
  l.line = line;
  l.grid = grid;
  l.block = block;
  l.shmem = shmem;
  l.nthreads = block.x * block.y * block.z;
  l.run = run;
  l.direct = direct;
  l.ctx = ctx;
  l.unchecked = unchecked;
  l.race_seq = race_next_launch();
  Job j;
  j.launch = &l;
  j.nblocks = std::uint64_t{grid.x} * grid.y * grid.z;
  std::vector<std::uint64_t> order;
  j.order = nullptr;
  const Settings& how = settings();
  if (how.order != block_order::natural) {
    order.resize(j.nblocks);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    if (how.order == block_order::reverse) {
      std::reverse(order.begin(), order.end());
    } else {
      std::mt19937_64 rng(how.seed);
      std::shuffle(order.begin(), order.end(), rng);
    }
    j.order = &order;
  }
  count_launch();
  if (profile_on && !l.direct) profile_launch(l);
  pool().run(j);
  flush_launch();
  if (l.error) set_sticky_error(static_cast<cudaError_t>(l.error.load()));
}
}  // namespace

void launch_run(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem, run_fn run,
                void* ctx, bool unchecked) {
  launch_blocks(file, line, grid, block, shmem, run, nullptr, ctx, unchecked);
}

void launch_run_direct(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
                       direct_fn run, void* ctx) {
  launch_blocks(file, line, grid, block, shmem, nullptr, run, ctx, true);
}

}  // namespace gpulab_sim::detail

void gpulab_sim::detail::start_workers() {
  pool();
}
