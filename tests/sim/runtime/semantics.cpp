// Execution semantics: indices, barriers, shared memory, symbols, vector types, math, block
// order.
#include <cuda_fp16.h>

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <set>

#include "sim_test.h"

static char gpulab_sim_tu;

namespace {

void reverse_k(int* out, const int* in) {
  SHARED(int[256], s, 0);
  const unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  WR(s[t]) = RD(in[g]);
  __syncthreads();
  WR(out[g]) = RD(s[blockDim.x - 1 - t]);
}

void index_k(uint4* out) {
  const unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  WR(out[b * blockDim.x * blockDim.y * blockDim.z + t]) =
      make_uint4(threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z,
                 blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z,
                 blockDim.x * blockDim.y * blockDim.z, gridDim.x * gridDim.y * gridDim.z);
}

// Modifies its by-value parameter: every thread must start from the launch's value.
void own_param_k(int* out, int v) {
  v += static_cast<int>(threadIdx.x);
  WR(out[threadIdx.x]) = v;
}

void barrier_forms_k(int* out) {
  const unsigned t = threadIdx.x;
  const int c = __syncthreads_count(t % 3 == 0);
  const int a = __syncthreads_and(t < 1000);
  const int a2 = __syncthreads_and(t != 5);
  const int o = __syncthreads_or(t == 77);
  const int o2 = __syncthreads_or(0);
  if (t == 0) {
    WR(out[0]) = c;
    WR(out[1]) = a;
    WR(out[2]) = a2;
    WR(out[3]) = o;
    WR(out[4]) = o2;
  }
}

// Many barriers in a loop: a running sum through shared memory, block-wide.
void scan_k(int* out, int steps) {
  SHARED(int[2][128], buf, 1);
  const unsigned t = threadIdx.x;
  int cur = 0;
  WR(buf[0][t]) = static_cast<int>(t);
  __syncthreads();
  for (int s = 1; s <= steps; s *= 2) {
    int v = RD(buf[cur][t]);
    if (t >= static_cast<unsigned>(s)) v += RD(buf[cur][t - s]);
    WR(buf[1 - cur][t]) = v;
    cur = 1 - cur;
    __syncthreads();
  }
  WR(out[blockIdx.x * blockDim.x + t]) = RD(buf[cur][t]);
}

void dyn_k(float* out, int n) {
  float* d = ::gpulab_sim::dynamic_shared<float>(__FILE__, __LINE__);
  const int t = static_cast<int>(threadIdx.x);
  for (int i = t; i < n; i += blockDim.x) WR(d[i]) = static_cast<float>(i + blockIdx.x);
  __syncthreads();
  float s = 0;
  for (int i = 0; i < n; ++i) s += RD(d[i]);
  WR(out[blockIdx.x * blockDim.x + t]) = s;
}

float coeffs[4];
gpulab_sim::symbol gpulab_sim_sym_0(&coeffs, sizeof(coeffs), "coeffs");
int counter_sym;
gpulab_sim::symbol gpulab_sim_sym_1(&counter_sym, sizeof(counter_sym), "counter_sym");

void poly_k(float* out, const float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float v = RD(x[i]);
  WR(out[i]) = RD(coeffs[0]) + v * (RD(coeffs[1]) + v * (RD(coeffs[2]) + v * RD(coeffs[3])));
  atomicAdd(&counter_sym, 1);
}

void vec_k(float4* out, const float4* in, double2* d2) {
  const unsigned i = threadIdx.x;
  float4 v = RD(in[i]);
  v.x += 1;
  v.w *= 2;
  WR(out[i]) = v;
  WR(d2[i]) = make_double2(v.y, v.z);
}

void order_k(unsigned* order, unsigned* next) {
  if (threadIdx.x == 0) WR(order[atomicAdd(next, 1u)]) = blockIdx.x;
}

void local_array_k(int* out) {
  int local[8];
  int* p = local;  // a pointer to the thread's own stack passes the address check
  for (int i = 0; i < 8; ++i) WR(p[i]) = i * static_cast<int>(threadIdx.x);
  int s = 0;
  for (int i = 0; i < 8; ++i) s += RD(p[i]);
  WR(out[threadIdx.x]) = s;
}

}  // namespace

