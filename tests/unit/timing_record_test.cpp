// grader/timing_record.h: a record the harness writes passes; one written by hand, with a
// median that is not its samples', too few samples for the policy, or times that are not
// positive, is named for what is wrong with it.
#include "timing_record.h"

#include <doctest/doctest.h>

#include "test_util.h"
#include "timing.h"

namespace {

const gpulab::TimingPolicy kPolicy =
    gpulab::TimingPolicy::from_json({{"warmup", 0}, {"min_samples", 5}, {"max_samples", 5}});

// What a runner writes after timing a function that takes a few microseconds.
nlohmann::json harness_record() {
  const gpulab::TimingResult r = gpulab::time_cpu(
      kPolicy, 1, [](int) {},
      [](int) {
        volatile double x = 0;
        for (int i = 0; i < 1000; ++i) x = x + i;
      });
  return {{"status", "ok"}, {"timing", r.to_json()}};
}

}  // namespace

TEST_CASE("the harness's own timing record holds together") {
  CHECK(gpulab::timing_record_problem(harness_record(), kPolicy) == "");
}

TEST_CASE("a timing record written by hand is caught") {
  nlohmann::json r = harness_record();
  SUBCASE("a median that is not the samples' median") {
    r["timing"]["median_ms"] = r["timing"]["median_ms"].get<double>() / 2;
    CHECK(test::contains(gpulab::timing_record_problem(r, kPolicy), "median"));
  }
  SUBCASE("fewer samples than the policy takes") {
    r["timing"]["samples_ms"] = {1e-6, 1e-6, 1e-6};
    r["timing"]["median_ms"] = 1e-6;
    CHECK(test::contains(gpulab::timing_record_problem(r, kPolicy), "3 samples"));
  }
  SUBCASE("a time that is not positive") {
    r["timing"]["samples_ms"][2] = 0;
    CHECK(test::contains(gpulab::timing_record_problem(r, kPolicy), "not a positive time"));
  }
  SUBCASE("no samples, or no timing at all") {
    r["timing"].erase("samples_ms");
    CHECK(test::contains(gpulab::timing_record_problem(r, kPolicy), "no samples"));
    CHECK(test::contains(gpulab::timing_record_problem({{"status", "ok"}}, kPolicy), "no timing"));
  }
}
