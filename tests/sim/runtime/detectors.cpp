// Each detector against a planted bug, and a clean twin with no finding.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sim_test.h"

static char gpulab_sim_tu;
using gpulab_sim::finding_kind;

namespace {

void copy_k(float* out, const float* in, int n, int slack) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n + slack) WR(out[i]) = RD(in[i]);
}
void before_k(float* out, const float* in, int shift) {
  const int i = static_cast<int>(threadIdx.x);
  WR(out[i]) = RD(in[i - shift]);
}
void misaligned_k(float* out, const float* in, int offset) {
  const float4* v = reinterpret_cast<const float4*>(in + offset);
  const float4 x = RD(v[threadIdx.x]);
  WR(out[threadIdx.x]) = x.x;
}
void shared_oob_k(int* out, int extra) {
  SHARED(int[64], tile, 0);
  const unsigned t = threadIdx.x;
  WR(tile[t]) = static_cast<int>(t);
  __syncthreads();
  WR(out[t]) = RD(tile[(t + extra) % 128]);
}
void dyn_oob_k(int* out, int n) {
  int* d = ::gpulab_sim::dynamic_shared<int>(__FILE__, __LINE__);
  const int t = static_cast<int>(threadIdx.x);
  WR(d[t]) = t;
  __syncthreads();
  WR(out[t]) = RD(d[n - 1 - t]);
}
void early_exit_k(int* out, int n) {
  SHARED(int[128], s, 1);
  const unsigned t = threadIdx.x;
  if (static_cast<int>(t) >= n) return;
  WR(s[t]) = 1;
  __syncthreads();
  WR(out[t]) = RD(s[(t + 1) % n]);
}
void two_sites_k(int* out, int split) {
  if (static_cast<int>(threadIdx.x) < split)
    __syncthreads();
  else
    __syncthreads();
  WR(out[threadIdx.x]) = 1;
}
void deadlock_k(int* out, int planted) {
  if (planted && threadIdx.x == 0) {
    __syncthreads();
  } else {
    __syncwarp();
    if (planted) __syncthreads();
  }
  if (!planted) __syncthreads();
  WR(out[threadIdx.x]) = 1;
}
void mask_not_self_k(int* out, int planted) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = planted ? 0x0000ffffu : 0xffffffffu;
  WR(out[threadIdx.x]) = __shfl_sync(lane < 16 || planted ? mask : mask, static_cast<int>(lane), 0);
}
void mask_differs_k(int* out, int planted) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = planted && lane == 5 ? 0x7fffffffu : 0xffffffffu;
  WR(out[threadIdx.x]) = static_cast<int>(__ballot_sync(mask, lane & 1));
}
void mask_exited_k(int* out, int n) {
  const unsigned lane = threadIdx.x % 32;
  if (static_cast<int>(threadIdx.x) >= n) return;
  const unsigned mask = __ballot_sync(__activemask(), 1);
  int v = static_cast<int>(lane);
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(n == 32 ? mask : 0xffffffffu, v, d);
  WR(out[threadIdx.x]) = v;
}
void sum_k(float* out, const float* in) {
  WR(out[threadIdx.x]) = RD(in[threadIdx.x]) + 1;
}
void shared_uninit_k(int* out, int planted) {
  SHARED(int[64], s, 2);
  const unsigned t = threadIdx.x;
  if (!planted || t % 2 == 0) WR(s[t]) = static_cast<int>(t);
  __syncthreads();
  WR(out[t]) = RD(s[t]);
}
// Tree reduction; the planted bug drops the barrier between steps.
void reduce_k(float* out, const float* in, int planted) {
  SHARED(float[256], s, 3);
  const unsigned t = threadIdx.x;
  WR(s[t]) = RD(in[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (t < stride) RW(s[t]) += RD(s[t + stride]);
    if (!planted) __syncthreads();
  }
  if (planted) __syncthreads();
  // Last warp: the planted bug relies on lockstep (no __syncwarp between steps).
  if (t < 32) {
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      float v = RD(s[t]) + RD(s[t + stride]);
      if (!planted) __syncwarp();
      WR(s[t]) = v;
      if (!planted) __syncwarp();
    }
  }
  if (t == 0) WR(out[blockIdx.x]) = RD(s[0]);
}
void atomics_only_k(int* out) {
  SHARED(int, hits, 4);
  if (threadIdx.x == 0) WR(hits) = 0;
  __syncthreads();
  atomicAdd(&hits, 1);
  __syncthreads();
  if (threadIdx.x == 0) WR(out[blockIdx.x]) = RD(hits);
}
// A shared counter: the planted bug increments it without an atomic.
void counter_k(int* out, int planted) {
  SHARED(int, hits, 7);
  if (threadIdx.x == 0) WR(hits) = 0;
  __syncthreads();
  if (planted)
    RW(hits) += 1;
  else
    atomicAdd(&hits, 1);
  __syncthreads();
  if (threadIdx.x == 0) WR(out[blockIdx.x]) = RD(hits);
}

