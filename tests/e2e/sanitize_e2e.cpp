// `gpulab run --sanitize` on a GPU (grader/grade/sanitizer_runs.h): the planted SpMV bug of
// tests/adversarial/segmented-scan/spmv-head-past-end, a byte written past an array that no
// output shows, is named by compute-sanitizer with file, line and function, on the terminal
// and in the report; the reference runs clean under every tool. (gpulab grade with lab.json's
// "sanitize" is checked on both planted bugs by the gpu-adversarial suite.) One small dataset
// of one part, so that the four tools' runs take seconds.
#include <doctest/doctest.h>

#include <fstream>

#include "e2e_util.h"
#include "expect.h"

namespace e2e {

namespace {

struct Ran {
  gpulab::ProcessResult process;
  json report;
};

// `gpulab run segmented-scan --part spmv --dataset empty-first-last --no-time --sanitize` on
// `src`.
Ran run_sanitized(const fs::path& src, const std::string& name) {
  const fs::path cwd = scratch("sanitize-" + name);
  fs::create_directories(cwd);
  const std::vector<std::string> argv = {
      GPULAB_TEST_BINARY,       "run",       "segmented-scan", "--part", "spmv",       "--dataset",
      "empty-first-last",       "--no-time", "--sanitize",     "--src",  src.string(), "--out",
      (cwd / "r.json").string()};
  Ran r;
  r.process = gpulab::run_process({argv, cwd, 600, 1 << 20, 0, 0, {}});
  REQUIRE_MESSAGE(fs::is_regular_file(cwd / "r.json"), "no report was written; gpulab said:\n"
                                                           << r.process.output);
  r.report = read_report(cwd / "r.json");
  return r;
}

Expected planted(const std::string& name) {
  for (const auto& subs : expectations_under(kSource / "tests" / "adversarial"))
    for (const auto& e : subs)
      if (e.lab == "segmented-scan" && e.name == name) return e;
  FAIL("no tests/adversarial/segmented-scan/" << name);
  return {};
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("run --sanitize names the SpMV's write past its array with file, line and function") {
    const Ran r = run_sanitized(materialize(planted("spmv-head-past-end")), "planted");
    INFO(r.process.output);
    const json t = test_named(r.report, "spmv: correctness on the public");
    CHECK(t["score"] == 0);
    for (const std::string text :
         {"FAIL empty-first-last", "compute-sanitizer found a bug",
          "compute-sanitizer memcheck, error: out-of-bounds write at segmented_scan.cu:",
          "in mark_row_heads"}) {
      CHECK_MESSAGE(contains(t, text), text << " is not in the report:\n" << t.dump(2));
      CHECK_MESSAGE(r.process.output.find(text) != std::string::npos,
                    text << " is not on the terminal");
    }
    // The student's own file name, not the grader's copy of it.
    CHECK(r.process.output.find("/submission/segmented_scan.cu") == std::string::npos);
  }

  TEST_CASE("run --sanitize: the reference runs clean under every tool") {
    const Ran r = run_sanitized(kSource / "reference" / "segmented-scan", "reference");
    INFO(r.process.output);
    const json t = test_named(r.report, "spmv: correctness on the public");
    CHECK(t["score"] == t["max_score"]);
    CHECK(t["max_score"] > 0);
    CHECK_FALSE(contains(t, "compute-sanitizer"));  // no finding, and every tool ran
  }
}

}  // namespace e2e