TEST_SUITE("semantics") {
  TEST_CASE("__syncthreads orders shared-memory writes and reads in every block") {
    fresh();
    const int blocks = 64, threads = 256, n = blocks * threads;
    std::vector<int> in(n);
    std::iota(in.begin(), in.end(), 0);
    int* d_in = to_device(in);
    int* d_out = nullptr;
    REQUIRE(cudaMalloc(&d_out, n * sizeof(int)) == cudaSuccess);
    LAUNCH(reverse_k, blocks, threads, 0, d_out, d_in);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    const auto out = to_host(d_out, n);
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t)
        REQUIRE(out[b * threads + t] == in[b * threads + threads - 1 - t]);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d_in);
    cudaFree(d_out);
  }

  TEST_CASE("threadIdx, blockIdx, blockDim and gridDim in 3D") {
    fresh();
    const dim3 grid(3, 2, 2), block(4, 3, 2);
    const unsigned n = 12 * 24;
    uint4* d = nullptr;
    REQUIRE(cudaMalloc(&d, n * sizeof(uint4)) == cudaSuccess);
    LAUNCH(index_k, grid, block, 0, d);
    const auto h = to_host(d, n);
    for (unsigned bz = 0; bz < 2; ++bz)
      for (unsigned by = 0; by < 2; ++by)
        for (unsigned bx = 0; bx < 3; ++bx)
          for (unsigned tz = 0; tz < 2; ++tz)
            for (unsigned ty = 0; ty < 3; ++ty)
              for (unsigned tx = 0; tx < 4; ++tx) {
                const unsigned b = (bz * 2 + by) * 3 + bx, t = (tz * 3 + ty) * 4 + tx;
                const uint4 v = h[b * 24 + t];
                REQUIRE(v.x == tx + 100 * ty + 10000 * tz);
                REQUIRE(v.y == bx + 100 * by + 10000 * bz);
                REQUIRE(v.z == 24);
                REQUIRE(v.w == 12);
              }
    cudaFree(d);
  }

  TEST_CASE("threadIdx when the block shape changes between launches") {
    // The runtime sets each thread's coordinates once per block shape: launches of different
    // shapes, one after another, must each see their own.
    fresh();
    uint4* d = nullptr;
    REQUIRE(cudaMalloc(&d, 64 * sizeof(uint4)) == cudaSuccess);
    for (const dim3 block :
         {dim3(4, 3, 2), dim3(24, 1, 1), dim3(2, 3, 4), dim3(4, 3, 2), dim3(8, 8, 1)}) {
      LAUNCH(index_k, 1, block, 0, d);
      const auto h = to_host(d, block.x * block.y * block.z);
      for (unsigned tz = 0; tz < block.z; ++tz)
        for (unsigned ty = 0; ty < block.y; ++ty)
          for (unsigned tx = 0; tx < block.x; ++tx)
            REQUIRE(h[(tz * block.y + ty) * block.x + tx].x == tx + 100 * ty + 10000 * tz);
    }
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }

  TEST_CASE("each thread gets its own copy of the by-value parameters") {
    fresh();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 256 * sizeof(int)) == cudaSuccess);
    LAUNCH(own_param_k, 1, 256, 0, d, 7);
    const auto h = to_host(d, 256);
    for (int t = 0; t < 256; ++t) REQUIRE(h[t] == 7 + t);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }

  TEST_CASE("__syncthreads_count, _and, _or") {
    fresh();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 5 * sizeof(int)) == cudaSuccess);
    LAUNCH(barrier_forms_k, 2, 300, 0, d);
    const auto h = to_host(d, 5);
    CHECK(h[0] == 100);
    CHECK(h[1] == 1);
    CHECK(h[2] == 0);
    CHECK(h[3] == 1);
    CHECK(h[4] == 0);
    cudaFree(d);
  }

  TEST_CASE("barriers in a loop (Hillis-Steele scan)") {
    fresh();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 8 * 128 * sizeof(int)) == cudaSuccess);
    LAUNCH(scan_k, 8, 128, 0, d, 128);
    const auto h = to_host(d, 8 * 128);
    for (int b = 0; b < 8; ++b)
      for (int t = 0; t < 128; ++t) REQUIRE(h[b * 128 + t] == t * (t + 1) / 2);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }

  TEST_CASE("dynamic shared memory, and the opt-in above 48 KiB") {
    fresh();
    float* d = nullptr;
    REQUIRE(cudaMalloc(&d, 4 * 64 * sizeof(float)) == cudaSuccess);
    LAUNCH(dyn_k, 4, 64, 1000 * sizeof(float), d, 1000);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    auto h = to_host(d, 4 * 64);
    for (int b = 0; b < 4; ++b) CHECK(h[b * 64 + 5] == 999.0f * 1000 / 2 + 1000.0f * b);
    const int big = 25000;  // 100 000 bytes
    LAUNCH(dyn_k, 4, 64, big * sizeof(float), d, big);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    REQUIRE(cudaFuncSetAttribute(dyn_k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 big * sizeof(float)) == cudaSuccess);
    LAUNCH(dyn_k, 4, 64, big * sizeof(float), d, big);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    h = to_host(d, 4 * 64);
    CHECK(h[3 * 64] == doctest::Approx(double(big - 1) * big / 2 + 3.0 * big).epsilon(1e-3));
    CHECK(cudaFuncSetAttribute(dyn_k, cudaFuncAttributeMaxDynamicSharedMemorySize, 300000) ==
          cudaErrorInvalidValue);
    cudaFree(d);
  }

  TEST_CASE("__constant__ symbols with cudaMemcpyToSymbol / FromSymbol") {
    fresh();
    const float c[4] = {1, 2, 3, 4};
    REQUIRE(cudaMemcpyToSymbol(coeffs, c, sizeof(c)) == cudaSuccess);
    const int zero = 0;
    REQUIRE(cudaMemcpyToSymbol(counter_sym, &zero, sizeof(int)) == cudaSuccess);
    std::vector<float> x(1000);
    for (int i = 0; i < 1000; ++i) x[i] = 0.001f * i;
    float* dx = to_device(x);
    float* dy = nullptr;
    REQUIRE(cudaMalloc(&dy, 1000 * sizeof(float)) == cudaSuccess);
    LAUNCH(poly_k, 4, 256, 0, dy, dx, 1000);
    const auto y = to_host(dy, 1000);
    for (int i = 0; i < 1000; ++i)
      REQUIRE(y[i] == doctest::Approx(1 + x[i] * (2 + x[i] * (3 + x[i] * 4))));
    int count = 0;
    REQUIRE(cudaMemcpyFromSymbol(&count, counter_sym, sizeof(int)) == cudaSuccess);
    CHECK(count == 1000);
    float back[2];
    REQUIRE(cudaMemcpyFromSymbol(back, coeffs, 2 * sizeof(float), 2 * sizeof(float)) ==
            cudaSuccess);
    CHECK(back[0] == 3);
    CHECK(back[1] == 4);
    // Bounds-checked against the symbol: not sticky.
    CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof(c), sizeof(float)) == cudaErrorInvalidValue);
    CHECK(found(gpulab_sim::finding_kind::bad_copy).size() == 1);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(gpulab_sim::findings().size() == 1);
    cudaFree(dx);
    cudaFree(dy);
  }

  TEST_CASE("vector types: layout, make_*, whole-struct accesses") {
    fresh();
    CHECK(sizeof(float4) == 16);
    CHECK(alignof(float4) == 16);
    CHECK(sizeof(float3) == 12);
    CHECK(alignof(float2) == 8);
    CHECK(sizeof(char4) == 4);
    CHECK(alignof(short2) == 4);
    CHECK(sizeof(double2) == 16);
    CHECK(alignof(longlong2) == 16);
    CHECK(sizeof(uchar3) == 3);
    CHECK(make_int3(1, 2, 3).z == 3);
    CHECK(make_ulonglong2(5, 6).y == 6u);
    const dim3 d(7);
    CHECK((d.x == 7 && d.y == 1 && d.z == 1));
    const uint3 u = dim3(2, 3, 4);
    CHECK(u.y == 3);
    std::vector<float4> in(32);
    for (int i = 0; i < 32; ++i) in[i] = make_float4(i, i + 0.5f, -i, 2);
    float4* din = to_device(in);
    float4* dout = nullptr;
    double2* d2 = nullptr;
    REQUIRE(cudaMalloc(&dout, 32 * sizeof(float4)) == cudaSuccess);
    REQUIRE(cudaMalloc(&d2, 32 * sizeof(double2)) == cudaSuccess);
    LAUNCH(vec_k, 1, 32, 0, dout, din, d2);
    const auto out = to_host(dout, 32);
    const auto o2 = to_host(d2, 32);
    CHECK(out[7].x == 8);
    CHECK(out[7].w == 4);
    CHECK(o2[7].x == 7.5);
    CHECK(o2[7].y == -7);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(din);
    cudaFree(dout);
    cudaFree(d2);
  }

  TEST_CASE("math intrinsics") {
    CHECK(rsqrtf(4.0f) == doctest::Approx(0.5));
    CHECK(__fdividef(1.0f, 4.0f) == 0.25f);
    CHECK(__frsqrt_rn(16.0f) == 0.25f);
    CHECK(__fsqrt_rn(9.0f) == 3.0f);
    CHECK(__expf(0.0f) == 1.0f);
    CHECK(__logf(1.0f) == 0.0f);
    CHECK(__sinf(0.0f) == 0.0f);
    CHECK(__cosf(0.0f) == 1.0f);
    CHECK(__powf(2.0f, 10.0f) == 1024.0f);
    CHECK(fmaf(2.0f, 3.0f, 1.0f) == 7.0f);
    CHECK(__fmaf_rn(2.0f, 3.0f, 1.0f) == 7.0f);
    CHECK(__fadd_rn(1.5f, 2.0f) == 3.5f);
    CHECK(__fmul_rn(1.5f, 2.0f) == 3.0f);
    CHECK(__saturatef(-1.0f) == 0.0f);
    CHECK(__saturatef(0.25f) == 0.25f);
    CHECK(__saturatef(7.0f) == 1.0f);
    CHECK(__saturatef(NAN) == 0.0f);
    CHECK(__popc(0xF0F0u) == 8);
    CHECK(__popcll(0xFFFFFFFFFFull) == 40);
    CHECK(__clz(1) == 31);
    CHECK(__clz(0) == 32);
    CHECK(__clzll(1) == 63);
    CHECK(__ffs(0) == 0);
    CHECK(__ffs(8) == 4);
    CHECK(__ffsll(1ll << 40) == 41);
    CHECK(__brev(1u) == 0x80000000u);
    CHECK(__brev(0x0000FFFFu) == 0xFFFF0000u);
    CHECK(__float_as_int(1.0f) == 0x3f800000);
    CHECK(__int_as_float(0x40000000) == 2.0f);
    CHECK(__float_as_uint(-0.0f) == 0x80000000u);
    CHECK(__float2int_rn(2.5f) == 2);
    CHECK(__float2int_rn(3.5f) == 4);
    CHECK(__float2int_rz(-2.7f) == -2);
    CHECK(__umulhi(0x80000000u, 4u) == 2u);
    CHECK(min(3, 5) == 3);
    CHECK(max(3u, 5u) == 5u);
    CHECK(min(2.5f, 1.5f) == 1.5f);
    CHECK(max(2.5, 1.5) == 2.5);
    CHECK(min(-1, 2u) == 2u);  // CUDA's mixed overload compares as unsigned
    CHECK(max(7ll, 9ll) == 9ll);
    CHECK(warpSize == 32);
    CHECK(__half2float(__float2half(0.1f)) == 0.099975586f);
    CHECK(__float2half(1.0f).bits == 0x3c00);
    CHECK(__float2half(65520.0f).bits == 0x7c00);  // rounds to infinity
    CHECK(__float2half(6e-8f).bits == 0x0001);     // the smallest subnormal
    CHECK(__half2float(__hadd(__float2half(1.5f), __float2half(2.0f))) == 3.5f);
  }

  TEST_CASE("local arrays through pointers are the thread's own") {
    fresh();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(local_array_k, 1, 64, 0, d);
    const auto h = to_host(d, 64);
    CHECK(h[10] == 280);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(d);
  }

  TEST_CASE("block order: natural, reverse, shuffle (seeded)") {
    fresh();
    const unsigned n = 64;
    unsigned* order = nullptr;
    unsigned* next = nullptr;
    REQUIRE(cudaMalloc(&order, n * sizeof(unsigned)) == cudaSuccess);
    REQUIRE(cudaMalloc(&next, sizeof(unsigned)) == cudaSuccess);
    auto run = [&] {
      REQUIRE(cudaMemset(next, 0, sizeof(unsigned)) == cudaSuccess);
      LAUNCH(order_k, n, 32, 0, order, next);
      return to_host(order, n);
    };
    // The settings are read at start (and by reload_settings()), then unset: one OS thread, so
    // the order is exact.
    const auto order_from = [](const char* how, const char* seed) {
      setenv("GPULAB_SIM_THREADS", "1", 1);
      setenv("GPULAB_SIM_BLOCK_ORDER", how, 1);
      setenv("GPULAB_SIM_SEED", seed, 1);
      gpulab_sim::detail::reload_settings();
      CHECK(std::getenv("GPULAB_SIM_BLOCK_ORDER") == nullptr);
    };
    order_from("natural", "1");
    auto o = run();
    for (unsigned i = 0; i < n; ++i) REQUIRE(o[i] == i);
    order_from("reverse", "1");
    o = run();
    for (unsigned i = 0; i < n; ++i) REQUIRE(o[i] == n - 1 - i);
    // What the program does to its environment after the start changes nothing.
    setenv("GPULAB_SIM_BLOCK_ORDER", "natural", 1);
    o = run();
    for (unsigned i = 0; i < n; ++i) REQUIRE(o[i] == n - 1 - i);
    unsetenv("GPULAB_SIM_BLOCK_ORDER");
    order_from("shuffle", "42");
    o = run();
    const auto again = run();
    CHECK(o == again);
    CHECK(std::set<unsigned>(o.begin(), o.end()).size() == n);
    bool natural = true;
    for (unsigned i = 0; i < n; ++i) natural = natural && o[i] == i;
    CHECK_FALSE(natural);
    order_from("shuffle", "7");
    CHECK(run() != o);
    unsetenv("GPULAB_SIM_THREADS");
    unsetenv("GPULAB_SIM_BLOCK_ORDER");
    unsetenv("GPULAB_SIM_SEED");
    gpulab_sim::detail::reload_settings();
    CHECK(gpulab_sim::findings().empty());
    cudaFree(order);
    cudaFree(next);
  }
}
