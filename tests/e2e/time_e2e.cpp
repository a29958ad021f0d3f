// End-to-end: `gpulab time` on the build tree. The cpu suite times a CPU part (it runs on any
// machine) and checks what it says where no GPU is; the gpu suite times a GPU part.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "device.h"
#include "e2e_util.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

gpulab::ProcessResult gpulab_time(std::vector<std::string> args, double timeout_s = 600) {
  args.insert(args.begin(), {GPULAB_TEST_BINARY, "time"});
  return gpulab::run_process({args, scratch("time"), timeout_s, 1 << 20, 0, 0, {}});
}

// The table's row for `part` on `dataset`: its cells, split at blanks (no cell holds one).
std::vector<std::string> row(const std::string& output, const std::string& part,
                             const std::string& dataset) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cells(line);
    std::vector<std::string> r;
    for (std::string c; cells >> c;) r.push_back(c);
    if (r.size() == 7 && r[0] == part && r[1] == dataset) return r;
  }
  FAIL("no row for " << part << " on " << dataset << " in:\n" << output);
  return {};
}

// The reference's file as a student's variant of their own, under a name of its own: timed
// against the reference, the ratio must come out near 1.
fs::path reference_variant(const std::string& lab, const std::string& file) {
  const fs::path variant = scratch("time-variant") / ("variant-" + file);
  fs::copy_file(kSource / "reference" / lab / file, variant, fs::copy_options::overwrite_existing);
  return variant;
}

}  // namespace

