// End-to-end: a correctness run's time limit on the CPU backend follows the reference's CPU time
// on the dataset (grader/lab/run_limit.h). Made cheap with a copy of scatter-gather whose lab.json
// sets a floor of 1 s, one small dataset, and a correct cpu_fast that first burns 1.5 s of CPU
// time per call: slower than the floor, so only a limit taken from the reference's time lets it
// pass, and within a minute.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "expect.h"

namespace {

using namespace e2e;

constexpr const char* kDataset = "odd-33x31x5";

// The reference's scatter-gather with a cpu_fast that burns CPU time before its work.
fs::path slow_submission() {
  const fs::path own = scratch("sim-limit-own");
  const std::string head =
      "void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {\n";
  const json edits = json::array(
      {json::array({"#include <cmath>\n", "#include <cmath>\n#include <ctime>\n"}),
       json::array({head, head +
                              "  for (const std::clock_t end = std::clock() + 3 * CLOCKS_PER_SEC "
                              "/ 2;\n       std::clock() < end;) {\n  }\n"})});
  const json spec = {{"from_reference", {{"dcs.cu", edits}}}};
  return materialize({"scatter-gather", "slow-cpu-fast", own, spec});
}

// A copy of the lab's and reference's files whose lab.json sets the CPU backend's rule.
void set_rule(const fs::path& src, double over_reference, double floor_s) {
  const fs::path lab_json = src / "labs" / "scatter-gather" / "lab.json";
  json lab = json::parse(std::ifstream(lab_json));
  lab["sim_time_limit"] = {{"over_reference", over_reference}, {"floor_s", floor_s}};
  std::ofstream(lab_json) << lab.dump(2);
}

// `gpulab run --verbose` of cpu_fast on the one dataset, on the CPU backend: the report's
// public test, and what gpulab said (a line per step).
std::pair<json, std::string> run_slow(const fs::path& src, const fs::path& submission,
                                      const fs::path& cache) {
  const fs::path report = scratch("sim-limit-report") / "results.json";
  const gpulab::ProcessResult p = gpulab::run_process(
      {{GPULAB_TEST_BINARY, "run", "scatter-gather", "--src", submission.string(), "--part",
        "cpu_fast", "--dataset", kDataset, "--backend", "sim", "--no-time", "--verbose", "--out",
        report.string()},
       report.parent_path(),
       300,
       1 << 20,
       0,
       0,
       {"GPULAB_SOURCE_DIR=" + src.string(), "GPULAB_CACHE_DIR=" + cache.string()}});
  REQUIRE_MESSAGE(fs::is_regular_file(report), "no report was written; gpulab said:\n" << p.output);
  return {test_named(read_report(report), "cpu_fast: correctness on the public"), p.output};
}

bool said(const std::string& log, const std::string& text) {
  return log.find(text) != std::string::npos;
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("on the CPU backend a run slower than the floor passes within the reference's limit") {
    const fs::path src = lab_source_copy("sim-limit-source", "scatter-gather");
    const fs::path cache = scratch("sim-limit-cache"), submission = slow_submission();

    // Generous: a limit of 100000 times the reference's few milliseconds. The first run is
    // stopped at the 1 s floor, the reference is timed, and the run goes again under its limit.
    set_rule(src, 100000, 1);
    const auto [passed, first_log] = run_slow(src, submission, cache);
    CHECK_MESSAGE(passed["score"] == passed["max_score"], passed.dump(2) << first_log);
    CHECK_MESSAGE(said(first_log, "timing the reference's cpu_fast on " + std::string(kDataset)),
                  first_log);
    CHECK(said(first_log,
               "again, stopped at the floor: the limit on the CPU backend is 100000x "
               "the reference's"));

    // Strict: once the reference's. Its time is kept beside the dataset, not measured again; the
    // run is stopped, and the message says what the limit was and where it came from.
    set_rule(src, 1, 1);
    const auto [stopped, second_log] = run_slow(src, submission, cache);
    CHECK(stopped["score"] == 0);
    CHECK_FALSE(said(second_log, "timing the reference's"));
    CHECK_MESSAGE(contains(stopped,
                           "did not finish within the time limit (killed after 1 s of CPU "
                           "time"),
                  stopped.dump(2));
    CHECK(contains(stopped,
                   "the limit on the CPU backend is its least, 1 s of CPU time (1x the "
                   "reference's"));
  }
}
