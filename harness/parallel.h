// Oracles are fp64 loops over large outputs, and the grader compares outputs of hundreds of
// millions of elements (compare.cpp): this spreads one such loop over the machine's cores.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace gpulab {

// Calls body(i) for i in [0, n), in chunks claimed dynamically by hardware_concurrency threads.
template <class Body>
void parallel_for(size_t n, Body body) {
  const size_t threads =
      std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), n));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) body(i);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// Calls body(i) for i in [0, n), `chunk` consecutive indices per task: for loops whose
// iterations are too short to be claimed one at a time.
template <class Body>
void parallel_for_chunks(size_t n, size_t chunk, Body body) {
  parallel_for((n + chunk - 1) / chunk, [&](size_t c) {
    for (size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) body(i);
  });
}

}  // namespace gpulab
