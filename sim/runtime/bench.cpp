// gpulab-sim-bench: the two speeds the CPU backend is designed for, on one OS thread.
//  1. A barrier-free kernel against the same loop as plain C++ (target: within 5x), checked (as
//     in grading) and unchecked (-DGPULAB_SIM_UNCHECKED: no checks, launched as barrier-free).
//  2. A 1024-thread block crossing a __syncthreads() per step (target: >= 20 M thread-barrier
//     crossings per second per core).
// Kernels are in the rewriter's output form (sim/README.md), written by hand.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static char gpulab_sim_tu;

#include "bench_kernels.h"
#include "settings.h"

namespace {

void barrier_k(int* out, int steps) {
  auto& s = ::gpulab_sim::shared<int[1024]>(&gpulab_sim_tu, 0, "s", __FILE__, __LINE__);
  const unsigned t = threadIdx.x;
  int acc = 0;
  for (int k = 0; k < steps; ++k) {
    acc += static_cast<int>(t) ^ k;
    __syncthreads();
  }
  s[t] = acc;  // not instrumented: only the barrier is measured
  if (t == 0) WR(out[0]) = s[t];
}

// Plain C++ twins, kept from being optimised away or vectorised differently than needed.
__attribute__((noinline)) void saxpy_plain(float* y, const float* x, float a, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
__attribute__((noinline)) void stencil_plain(float* out, const float* in, const float* w, int n) {
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int j = 0; j < kTaps; ++j) s += w[j] * in[(i + j) & (n - 1)];
    out[i] = s;
  }
}

}  // namespace

int main() {
  // One OS thread, unless the caller set GPULAB_SIM_THREADS (read at start, then unset).
  if (gpulab_sim::detail::settings().threads == 0) {
    setenv("GPULAB_SIM_THREADS", "1", 1);
    gpulab_sim::detail::reload_settings();
  }
  const int n = 1 << 22, block = 256, grid = n / block;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f), hw(kTaps, 0.5f), hout(n);
  float *x, *y, *w, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&w, kTaps * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(w, hw.data(), kTaps * sizeof(float), cudaMemcpyHostToDevice);

  const double sim_saxpy = best_seconds([&] { LAUNCH(saxpy_k, grid, block, y, x, 0.5f, n); }, 5);
  const double plain_saxpy = best_seconds([&] { saxpy_plain(hy.data(), hx.data(), 0.5f, n); }, 5);
  const double sim_stencil = best_seconds([&] { LAUNCH(stencil_k, grid, block, out, x, w, n); }, 3);
  const double plain_stencil =
      best_seconds([&] { stencil_plain(hout.data(), hx.data(), hw.data(), n); }, 3);

  const double fast_saxpy = unchecked_saxpy_seconds(y, x, n, block, 5);
  const double fast_stencil = unchecked_stencil_seconds(out, x, w, n, block, 3);

  int* d_out;
  cudaMalloc(&d_out, sizeof(int));
  const int steps = 2000;
  const double sim_barrier = best_seconds([&] { LAUNCH(barrier_k, 1, 1024, d_out, steps); }, 3);
  const double crossings = 1024.0 * steps / sim_barrier;

  std::printf("gpulab-sim-bench (GPULAB_SIM_THREADS=%u)\n", gpulab_sim::detail::settings().threads);
  const std::string saxpy = "barrier-free saxpy, " + std::to_string(n) + " threads:";
  const std::string stencil =
      "barrier-free " + std::to_string(kTaps) + "-tap stencil, " + std::to_string(n) + " threads:";
  auto line = [&](const std::string& what, double sim, double plain) {
    std::printf("%-46s sim %.2f ns/thread, plain C++ %.2f ns/elem: %.1fx\n", what.c_str(),
                sim / n * 1e9, plain / n * 1e9, sim / plain);
  };
  line(saxpy, sim_saxpy, plain_saxpy);
  line(stencil, sim_stencil, plain_stencil);
  std::printf("unchecked (-DGPULAB_SIM_UNCHECKED), launched as barrier-free:\n");
  line(saxpy, fast_saxpy, plain_saxpy);
  line(stencil, fast_stencil, plain_stencil);
  std::printf("barrier: 1024 threads x %d __syncthreads(): %.1f M thread-barrier crossings/s\n",
              steps, crossings / 1e6);
  const bool clean = gpulab_sim::findings().empty() && cudaDeviceSynchronize() == cudaSuccess;
  std::printf("findings: %s\n", clean ? "none" : "SOME (unexpected)");
  return clean ? 0 : 1;
}
