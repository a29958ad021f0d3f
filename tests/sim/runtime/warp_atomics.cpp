// Warp operations (every one, with widths) and atomics (every type and operation, contended
// across many blocks that run on several OS threads).
#include <cstdlib>
#include <set>

#include "sim_test.h"

namespace {

// out[k * 32 + lane] for each operation k.
void shuffles_k(int* out) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const unsigned full = 0xffffffffu;
  const int v = lane * 10;
  int k = 0;
  int* o = out + (threadIdx.x / 32) * 1024;
  WR(o[k++ * 32 + lane]) = __shfl_sync(full, v, 3);
  WR(o[k++ * 32 + lane]) = __shfl_sync(full, v, 3, 8);
  WR(o[k++ * 32 + lane]) = __shfl_sync(full, v, lane + 1, 16);
  WR(o[k++ * 32 + lane]) = __shfl_up_sync(full, v, 2);
  WR(o[k++ * 32 + lane]) = __shfl_up_sync(full, v, 2, 8);
  WR(o[k++ * 32 + lane]) = __shfl_down_sync(full, v, 5);
  WR(o[k++ * 32 + lane]) = __shfl_down_sync(full, v, 5, 16);
  WR(o[k++ * 32 + lane]) = __shfl_xor_sync(full, v, 1);
  WR(o[k++ * 32 + lane]) = __shfl_xor_sync(full, v, 16, 16);
  WR(o[k++ * 32 + lane]) = static_cast<int>(__ballot_sync(full, lane % 3 == 0));
  WR(o[k++ * 32 + lane]) = __any_sync(full, lane == 17);
  WR(o[k++ * 32 + lane]) = __any_sync(full, lane > 40);
  WR(o[k++ * 32 + lane]) = __all_sync(full, lane < 32);
  WR(o[k++ * 32 + lane]) = __all_sync(full, lane != 4);
  WR(o[k++ * 32 + lane]) = static_cast<int>(__activemask());
  __syncwarp();
  WR(o[k++ * 32 + lane]) = static_cast<int>(__reduce_add_sync(full, lane));
  WR(o[k++ * 32 + lane]) = static_cast<int>(__match_any_sync(full, lane / 8));
  // A warp sum by shuffles, floats and doubles.
  float f = static_cast<float>(lane);
  for (int d = 16; d > 0; d /= 2) f += __shfl_down_sync(full, f, d);
  WR(o[k++ * 32 + lane]) = static_cast<int>(f);
  double x = lane;
  for (int d = 1; d < 32; d *= 2) x += __shfl_xor_sync(full, x, d);
  WR(o[k++ * 32 + lane]) = static_cast<int>(x);
  // A half-warp subgroup with its own mask.
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  WR(o[k++ * 32 + lane]) = __shfl_sync(half, v, lane < 16 ? 0 : 16);
}

// __activemask() in a divergent branch names the lanes that take the branch.
void active_k(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  if (lane % 2 == 1) {
    const unsigned m = __activemask();
    WR(out[threadIdx.x]) = __shfl_sync(m, m, 1);
  } else if (lane < 8) {
    WR(out[threadIdx.x]) = __activemask();
  }
}

template <class T>
void add_k(T* p, T v) {
  atomicAdd(p, v);
}
template <class T>
void sub_k(T* p, T v) {
  atomicSub(p, v);
}
template <class T>
void minmax_k(T* p) {
  const T id = static_cast<T>(blockIdx.x * blockDim.x + threadIdx.x);
  atomicMin(p, static_cast<T>(id + 5));
  atomicMax(p + 1, id);
}
template <class T>
void bits_k(T* p) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(p, static_cast<T>(T(1) << (id % 32)));
  atomicAnd(p + 1, static_cast<T>(~(T(1) << (id % 32))));
  atomicXor(p + 2, static_cast<T>(id));
}
template <class T>
void exch_k(T* p, T* olds) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  WR(olds[id]) = atomicExch(p, static_cast<T>(id + 1));
}
template <class T>
void cas_k(T* p) {
  T old = RD(*p), assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, static_cast<T>(assumed + 1));
  } while (old != assumed);
}
void incdec_k(unsigned* p) {
  atomicInc(p, 99u);
  atomicDec(p + 1, 99u);
}
void shared_atomic_k(int* out) {
  static char gpulab_sim_tu;
  SHARED(int, s, 0);
  if (threadIdx.x == 0) WR(s) = 0;
  __syncthreads();
  atomicAdd(&s, 2);
  __syncthreads();
  if (threadIdx.x == 0) WR(out[blockIdx.x]) = RD(s);
}