// A block's private histogram of 4 bins: zeroed by the first 4 threads, counted with atomics,
// read out by the last 4. The planted bug leaves out the barrier after the zeroing (1) or
// before the read-out (2).
void private_histogram_k(int* out, int planted) {
  SHARED(int[4], hist, 8);
  if (threadIdx.x < 4) WR(hist[threadIdx.x]) = 0;
  if (planted != 1) __syncthreads();
  atomicAdd(&hist[threadIdx.x % 4], 1);
  if (planted != 2) __syncthreads();
  const unsigned last = threadIdx.x - (blockDim.x - 4);
  if (last < 4) WR(out[4 * blockIdx.x + last]) = RD(hist[last]);
}

// A private histogram of 64 bins in a block of 32 threads: the planted bug zeroes one bin per
// thread (only bins 0..31), then counts into even bins and reads every bin out.
void one_bin_per_thread_k(int* out, int planted) {
  SHARED(int[64], bins, 10);
  const unsigned t = threadIdx.x;
  if (planted)
    WR(bins[t]) = 0;
  else
    for (unsigned b = t; b < 64; b += blockDim.x) WR(bins[b]) = 0;
  __syncthreads();
  atomicAdd(&bins[(2 * t) % 64], 1);
  __syncthreads();
  for (unsigned b = t; b < 64; b += blockDim.x) WR(out[b]) = RD(bins[b]);
}
// A neighbour's value added on one line with no barrier in between: a missing barrier, though
// both accesses are at one line.
void neighbour_k(int* out) {
  SHARED(int[64], s, 11);
  const unsigned t = threadIdx.x;
  WR(s[t]) = static_cast<int>(t);
  __syncthreads();
  RW(s[t]) += RD(s[(t + 32) % 64]);
  __syncthreads();
  WR(out[t]) = RD(s[t]);
}
// A sum tree's up-sweep in place with no barrier between its steps: thread t's step k
// read-modify-writes what thread t' did at step k - 1, at the same line; a missing barrier.
void tree_k(int* out) {
  SHARED(int[256], s, 12);
  const unsigned t = threadIdx.x;
  WR(s[t]) = 1;
  __syncthreads();
  for (unsigned stride = 1; stride < 256; stride *= 2) {
    const unsigned i = (t + 1) * 2 * stride - 1;
    if (i < 256) RW(s[i]) += RD(s[i - stride]);
  }
  __syncthreads();
  WR(out[t]) = RD(s[t]);
}
// A grader's output (mark_output): accumulated into before anything set it, or set first; and
// one thread too many.
void accumulate_k(int* out, int planted) {
  if (!planted) WR(out[threadIdx.x]) = 0;
  RW(out[threadIdx.x]) += 1;
}
void fill_k(int* out) {
  WR(out[threadIdx.x]) = 1;
}

void trap_k(int* out, int planted) {
  if (planted && threadIdx.x == 3) __trap();
  WR(out[threadIdx.x]) = __ldg(&out[threadIdx.x]) + 1;
}
template <int N>
void big_shared_k(int* out) {
  SHARED(int[N], a, 5);
  SHARED(int[N], b, 6);  // with N = 8192, 2 x 32 KiB: over the 48 KiB limit
  WR(a[threadIdx.x]) = 1;
  WR(b[threadIdx.x]) = 2;
  WR(out[threadIdx.x]) = RD(a[threadIdx.x]);
}
void throw_k(int* out, int planted) {
  if (planted && threadIdx.x == 1) throw std::runtime_error("boom");
  WR(out[threadIdx.x]) = 1;
}

