// Kernels in these tests are written by hand in the rewriter's output form (sim/README.md, "The
// contract"); these macros spell the contract's edits.
#pragma once

#include <doctest/doctest.h>
#include <gpulab_sim/sim.h>

#include <algorithm>
#include <vector>

// The runtime's own (sim/runtime/): reload_settings() for tests that vary the settings, which
// the runtime reads at start; finish_report() for those that look at the report's end.
#include "internal.h"
#include "settings.h"

#define LAUNCH(k, g, b, s, ...) \
  ::gpulab_sim::launch(         \
      __FILE__, __LINE__, g, b, s, 0, [&](auto&&... gpulab_a) { k(gpulab_a...); }, ##__VA_ARGS__)
#define RD(E) (*::gpulab_sim::access(&(E), ::gpulab_sim::rd, __FILE__, __LINE__))
#define WR(E) (*::gpulab_sim::access(&(E), ::gpulab_sim::wr, __FILE__, __LINE__))
#define RW(E) (*::gpulab_sim::access(&(E), ::gpulab_sim::rw, __FILE__, __LINE__))
#define SHARED(T, name, id) \
  auto& name = ::gpulab_sim::shared<T>(&gpulab_sim_tu, id, #name, __FILE__, __LINE__)

// Findings of one kind, and a fresh start for the next test (sticky errors, allocations).
inline std::vector<gpulab_sim::finding> found(gpulab_sim::finding_kind k) {
  std::vector<gpulab_sim::finding> r;
  for (auto& f : gpulab_sim::findings())
    if (f.kind == k) r.push_back(f);
  return r;
}
inline void fresh() {
  cudaDeviceReset();
  gpulab_sim::clear_findings();
}

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  REQUIRE(cudaMalloc(&d, h.size() * sizeof(T)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  return d;
}
template <class T>
std::vector<T> to_host(const T* d, size_t n) {
  std::vector<T> h(n);
  REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}