constexpr unsigned kBlocks = 64, kThreads = 256, kN = kBlocks * kThreads;

template <class T>
T* zeros(size_t n, int byte = 0) {
  T* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(T)) == cudaSuccess);
  REQUIRE(cudaMemset(d, byte, n * sizeof(T)) == cudaSuccess);
  return d;
}

template <class T>
void check_int_atomics() {
  T* p = zeros<T>(4);
  LAUNCH(add_k<T>, kBlocks, kThreads, 0, p, T(3));
  CHECK(to_host(p, 1)[0] == T(3 * kN));
  LAUNCH(sub_k<T>, kBlocks, kThreads, 0, p, T(1));
  CHECK(to_host(p, 1)[0] == T(2 * kN));
  LAUNCH(cas_k<T>, kBlocks, kThreads, 0, p);
  CHECK(to_host(p, 1)[0] == T(3 * kN));
  const T init[2] = {T(1000000), T(0)};
  REQUIRE(cudaMemcpy(p, init, sizeof(init), cudaMemcpyHostToDevice) == cudaSuccess);
  LAUNCH(minmax_k<T>, kBlocks, kThreads, 0, p);
  auto h = to_host(p, 2);
  CHECK(h[0] == T(5));
  CHECK(h[1] == T(kN - 1));
  const T bits[3] = {T(0), T(~T(0)), T(0)};
  REQUIRE(cudaMemcpy(p, bits, sizeof(bits), cudaMemcpyHostToDevice) == cudaSuccess);
  LAUNCH(bits_k<T>, kBlocks, kThreads, 0, p);
  h = to_host(p, 3);
  CHECK(h[0] == T(0xffffffffu));
  CHECK(h[1] == T(~T(0xffffffffu)));
  T x = 0;
  for (unsigned i = 0; i < kN; ++i) x ^= T(i);
  CHECK(h[2] == x);
  T* olds = zeros<T>(kN);
  REQUIRE(cudaMemset(p, 0, sizeof(T)) == cudaSuccess);
  LAUNCH(exch_k<T>, kBlocks, kThreads, 0, p, olds);
  auto o = to_host(olds, kN);
  o.push_back(to_host(p, 1)[0]);
  std::sort(o.begin(), o.end());
  for (unsigned i = 0; i <= kN; ++i) REQUIRE(o[i] == T(i));  // every value exactly once
  cudaFree(olds);
  cudaFree(p);
}

}  // namespace

