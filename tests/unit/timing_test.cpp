// harness/timing.h: a CPU sample is the wall time plus the CPU time other threads used, so
// waiting counts as it does for a student and extra threads earn nothing.
#include "timing.h"

#include <doctest/doctest.h>
#include <time.h>

#include <chrono>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// Busy until this thread has used `ms` of CPU time, however long it waits for a core.
void spin_cpu(double ms) {
  const double end = thread_cpu_ms() + ms;
  while (thread_cpu_ms() < end) {
  }
}

gpulab::TimingPolicy quick() {
  gpulab::TimingPolicy p;
  p.warmup = 0;
  p.min_samples = 3;
  p.max_samples = 3;
  return p;
}

}  // namespace

TEST_CASE("a CPU sample that waits counts its wall time") {
  const gpulab::TimingResult r = gpulab::time_cpu(
      quick(), 1, [](int) {}, [](int) { std::this_thread::sleep_for(20ms); });
  CHECK(r.clock == "wall+other-threads");
  REQUIRE(r.samples_ms.size() == 3);
  for (double ms : r.samples_ms) CHECK(ms >= 19.5);
}

TEST_CASE("a CPU sample that runs threads counts the CPU time they all used") {
  // Four threads spinning 40 ms each use 160 ms of CPU time, however few cores run them, while
  // the calling thread waits.
  const gpulab::TimingResult r = gpulab::time_cpu(
      quick(), 1, [](int) {},
      [](int) {
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) threads.emplace_back([] { spin_cpu(40); });
        for (auto& t : threads) t.join();
      });
  REQUIRE(r.samples_ms.size() == 3);
  for (double ms : r.samples_ms) CHECK(ms >= 160);
}

TEST_CASE("CPU samples rotate through the input sets and prepare each before it runs") {
  std::vector<int> order;
  gpulab::TimingPolicy p = quick();
  p.warmup = 1;
  p.min_samples = p.max_samples = 4;
  const gpulab::TimingResult r = gpulab::time_cpu(
      p, 3, [&](int set) { order.push_back(-1 - set); }, [&](int set) { order.push_back(set); });
  CHECK(order == std::vector<int>{-1, 0, -1, 0, -2, 1, -3, 2, -1, 0});
  CHECK(r.last_set == 0);
}
