// The barrier-free kernels of gpulab-sim-bench, in the rewriter's output form (sim/README.md),
// written by hand. Included by bench.cpp (checked) and bench_unchecked.cpp (built with
// -DGPULAB_SIM_UNCHECKED), each in its own anonymous namespace.
#pragma once

#include <gpulab_sim/sim.h>

#include <chrono>

#define RD(E) (*::gpulab_sim::access(&(E), ::gpulab_sim::rd, __FILE__, __LINE__))
#define WR(E) (*::gpulab_sim::access(&(E), ::gpulab_sim::wr, __FILE__, __LINE__))
// As the rewriter writes a launch: LAUNCH for any kernel, LAUNCH_FREE for one it proved
// barrier-free.
#define LAUNCH(k, g, b, ...) \
  ::gpulab_sim::launch(      \
      __FILE__, __LINE__, g, b, 0, 0, [&](auto&&... a) { k(a...); }, __VA_ARGS__)
#define LAUNCH_FREE(k, g, b, ...)    \
  ::gpulab_sim::launch_barrier_free( \
      __FILE__, __LINE__, g, b, 0, 0, [&](auto&&... a) { k(a...); }, __VA_ARGS__)

namespace {

constexpr int kTaps = 16;

void saxpy_k(float* y, const float* x, float a, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) WR(y[i]) = a * RD(x[i]) + RD(y[i]);
}

void stencil_k(float* out, const float* in, const float* w, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  float s = 0;
  for (int j = 0; j < kTaps; ++j) s += RD(w[j]) * RD(in[(i + j) & (n - 1)]);
  WR(out[i]) = s;
}

// The best of `reps` runs of f, in seconds.
template <class F>
double best_seconds(F f, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s < best) best = s;
  }
  return best;
}

}  // namespace

// Built with -DGPULAB_SIM_UNCHECKED (bench_unchecked.cpp): the two kernels launched as
// barrier-free, timed like bench.cpp times the checked ones.
double unchecked_saxpy_seconds(float* y, const float* x, int n, int block, int reps);
double unchecked_stencil_seconds(float* out, const float* in, const float* w, int n, int block,
                                 int reps);