TEST_SUITE("warp_atomics") {
  TEST_CASE("shuffles, votes, reductions, with widths and subgroups") {
    fresh();
    int* d = zeros<int>(2 * 1024);
    LAUNCH(shuffles_k, 1, 64, 0, d);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    const auto h = to_host(d, 2 * 1024);
    for (int w = 0; w < 2; ++w) {
      const int* o = h.data() + w * 1024;
      for (int l = 0; l < 32; ++l) {
        int k = 0;
        CAPTURE(l);
        CHECK(o[k++ * 32 + l] == 30);
        CHECK(o[k++ * 32 + l] == ((l & ~7) + 3) * 10);
        CHECK(o[k++ * 32 + l] == ((l & ~15) + ((l + 1) & 15)) * 10);
        CHECK(o[k++ * 32 + l] == (l >= 2 ? l - 2 : l) * 10);
        CHECK(o[k++ * 32 + l] == (l % 8 >= 2 ? l - 2 : l) * 10);
        CHECK(o[k++ * 32 + l] == (l + 5 < 32 ? l + 5 : l) * 10);
        CHECK(o[k++ * 32 + l] == (l % 16 + 5 < 16 ? l + 5 : l) * 10);
        CHECK(o[k++ * 32 + l] == (l ^ 1) * 10);
        CHECK(o[k++ * 32 + l] == (l < 16 ? l : (l ^ 16)) * 10);  // later segment: own value
        CHECK(static_cast<unsigned>(o[k++ * 32 + l]) == 0x49249249u);
        CHECK(o[k++ * 32 + l] == 1);
        CHECK(o[k++ * 32 + l] == 0);
        CHECK(o[k++ * 32 + l] == 1);
        CHECK(o[k++ * 32 + l] == 0);
        CHECK(static_cast<unsigned>(o[k++ * 32 + l]) == 0xffffffffu);
        CHECK(o[k++ * 32 + l] == 496);
        CHECK(static_cast<unsigned>(o[k++ * 32 + l]) == 0xffu << (l / 8 * 8));
        if (l == 0) CHECK(o[k * 32 + l] == 496);
        ++k;
        CHECK(o[k++ * 32 + l] == 496);
        CHECK(o[k++ * 32 + l] == (l < 16 ? 0 : 160));
      }
    }
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }

  TEST_CASE("__activemask in divergent branches") {
    fresh();
    unsigned* d = zeros<unsigned>(64);
    LAUNCH(active_k, 1, 48, 0, d);
    const auto h = to_host(d, 64);
    CHECK(h[1] == 0xaaaaaaaau);
    CHECK(h[31] == 0xaaaaaaaau);
    CHECK(h[0] == 0x55u);
    CHECK(h[6] == 0x55u);
    CHECK(h[8] == 0u);
    CHECK(h[33] == 0xaaaau);  // the last warp has 16 threads
    CHECK(h[32] == 0x55u);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }

  TEST_CASE("integer atomics under contention: int, unsigned, unsigned long long") {
    fresh();
    check_int_atomics<int>();
    check_int_atomics<unsigned>();
    check_int_atomics<unsigned long long>();
    CHECK(gpulab_sim::findings().empty());
  }

  TEST_CASE("floating-point atomics: float and double add, float exchange") {
    fresh();
    float* f = zeros<float>(1);
    LAUNCH(add_k<float>, kBlocks, kThreads, 0, f, 0.5f);
    CHECK(to_host(f, 1)[0] == 0.5f * kN);
    double* d = zeros<double>(1);
    LAUNCH(add_k<double>, kBlocks, kThreads, 0, d, 0.25);
    CHECK(to_host(d, 1)[0] == 0.25 * kN);
    float* olds = zeros<float>(kN);
    const float minus_one = -1;
    REQUIRE(cudaMemcpy(f, &minus_one, sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    LAUNCH(exch_k<float>, kBlocks, kThreads, 0, f, olds);
    auto o = to_host(olds, kN);
    o.push_back(to_host(f, 1)[0]);
    std::sort(o.begin(), o.end());
    for (unsigned i = 0; i <= kN; ++i) REQUIRE(o[i] == static_cast<float>(i) - (i == 0));
    CHECK(gpulab_sim::findings().empty());
    cudaFree(f);
    cudaFree(d);
    cudaFree(olds);
  }

  TEST_CASE("atomicInc and atomicDec wrap") {
    fresh();
    unsigned* p = zeros<unsigned>(2);
    LAUNCH(incdec_k, 10, 125, 0, p);
    const auto h = to_host(p, 2);
    CHECK(h[0] == 1250u % 100u);
    CHECK(h[1] == (100u - 1250u % 100u) % 100u);
    cudaFree(p);
  }

  TEST_CASE("atomics on shared memory, per block") {
    fresh();
    int* d = zeros<int>(16);
    LAUNCH(shared_atomic_k, 16, 128, 0, d);
    const auto h = to_host(d, 16);
    for (int b = 0; b < 16; ++b) CHECK(h[b] == 256);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }
}