TEST_SUITE("cpu") {
  // A small dataset that is no timing dataset, a variant file, the reference against itself:
  // both are timed and checked in each of the CPU parts' rounds, so the ratio is near 1.
  TEST_CASE("gpulab time times a CPU part's variant against the reference") {
    const fs::path variant = reference_variant("scatter-gather", "dcs.cu");
    const auto p = gpulab_time({"scatter-gather", "--part", "cpu_fast", "--dataset", "odd-33x31x5",
                                "--submission", variant.string()});
    REQUIRE_MESSAGE(p.exit_code == gpulab::kExitOk, p.output);
    CHECK_MESSAGE(p.output.find(variant.string()) != std::string::npos, p.output);
    const auto r = row(p.output, "cpu_fast", "odd-33x31x5");
    REQUIRE(r.size() == 7);
    CHECK(std::stod(r[2]) > 0);
    CHECK(std::stod(r[3]) > 0);
    // Wide: microseconds on a shared machine; a ratio far from 1 means the two timed unalike.
    CHECK(std::stod(r[4]) > 0.33);
    CHECK(std::stod(r[4]) < 3.0);
    CHECK(r[6] == "right");
  }

  TEST_CASE("gpulab time gives no time for wrong outputs") {
    const auto p = gpulab_time({"scatter-gather", "--part", "cpu_fast", "--dataset", "tiny",
                                "--submission", (kSource / "labs" / "scatter-gather").string()});
    CHECK_MESSAGE(p.exit_code == gpulab::kExitTestsFailed, p.output);
    const auto r = row(p.output, "cpu_fast", "tiny");
    REQUIRE(r.size() == 7);
    CHECK(r[2] == "-");
    CHECK(r[6] == "WRONG");
    CHECK_MESSAGE(p.output.find("never written") != std::string::npos, p.output);
  }

  TEST_CASE("gpulab time refuses names it does not know, and hidden datasets") {
    for (const auto& [args, expected] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"scan", "--part", "hillis-stele"}, "did you mean \"hillis-steele\""},
             {{"scan", "--dataset", "hidden-int-777"}, "no dataset \"hidden-int-777\""}}) {
      const auto p = gpulab_time(args, 60);
      CHECK_MESSAGE(p.exit_code == gpulab::kExitFailed, p.output);
      CHECK_MESSAGE(p.output.find(expected) != std::string::npos, p.output);
    }
    // Timed where a GPU is, a part needs a timing dataset (elsewhere it is costed instead).
    if (gpulab::device_preflight().usable) {
      const auto p = gpulab_time({"scan", "--part", "exclusive-float"}, 60);
      CHECK_MESSAGE(p.exit_code == gpulab::kExitFailed, p.output);
      CHECK_MESSAGE(p.output.find("no timing dataset") != std::string::npos, p.output);
    }
  }

  // Without a GPU, a GPU part is not timed: gpulab says so and exits with its own status.
  TEST_CASE("gpulab time says a GPU part needs a GPU") {
    if (gpulab::device_preflight().usable) return;  // the gpu suite times it there
    const auto p = gpulab_time({"scan", "--part", "hillis-steele"}, 60);
    CHECK_MESSAGE(p.exit_code == gpulab::kExitNeedsGpu, p.output);
    CHECK_MESSAGE(p.output.find("GPU parts are timed only on an NVIDIA GPU") != std::string::npos,
                  p.output);
    CHECK_MESSAGE(p.output.find("`gpulab time scan --backend sim` counts what their kernels") !=
                      std::string::npos,
                  p.output);
  }

  // On the CPU backend a GPU part gets the cost model instead of times (sim/README.md): the
  // reference's own file as a student's costs exactly what the reference does, kernel by
  // kernel, and the stub launches nothing.
  TEST_CASE("gpulab time --backend sim costs a GPU part's kernels beside the reference's") {
    const fs::path variant = reference_variant("histogram", "histogram.cu");
    const auto p = gpulab_time({"histogram", "--part", "histogram-private", "--backend", "sim",
                                "--submission", variant.string()});
    REQUIRE_MESSAGE(p.exit_code == gpulab::kExitOk, p.output);
    CHECK_MESSAGE(p.output.find("the CPU backend's cost model, yours beside the reference's") !=
                      std::string::npos,
                  p.output);
    // Each side's kernels, in launch order: the same lines, the same counts.
    std::vector<std::string> yours, reference;
    std::istringstream lines(p.output);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream cells(line);
      std::string who, rest;
      cells >> who >> std::ws;  // the cells after it: the kernel's, the same width on both sides
      std::getline(cells, rest);
      if (who == "yours") yours.push_back(rest);
      if (who == "reference") reference.push_back(rest);
    }
    REQUIRE_MESSAGE(!yours.empty(), p.output);
    CHECK(yours == reference);
    CHECK_MESSAGE(p.output.find("histogram.cu:") != std::string::npos, p.output);

    const auto stub = gpulab_time({"histogram", "--part", "histogram-private", "--backend", "sim",
                                   "--submission", (kSource / "labs" / "histogram").string()});
    CHECK_MESSAGE(stub.exit_code == gpulab::kExitOk, stub.output);
    CHECK_MESSAGE(stub.output.find("yours      no kernel launched") != std::string::npos,
                  stub.output);

    // gpulab run --profile: the run's checks, then the same table; a GPU backend is refused.
    const auto run =
        gpulab::run_process({{GPULAB_TEST_BINARY, "run", "histogram", "--part", "histogram-private",
                              "--backend", "sim", "--profile", "--submission", variant.string()},
                             scratch("run-profile"),
                             600,
                             1 << 20,
                             0,
                             0,
                             {}});
    CHECK_MESSAGE(run.exit_code == gpulab::kExitOk, run.output);
    CHECK_MESSAGE(run.output.find("total    10.0 / 10.0") != std::string::npos, run.output);
    CHECK_MESSAGE(run.output.find("yours beside the reference's") != std::string::npos, run.output);
    const auto refused = gpulab::run_process(
        {{GPULAB_TEST_BINARY, "run", "histogram", "--backend", "cuda", "--profile"},
         scratch("run-profile"),
         60,
         1 << 20,
         0,
         0,
         {}});
    CHECK_MESSAGE(refused.exit_code == gpulab::kExitFailed, refused.output);
    CHECK_MESSAGE(refused.output.find("add --backend sim") != std::string::npos, refused.output);
  }
}

TEST_SUITE("gpu") {
  // The reference timed against itself, the grader's way: the ratio is near 1 (a systematic
  // bias of the alternation, say one side always warm, would show here).
  TEST_CASE("gpulab time gives a ratio near 1 for the reference against itself") {
    const fs::path variant = reference_variant("scatter-gather", "dcs.cu");
    const auto p =
        gpulab_time({"scatter-gather", "--part", "gather", "--submission", variant.string()}, 900);
    REQUIRE_MESSAGE(p.exit_code == gpulab::kExitOk, p.output);
    const auto r = row(p.output, "gather", "large");
    REQUIRE(r.size() == 7);
    CHECK_MESSAGE(std::stod(r[4]) > 0.9, p.output);
    CHECK_MESSAGE(std::stod(r[4]) < 1.1, p.output);
    CHECK(r[6] == "right");
  }
}
