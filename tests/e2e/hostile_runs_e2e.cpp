// End-to-end: gpulab's hostile-run generator. The submission tests/adversarial/scan/hostile-runs
// does, in every call, a random handful of hostile things (its scan.cu lists them: folder trees
// deeper than the open-file limit, special files and links of every kind, names of any bytes, a
// flooded or garbled channel, records of the wrong types, outputs that are not sealed files,
// garbage on the CPU backend's report, output that is not text), then computes honestly. It is
// graded several times, each of its runs drawing new random choices (the seed each drew is in
// the report's output), by a gpulab allowed 256 open files (fewer than the trees are deep), and
// every grading must end in a scored report, with no grader error, the grader's own memory
// under 512 MiB and nothing left behind in the temporary folder.
#include <doctest/doctest.h>

#include <algorithm>

#include "e2e_util.h"
#include "expect.h"
#include "os/process.h"

namespace {

using namespace e2e;

constexpr int kGradings = 3;
constexpr double kMemoryBudgetMiB = 512;
constexpr int kOpenFiles = 256;

}  // namespace

TEST_SUITE("hostile-runs") {
  TEST_CASE("a hostile run never costs a scored report, nor the grader's memory budget") {
    const Expected* hostile = nullptr;
    const auto labs = expectations_under(kSource / "tests" / "adversarial");
    for (const auto& subs : labs)
      for (const auto& e : subs)
        if (e.lab == "scan" && e.name == "hostile-runs") hostile = &e;
    REQUIRE(hostile != nullptr);
    const fs::path submission = materialize(*hostile);
    int runs = 0, failed = 0;
    double peak_mib = 0;
    for (int i = 0; i < kGradings; ++i) {
      const fs::path tmp = scratch("hostile-runs-tmp-" + std::to_string(i));
      fs::create_directories(tmp);
      const fs::path report = scratch("hostile-runs") / ("results-" + std::to_string(i) + ".json");
      fs::create_directories(report.parent_path());
      Graded g;
      g.process = gpulab::run_process(
          {{"/bin/sh", "-c", "ulimit -n " + std::to_string(kOpenFiles) + " && exec \"$0\" \"$@\"",
            GPULAB_TEST_BINARY, "grade", "scan", "--submission", submission.string(), "--out",
            report.string(), "--hidden-seed", kHiddenSeed, "--backend", "sim", "--part",
            "exclusive", "--no-time", "--format", "gpulab"},
           report.parent_path(),
           900,
           1 << 20,
           0,
           0,
           {"TMPDIR=" + tmp.string()}});
      REQUIRE_MESSAGE(fs::is_regular_file(report), "no report; gpulab said:\n" << g.process.output);
      g.report = read_report(report);
      INFO("grading " << i << ":\n" << g.process.output);
      CHECK(g.process.exit_code == 0);
      CHECK(g.report.value("scored", false));
      CHECK(g.report.value("grader_error", std::string("?")).empty());
      CHECK(g.report.value("peak_memory_mib", 1e9) < kMemoryBudgetMiB);
      peak_mib = std::max(peak_mib, g.report.value("peak_memory_mib", 0.0));
      // The work folder, with whatever the runs left in it, is gone.
      CHECK(fs::is_empty(tmp));
      for (const json& row : g.report.value("datasets", json::array())) {
        ++runs;
        failed += row.value("result", std::string()) != "pass";
      }
      fs::remove_all(tmp);
    }
    MESSAGE(runs << " hostile runs over " << kGradings << " gradings, " << failed
                 << " of them failed by what they did, every grading scored; the grader's peak "
                 << peak_mib << " MiB");
    CHECK(runs > 0);
  }
}