// Global-memory races: the planted scatter bug, and its clean twins.
void scatter_k(float* p) {
  RW(p[0]) += 1.0f;  // every thread, unordered: updates are lost on a GPU
}
void two_sites_race_k(int* p) {
  if (threadIdx.x == 0)
    WR(p[0]) = 1;
  else
    WR(p[0]) = 2;
}
void scatter_atomic_k(float* p) {
  atomicAdd(&p[0], 1.0f);
}
void own_element_k(float* p) {
  RW(p[blockIdx.x * blockDim.x + threadIdx.x]) += 1.0f;
}
void handoff_k(float* p) {
  if (threadIdx.x == 0) WR(p[0]) = 1.0f;
  __syncthreads();
  if (threadIdx.x == 1) RW(p[0]) += 1.0f;
}
void one_writer_k(float* p, unsigned who) {
  if (blockIdx.x * blockDim.x + threadIdx.x == who) WR(p[0]) = static_cast<float>(who);
}
// A spin lock around a plain read-modify-write, as particle-grid's handout describes it: taken
// with atomicCAS from 0, released with atomicExch after a fence. Thread i takes lock
// i % n_locks (every thread, or only every `every`-th) and adds 1 to p[0], or with
// word_per_lock to p[i % n_locks], the word its lock guards.
void locked_add_k(float* p, int* locks, int n_locks, int word_per_lock, int every) {
  const unsigned i = threadIdx.x;
  const bool locking = i % static_cast<unsigned>(every) == 0;
  int* lock = &locks[i % static_cast<unsigned>(n_locks)];
  if (locking)
    while (atomicCAS(lock, 0, 1) != 0) {
    }
  RW(p[word_per_lock ? i % static_cast<unsigned>(n_locks) : 0]) += 1.0f;
  if (locking) {
    __threadfence();
    atomicExch(lock, 0);
  }
}
void plain_then_atomic_k(int* p) {
  if (blockIdx.x == 0 && threadIdx.x == 0) WR(p[0]) = 0;  // no barrier orders it with the atomics
  atomicAdd(&p[0], 1);
}
void read_then_write_k(float* p) {
  WR(p[0]) = RD(p[0]) + 1.0f;  // the same lost update, spelled without +=
}
void set_flag_k(int* flag, float4* v) {
  WR(*flag) = 1;  // every thread stores the same value: nothing is lost
  WR(v[0]) = make_float4(1.0f, 2.0f, 3.0f, static_cast<float>(threadIdx.x % 2));
}
void double_k(double* p) {
  RW(p[threadIdx.x / 2]) += 1.0;  // pairs of threads share an 8-byte element
}

struct Buffers {
  float* in = nullptr;
  float* out = nullptr;
  explicit Buffers(int n) {
    std::vector<float> h(n, 1.0f);
    in = to_device(h);
    REQUIRE(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
  }
};

}  // namespace

