// grader/grade/correctness_batch.h: a part's correctness datasets in one process. The batch's
// order (a permutation its key fixes), which datasets a batch's run settles and which run again
// alone, each dataset's outputs taken from the run's by its prefix, and the batch's limit.
#include "grade/correctness_batch.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "sealed_file.h"

namespace {

using gpulab::BatchedDataset;
using gpulab::RunOutcome;

// A run whose channel handed over `names`, each a sealed memory file.
RunOutcome batch_run(bool ran, size_t samples_done, const std::vector<std::string>& names) {
  RunOutcome o;
  o.ran = ran;
  o.samples.resize(samples_done);
  auto outputs = std::make_shared<gpulab::SealedOutputs>();
  for (const std::string& name : names)
    REQUIRE(outputs->add(name, gpulab::sealed_memory_file(name, 8, [](void*) {}), 1024) == "");
  o.outputs = outputs;
  return o;
}

std::vector<bool> ended(const std::vector<BatchedDataset>& each) {
  std::vector<bool> v;
  for (const BatchedDataset& d : each) v.push_back(d.outcome.has_value());
  return v;
}

std::vector<bool> settled(const std::vector<BatchedDataset>& each) {
  std::vector<bool> v;
  for (const BatchedDataset& d : each) v.push_back(d.settled);
  return v;
}

}  // namespace

TEST_CASE("a batch's order is a permutation that its key fixes") {
  std::vector<size_t> places(12);
  std::iota(places.begin(), places.end(), size_t{0});
  const std::vector<size_t> a = gpulab::batch_order(places, "exclusive/public");
  CHECK(a == gpulab::batch_order(places, "exclusive/public"));  // a regrade repeats it
  CHECK(a != places);                                           // shuffled (1 in 12! not)
  CHECK(a != gpulab::batch_order(places, "inclusive/public"));  // another part, another order
  std::vector<size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == places);
  CHECK(gpulab::batch_order({}, "x").empty());
  CHECK(gpulab::batch_order({7}, "x") == std::vector<size_t>{7});
}

TEST_CASE("a batch that ran settles every dataset, each with its own outputs") {
  // The run's own dataset's outputs as they are; sample k's as sample<k>_<name>. Sample 1
  // handed over nothing.
  const RunOutcome run = batch_run(true, 2, {"out", "sample2_out", "sample2_other"});
  const auto each = gpulab::split_batch(run, {"out", "other"}, 3, false);
  REQUIRE(each.size() == 3);
  CHECK(ended(each) == std::vector<bool>{true, true, true});
  CHECK(settled(each) == std::vector<bool>{true, true, true});
  CHECK(each[0].outcome->outputs->names() == std::vector<std::string>{"out"});
  CHECK(each[1].outcome->outputs->names().empty());
  CHECK(each[2].outcome->outputs->names() == std::vector<std::string>{"other", "out"});
  CHECK(each[2].outcome->ran);
  // The same on the CPU backend, which found nothing.
  CHECK(settled(gpulab::split_batch(run, {"out"}, 3, true)) == std::vector<bool>{true, true, true});
}

TEST_CASE("a batch that failed settles on a GPU only the datasets whose calls ended") {
  // Sample 1 was done, so the run's own dataset's call ended before it; sample 2 failed.
  const RunOutcome run = batch_run(false, 1, {"out", "sample1_out", "sample2_out"});
  const auto gpu = gpulab::split_batch(run, {"out"}, 4, false);
  CHECK(ended(gpu) == std::vector<bool>{true, true, false, false});
  CHECK(settled(gpu) == std::vector<bool>{true, true, false, false});
  // On the CPU backend the failed run's findings may be missing: nothing is settled, and the
  // datasets whose calls ended are still checked (their outputs are there).
  const auto sim = gpulab::split_batch(run, {"out"}, 4, true);
  CHECK(ended(sim) == std::vector<bool>{true, true, false, false});
  CHECK(settled(sim) == std::vector<bool>{false, false, false, false});
  // Failed before any sample was asked for: the first dataset's call may not have ended.
  CHECK(ended(gpulab::split_batch(batch_run(false, 0, {"out"}), {"out"}, 3, false)) ==
        std::vector<bool>{false, false, false});
}

TEST_CASE("a batch whose own code spoke on its channel settles nothing, on either backend") {
  RunOutcome run = batch_run(false, 1, {"out", "sample1_out"});
  run.channel_problem = "the run asked for timed sample 3 where gpulab's harness asks for sample 2";
  for (const bool sim : {false, true}) {
    const auto each = gpulab::split_batch(run, {"out"}, 3, sim);
    CHECK(ended(each) == std::vector<bool>{true, true, false});  // checked: wrong fails there
    CHECK(settled(each) == std::vector<bool>{false, false, false});
  }
}

TEST_CASE("on the CPU backend a finding of no call settles nothing") {
  RunOutcome run = batch_run(true, 2, {"out", "sample1_out", "sample2_out"});
  run.sim_findings.push_back({{"kind", "race"}});
  const auto each = gpulab::split_batch(run, {"out"}, 3, true);
  CHECK(ended(each) == std::vector<bool>{true, true, true});
  CHECK(settled(each) == std::vector<bool>{false, false, false});
  // Nor does one of a call the batch did not have (a mark the program forged).
  run.sim_findings = {{{"kind", "race"}, {"calls", {1, 3}}}};
  CHECK(settled(gpulab::split_batch(run, {"out"}, 3, true)) ==
        std::vector<bool>{false, false, false});
}

TEST_CASE("on the CPU backend each finding goes with every dataset whose call made it") {
  RunOutcome run = batch_run(true, 3, {"out", "sample1_out", "sample2_out", "sample3_out"});
  run.sim_findings = {{{"kind", "out_of_bounds"}, {"calls", {2}}},
                      {{"kind", "race"}, {"calls", {2}}},
                      {{"kind", "uninitialized_read"}, {"calls", {0, 2}}}};
  const auto each = gpulab::split_batch(run, {"out"}, 4, true);
  CHECK(ended(each) == std::vector<bool>{true, true, true, true});
  CHECK(settled(each) == std::vector<bool>{false, true, false, true});
  CHECK(each[0].findings.size() == 1);
  CHECK(each[1].findings.empty());
  REQUIRE(each[2].findings.size() == 3);
  CHECK(each[2].findings[0]["kind"] == "out_of_bounds");
}

TEST_CASE("a batch's limit: each dataset's longest on the clock, their CPU time together") {
  const gpulab::RunLimit gpu =
      gpulab::batch_limit({gpulab::RunLimit::clock(60), gpulab::RunLimit::clock(60)});
  CHECK(gpu.wall_s == 60);
  CHECK(gpu.cpu_s == 2 * gpulab::RunLimit::clock(60).cpu_s);
  gpulab::RunLimit known = gpulab::RunLimit::clock(30), waiting = gpulab::RunLimit::clock(90);
  known.cpu_s = 10;
  waiting.cpu_s = 30;
  waiting.awaits_reference = true;
  const gpulab::RunLimit sim = gpulab::batch_limit({known, waiting});
  CHECK(sim.wall_s == 90);
  CHECK(sim.cpu_s == 40);
  CHECK(sim.awaits_reference);
}