TEST_SUITE("detectors") {
  TEST_CASE("out-of-bounds global access: past the end, before the start; clean twin") {
    fresh();
    Buffers b(1000);
    LAUNCH(copy_k, 4, 256, 0, b.out, b.in, 1000, 0);
    CHECK(gpulab_sim::findings().empty());
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    LAUNCH(copy_k, 4, 256, 0, b.out, b.in, 1000, 1);
    auto f = found(finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].error);
    CHECK(f[0].block.x == 3);
    CHECK(f[0].thread.x == 232);
    CHECK(f[0].function == "copy_k");
    CHECK(f[0].message.find("0 bytes past the end of a 4000-byte cudaMalloc allocation") !=
          std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    fresh();
    Buffers c(64);
    LAUNCH(before_k, 1, 64, 0, c.out, c.in, 2);
    f = found(finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("8 bytes before the start") != std::string::npos);
    fresh();
  }

  TEST_CASE("addresses in no allocation: host pointer, nullptr, freed; own stack is fine") {
    fresh();
    Buffers b(64);
    std::vector<float> host(64, 1.0f);
    LAUNCH(sum_k, 1, 64, 0, b.out, host.data());
    CHECK(found(finding_kind::invalid_address).size() == 1);
    CHECK(found(finding_kind::invalid_address)[0].message.find("host pointer") !=
          std::string::npos);
    fresh();
    Buffers c(64);
    LAUNCH(sum_k, 1, 64, 0, c.out, static_cast<const float*>(nullptr));
    CHECK(found(finding_kind::invalid_address)[0].message.find("null pointer") !=
          std::string::npos);
    fresh();
    Buffers d(64);
    cudaFree(d.in);
    LAUNCH(sum_k, 1, 64, 0, d.out, d.in);
    CHECK(found(finding_kind::invalid_address)[0].message.find("freed") != std::string::npos);
    fresh();
  }

  TEST_CASE("misaligned vector access; aligned twin") {
    fresh();
    Buffers b(256);
    LAUNCH(misaligned_k, 1, 8, 0, b.out, b.in, 4);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(misaligned_k, 1, 8, 0, b.out, b.in, 1);
    CHECK(found(finding_kind::misaligned).size() == 1);
    CHECK(cudaGetLastError() == cudaErrorMisalignedAddress);
    fresh();
  }

  TEST_CASE("out-of-bounds shared access, static and dynamic; clean twins") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(shared_oob_k, 2, 64, 0, out, 1);  // (t + 1) % 128 reaches 64
    auto f = found(finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("past the end of __shared__ tile (256 bytes") != std::string::npos);
    fresh();
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(shared_oob_k, 2, 64, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(dyn_oob_k, 2, 64, 64 * sizeof(int), out, 64);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(dyn_oob_k, 2, 64, 60 * sizeof(int), out, 60);  // threads 60..63 write past the end
    f = found(finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("dynamic shared memory") != std::string::npos);
    fresh();
  }

  TEST_CASE("divergent __syncthreads: early return, two call sites; clean twins") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 128 * sizeof(int)) == cudaSuccess);
    LAUNCH(early_exit_k, 1, 128, 0, out, 128);
    LAUNCH(two_sites_k, 1, 128, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(early_exit_k, 1, 128, 0, out, 100);
    auto f = found(finding_kind::divergent_barrier);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("returned while") != std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    fresh();
    REQUIRE(cudaMalloc(&out, 128 * sizeof(int)) == cudaSuccess);
    LAUNCH(two_sites_k, 1, 128, 0, out, 64);
    f = found(finding_kind::divergent_barrier);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("two different __syncthreads()") != std::string::npos);
    fresh();
  }

  TEST_CASE("deadlock: a barrier and a warp barrier wait for each other; clean twin") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(deadlock_k, 1, 64, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(deadlock_k, 1, 64, 0, out, 1);
    auto f = found(finding_kind::deadlock);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("__syncthreads") != std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    fresh();
  }

  TEST_CASE("bad warp masks: caller not in mask, masks differ, a named thread exited") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(mask_not_self_k, 1, 64, 0, out, 0);
    LAUNCH(mask_differs_k, 1, 64, 0, out, 0);
    LAUNCH(mask_exited_k, 1, 64, 0, out, 32);  // the mask is exactly the threads still there
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(mask_not_self_k, 1, 64, 0, out, 1);
    CHECK(found(finding_kind::warp_mask).size() == 1);
    CHECK(found(finding_kind::warp_mask)[0].message.find("does not include") != std::string::npos);
    fresh();
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(mask_differs_k, 1, 64, 0, out, 1);
    REQUIRE(found(finding_kind::warp_mask).size() == 1);
    CHECK(found(finding_kind::warp_mask)[0].message.find("same mask") != std::string::npos);
    fresh();
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(mask_exited_k, 1, 64, 0, out, 20);  // full mask, but lanes 20..31 returned
    REQUIRE(found(finding_kind::warp_mask).size() == 1);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    fresh();
  }

  TEST_CASE("uninitialised global reads go on as warnings do, counted per site; clean twin") {
    fresh();
    float* in = nullptr;
    float* out = nullptr;
    REQUIRE(cudaMalloc(&in, 512 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, 512 * sizeof(float)) == cudaSuccess);
    std::vector<float> half(256, 2.0f);
    REQUIRE(cudaMemcpy(in, half.data(), 256 * sizeof(float), cudaMemcpyHostToDevice) ==
            cudaSuccess);
    LAUNCH(sum_k, 1, 256, 0, out, in);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(sum_k, 2, 512, 0, out, in);  // threads 256..511 read what nobody wrote
    auto f = found(finding_kind::uninitialised_read);
    REQUIRE(f.size() == 1);
    CHECK_FALSE(f[0].error);
    CHECK(f[0].count == 512);
    // Launched as the rewriter launches a barrier-free kernel: in a checked file, the same
    // launch with the same checks (unchecked.cpp has the unchecked twin).
    gpulab_sim::clear_findings();
    ::gpulab_sim::launch_barrier_free(
        __FILE__, __LINE__, 2, 512, 0, 0, [&](auto&&... a) { sum_k(a...); }, out, in);
    f = found(finding_kind::uninitialised_read);
    REQUIRE(f.size() == 1);
    CHECK(f[0].count == 512);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);  // warnings go on
    CHECK(to_host(out, 512)[0] == 3.0f);
    REQUIRE(cudaMemset(in, 0, 512 * sizeof(float)) == cudaSuccess);
    gpulab_sim::clear_findings();
    LAUNCH(sum_k, 1, 512, 0, out, in);
    CHECK(gpulab_sim::findings().empty());
    // A kernel's writes initialise too.
    LAUNCH(sum_k, 1, 512, 0, in, out);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(in);
    cudaFree(out);
  }

  TEST_CASE("device memory written where no check sees (Thrust's CPU back-end) is written") {
    fresh();
    float* in = nullptr;
    float* out = nullptr;
    REQUIRE(cudaMalloc(&in, 64 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, 64 * sizeof(float)) == cudaSuccess);
    // As Thrust's C++ back-end writes device memory here: plain host stores, whole words.
    for (int i = 0; i < 32; ++i) in[i] = static_cast<float>(i);
    LAUNCH(sum_k, 1, 32, 0, out, in);
    CHECK(gpulab_sim::findings().empty());
    CHECK(to_host(out, 32)[31] == 32.0f);
    LAUNCH(sum_k, 1, 64, 0, out, in);  // words 32..63 still hold the fresh memory's poison
    const auto f = found(finding_kind::uninitialised_read);
    REQUIRE(f.size() == 1);
    CHECK(f[0].count == 32);
    cudaFree(in);
    cudaFree(out);
  }

  TEST_CASE("uninitialised shared reads; clean twin") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(shared_uninit_k, 3, 64, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    LAUNCH(shared_uninit_k, 3, 64, 0, out, 1);
    auto f = found(finding_kind::uninitialised_read);
    REQUIRE(f.size() == 1);
    CHECK(f[0].count == 3 * 32);
    CHECK(f[0].message.find("shared") != std::string::npos);
    CHECK(f[0].message.find("declared at") != std::string::npos);  // where the array is made
    cudaFree(out);
  }

  TEST_CASE("an atomic on shared memory nothing wrote is an uninitialised read; clean twin") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(one_bin_per_thread_k, 2, 32, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    CHECK(to_host(out, 64)[2] == 1);
    // Every block, whatever its bins held before: bins 32..62 (even) take atomics unzeroed,
    // bins 33..63 (odd) are read out unwritten.
    LAUNCH(one_bin_per_thread_k, 2, 32, 0, out, 1);
    const auto f = found(finding_kind::uninitialised_read);
    REQUIRE(f.size() == 2);
    CHECK(f[0].message.find("updates, with an atomic, 4 bytes of __shared__ bins") !=
          std::string::npos);
    CHECK(f[0].count == 2 * 16);
    CHECK(f[1].message.find("reads 4 bytes of __shared__ bins") != std::string::npos);
    CHECK(f[1].count == 2 * 16);
    CHECK(f[0].message.find("set shared memory in each block") != std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);  // the kernel is not stopped
    cudaFree(out);
  }

  TEST_CASE("a grader's output: named without its guards, unwritten until set, guards outside") {
    fresh();
    constexpr std::size_t guard = 256, bytes = 16 * sizeof(int);
    int* whole = nullptr;
    int* image = nullptr;  // the poisoned image each poisoning copies from (run_part.h)
    REQUIRE(cudaMalloc(&whole, 2 * guard + bytes) == cudaSuccess);
    REQUIRE(cudaMalloc(&image, 2 * guard + bytes) == cudaSuccess);
    gpulab_sim::detail::mark_output(image, guard, bytes, "counts");
    gpulab_sim::detail::mark_output(whole, guard, bytes, "counts");
    int* out = whole + guard / sizeof(int);
    LAUNCH(accumulate_k, 1, 16, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    // Poisoned again: a device-to-device copy carries the image's shadow.
    REQUIRE(cudaMemcpy(whole, image, 2 * guard + bytes, cudaMemcpyDeviceToDevice) == cudaSuccess);
    LAUNCH(accumulate_k, 1, 16, 0, out, 1);
    auto f = found(finding_kind::uninitialised_read);
    REQUIRE(f.size() == 1);
    CHECK(f[0].count == 16);
    CHECK(f[0].message.find("read of an output before it was written") != std::string::npos);
    CHECK(f[0].message.find("offset 0 in the 64-byte output counts") != std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    gpulab_sim::clear_findings();
    LAUNCH(fill_k, 1, 17, 0, out);  // one past the end: in the guard zone
    f = found(finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("0 bytes past the end of the 64-byte output counts") !=
          std::string::npos);
    CHECK(f[0].message.find(std::to_string(2 * guard + bytes)) == std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    fresh();
  }

  TEST_CASE("shared-memory races between warps and lockstep reliance within a warp") {
    fresh();
    std::vector<float> h(4 * 256, 1.0f);
    float* in = to_device(h);
    float* out = nullptr;
    REQUIRE(cudaMalloc(&out, 4 * sizeof(float)) == cudaSuccess);
    LAUNCH(reduce_k, 4, 256, 0, out, in, 0);
    CHECK(gpulab_sim::findings().empty());
    auto r = to_host(out, 4);
    CHECK(r[2] == 256.0f);
    LAUNCH(reduce_k, 4, 256, 0, out, in, 1);
    const auto races = found(finding_kind::shared_race);
    REQUIRE_FALSE(races.empty());
    CHECK_FALSE(races[0].error);
    CHECK(races[0].message.find("no __syncthreads()") != std::string::npos);
    // Two lines, a missing barrier: no advice about atomics.
    CHECK(races[0].message.find("atomic") == std::string::npos);
    const auto lock = found(finding_kind::warp_lockstep);
    REQUIRE_FALSE(lock.empty());
    CHECK(lock[0].message.find("__syncwarp") != std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);  // warnings: the run goes on
    gpulab_sim::clear_findings();
    int* hits = nullptr;
    REQUIRE(cudaMalloc(&hits, 4 * sizeof(int)) == cudaSuccess);
    LAUNCH(atomics_only_k, 4, 256, 0, hits);
    CHECK(gpulab_sim::findings().empty());  // atomics do not race with each other
    CHECK(to_host(hits, 4)[3] == 256);
    // Threads reading and writing back a shared counter: a lost update, whose advice is an
    // atomic, not a barrier; between warps and inside one.
    LAUNCH(counter_k, 4, 256, 0, hits, 0);
    CHECK(gpulab_sim::findings().empty());
    for (unsigned threads : {256u, 32u}) {
      gpulab_sim::clear_findings();
      LAUNCH(counter_k, 4, threads, 0, hits, 1);
      const auto lost = found(finding_kind::lost_update);
      REQUIRE_FALSE(lost.empty());
      CHECK(lost[0].message.find("make it an atomic") != std::string::npos);
      CHECK(found(finding_kind::shared_race).empty());
      CHECK(found(finding_kind::warp_lockstep).empty());
    }
    // A neighbour's value read on the same line that writes its own: a missing barrier.
    gpulab_sim::clear_findings();
    int* sums = nullptr;
    REQUIRE(cudaMalloc(&sums, 256 * sizeof(int)) == cudaSuccess);
    for (const bool tree : {false, true}) {
      gpulab_sim::clear_findings();
      if (tree)
        LAUNCH(tree_k, 1, 256, 0, sums);  // read-modify-writes both, at different steps
      else
        LAUNCH(neighbour_k, 1, 64, 0, sums);
      const auto raced = found(finding_kind::shared_race);
      REQUIRE_FALSE(raced.empty());
      CHECK(found(finding_kind::lost_update).empty());
      for (const auto& r : raced) {
        CHECK(r.message.find("Add __syncthreads()") != std::string::npos);
        CHECK(r.message.find("atomic") == std::string::npos);
      }
    }
    cudaFree(sums);
    // An atomic and a plain access of another thread with no barrier between them race too.
    gpulab_sim::clear_findings();
    int* counts = nullptr;
    REQUIRE(cudaMalloc(&counts, 16 * sizeof(int)) == cudaSuccess);
    LAUNCH(private_histogram_k, 4, 256, 0, counts, 0);
    CHECK(gpulab_sim::findings().empty());
    CHECK(to_host(counts, 16)[15] == 64);
    for (int planted : {1, 2}) {
      gpulab_sim::clear_findings();
      LAUNCH(private_histogram_k, 4, 256, 0, counts, planted);
      const auto raced = found(finding_kind::shared_race);
      REQUIRE_FALSE(raced.empty());
      CHECK(raced[0].message.find("no __syncthreads()") != std::string::npos);
      // Planted 1: thread 32's atomic meets thread 0's zeroing. Planted 2: the read-out and
      // the atomics meet, whichever the CPU runs first.
      CHECK(raced[0].message.find(planted == 1
                                      ? "updates, with an atomic, bytes that thread (0,0,0) wrote"
                                      : "with an atomic") != std::string::npos);
    }
    cudaFree(counts);
    cudaFree(in);
    cudaFree(out);
    cudaFree(hits);
  }

  TEST_CASE("__trap, C++ exceptions and too much static shared memory stop the kernel") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(out, 0, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH(trap_k, 1, 32, 0, out, 0);
    LAUNCH(big_shared_k<4096>, 1, 32, 0, out);
    LAUNCH(throw_k, 1, 32, 0, out, 0);
    CHECK(gpulab_sim::findings().empty());
    CHECK(to_host(out, 32)[5] == 1);
    LAUNCH(trap_k, 1, 32, 0, out, 1);
    CHECK(found(finding_kind::kernel_exception).size() == 1);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    fresh();
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH(throw_k, 1, 32, 0, out, 1);
    REQUIRE(found(finding_kind::kernel_exception).size() == 1);
    CHECK(found(finding_kind::kernel_exception)[0].message.find("boom") != std::string::npos);
    fresh();
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH(big_shared_k<8192>, 1, 32, 0, out);
    CHECK(found(finding_kind::shared_limit).size() == 1);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchOutOfResources);
    fresh();
  }

  TEST_CASE("global-memory races: unordered writes of one word by two threads; clean twins") {
    fresh();
    const std::string path = "sim_runtime_race_report_test.jsonl";
    std::remove(path.c_str());
    setenv("GPULAB_SIM_REPORT", path.c_str(), 1);
    gpulab_sim::detail::reload_settings();
    float* p = nullptr;
    REQUIRE(cudaMalloc(&p, 1024 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(p, 0, 1024 * sizeof(float)) == cudaSuccess);
    LAUNCH(scatter_k, 4, 64, 0, p);
    gpulab_sim::detail::reload_settings();  // the report closed
    auto f = found(finding_kind::global_race);
    REQUIRE(f.size() == 1);
    CHECK_FALSE(f[0].error);   // a warning: the run goes on
    CHECK(f[0].count >= 200);  // (blocks run in parallel: two may both see the word fresh)
    CHECK(f[0].message.find("race on global memory") != std::string::npos);
    CHECK(f[0].message.find("offset 0 in a 4096-byte cudaMalloc allocation") != std::string::npos);
    CHECK(f[0].message.find("Use atomicAdd") != std::string::npos);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    {
      std::ifstream in(path);
      std::stringstream ss;
      ss << in.rdbuf();
      CHECK(ss.str().find("\"kind\":\"global_race\",\"severity\":\"warning\"") !=
            std::string::npos);
    }
    std::remove(path.c_str());

    // The message names both threads and both sites.
    gpulab_sim::clear_findings();
    int* q = nullptr;
    REQUIRE(cudaMalloc(&q, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(two_sites_race_k, 1, 2, 0, q);
    f = found(finding_kind::global_race);
    REQUIRE(f.size() == 1);
    CHECK(f[0].count == 1);
    const std::string m = f[0].message;
    CHECK(m.find("thread (0,0,0) of block (0,0,0) and thread (1,0,0) of block (0,0,0)") !=
          std::string::npos);
    const int l0 = f[0].line - 2;  // the thread 0 branch is two lines above thread 1's
    CHECK(m.find("(" + f[0].file + ":" + std::to_string(l0) + " and " + f[0].file + ":" +
                 std::to_string(f[0].line) + ")") != std::string::npos);
    CHECK(m.find("no __syncthreads()") != std::string::npos);

    // An atomic and a plain write race too.
    gpulab_sim::clear_findings();
    LAUNCH(plain_then_atomic_k, 4, 32, 0, q);
    f = found(finding_kind::global_race);
    REQUIRE_FALSE(f.empty());
    CHECK(f[0].message.find("atomic and plain write") != std::string::npos);

    // An 8-byte element shared by two threads.
    gpulab_sim::clear_findings();
    double* d = nullptr;
    REQUIRE(cudaMalloc(&d, 32 * sizeof(double)) == cudaSuccess);
    REQUIRE(cudaMemset(d, 0, 32 * sizeof(double)) == cudaSuccess);
    LAUNCH(double_k, 1, 64, 0, d);
    REQUIRE(found(finding_kind::global_race).size() == 1);

    gpulab_sim::clear_findings();
    LAUNCH(read_then_write_k, 4, 64, 0, p);
    REQUIRE(found(finding_kind::global_race).size() == 1);

    // Plain stores of one value race harmlessly; a different value in one word of a float4 is
    // a race on that word.
    gpulab_sim::clear_findings();
    float4* v4 = nullptr;
    REQUIRE(cudaMalloc(&v4, sizeof(float4)) == cudaSuccess);
    LAUNCH(set_flag_k, 4, 64, 0, q, v4);
    f = found(finding_kind::global_race);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("at offset 12 in a 16-byte") != std::string::npos);
    CHECK(f[0].count >= 100);
    cudaFree(v4);

    // Clean twins: atomics, one element per thread, a __syncthreads() between the two writers,
    // and two writers in two launches.
    gpulab_sim::clear_findings();
    REQUIRE(cudaMemset(p, 0, 1024 * sizeof(float)) == cudaSuccess);
    LAUNCH(scatter_atomic_k, 4, 64, 0, p);
    CHECK(to_host(p, 1)[0] == 256.0f);
    LAUNCH(own_element_k, 4, 256, 0, p);
    LAUNCH(own_element_k, 4, 256, 0, p);  // the same words again, by the same threads
    LAUNCH(handoff_k, 1, 64, 0, p);
    CHECK(to_host(p, 1)[0] == 2.0f);
    LAUNCH(one_writer_k, 2, 32, 0, p, 0u);
    LAUNCH(one_writer_k, 2, 32, 0, p, 33u);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(p);
    cudaFree(q);
    cudaFree(d);
    fresh();
  }

  TEST_CASE(
      "global-memory writes under one lock do not race; under two locks, or one side "
      "unlocked, they do") {
    fresh();
    float* p = nullptr;
    int* locks = nullptr;
    REQUIRE(cudaMalloc(&p, 4 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&locks, 4 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(locks, 0, 4 * sizeof(int)) == cudaSuccess);
    // Clean twins: one global lock over one word (blocks on several OS threads contend for it),
    // and a lock per word.
    REQUIRE(cudaMemset(p, 0, 4 * sizeof(float)) == cudaSuccess);
    LAUNCH(locked_add_k, 8, 64, 0, p, locks, 1, 0, 1);
    CHECK(to_host(p, 1)[0] == 512.0f);
    LAUNCH(locked_add_k, 8, 64, 0, p, locks, 4, 1, 1);
    CHECK(to_host(p, 4)[3] == 128.0f);
    CHECK(gpulab_sim::findings().empty());
    // Two locks over one word: nothing orders the two locks' holders.
    LAUNCH(locked_add_k, 1, 64, 0, p, locks, 2, 0, 1);
    CHECK(found(finding_kind::global_race).size() == 1);
    // Every other thread takes the lock, the rest write without it.
    gpulab_sim::clear_findings();
    LAUNCH(locked_add_k, 1, 64, 0, p, locks, 1, 0, 2);
    CHECK(found(finding_kind::global_race).size() == 1);
    cudaFree(p);
    cudaFree(locks);
    fresh();
  }

  TEST_CASE("findings go to GPULAB_SIM_REPORT as JSON lines") {
    fresh();
    const std::string path = "sim_runtime_report_test.jsonl";
    std::remove(path.c_str());
    setenv("GPULAB_SIM_REPORT", path.c_str(), 1);
    gpulab_sim::detail::reload_settings();
    Buffers b(100);
    LAUNCH(copy_k, 1, 128, 0, b.out, b.in, 100, 5);
    gpulab_sim::detail::reload_settings();  // the report closed
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string s = ss.str();
    CHECK(s.find("\"kind\":\"out_of_bounds\"") != std::string::npos);
    CHECK(s.find("\"severity\":\"error\"") != std::string::npos);
    CHECK(s.find("\"block\":[0,0,0]") != std::string::npos);
    CHECK(std::count(s.begin(), s.end(), '\n') == 1);
    std::remove(path.c_str());
    fresh();
  }

  TEST_CASE("the report on a descriptor: each finding when made, final counts, an end record") {
    fresh();
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    setenv("GPULAB_SIM_REPORT_FD", std::to_string(fds[1]).c_str(), 1);
    setenv("GPULAB_SIM_REPORT_KEY", "k3y", 1);
    gpulab_sim::detail::reload_settings();
    CHECK(std::getenv("GPULAB_SIM_REPORT_FD") == nullptr);  // read once, then gone
    CHECK(std::getenv("GPULAB_SIM_REPORT_KEY") == nullptr);
    float* p = nullptr;
    REQUIRE(cudaMalloc(&p, 1024 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(p, 0, 1024 * sizeof(float)) == cudaSuccess);
    const auto drained = [&] {
      std::string got;
      char buf[4096];
      for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, n);
      return got;
    };
    REQUIRE(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0);
    std::string first;
    for (int i = 0; i < 2; ++i) {  // one launch site, twice
      LAUNCH(scatter_k, 4, 64, 0, p);
      // Out as soon as it was made (count 1), before the program could do anything about it.
      if (i == 0) first = drained();
    }
    CHECK(std::count(first.begin(), first.end(), '\n') == 1);
    CHECK(first.find("\"kind\":\"global_race\"") != std::string::npos);
    CHECK(first.find("\"count\":1,") != std::string::npos);
    REQUIRE(found(finding_kind::global_race).size() == 1);
    const std::size_t count = found(finding_kind::global_race).at(0).count;
    REQUIRE(count > 1);
    gpulab_sim::detail::finish_report();  // as at exit
    const std::string rest = drained();
    CHECK(rest.find("\"count\":" + std::to_string(count) + ",") != std::string::npos);
    CHECK(rest.find("{\"end\":{\"launches\":2,\"records\":2,\"key\":\"k3y\"}}\n") !=
          std::string::npos);
    // Nothing after the end record.
    LAUNCH(copy_k, 9, 128, 0, p, p, 1024, 100);
    CHECK(found(finding_kind::out_of_bounds).size() == 1);
    CHECK(drained().empty());
    CHECK(fcntl(fds[1], F_GETFD) >= 0);  // a descriptor it was given stays open
    close(fds[0]);
    close(fds[1]);
    cudaFree(p);
    fresh();
  }
}
