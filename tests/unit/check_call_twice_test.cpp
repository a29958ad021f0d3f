// Every call counts: with `repeated`, check_outputs checks the second call's outputs
// (runner_flags.h's kRepeatPrefix) too, and says that state leaks between calls when the first
// call was right and the second was not.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "data/check.h"
#include "data/dataset_store.h"
#include "lab/lab_config.h"
#include "npy.h"
#include "runner_flags.h"
#include "sealed_test_outputs.h"
#include "test_util.h"

namespace {

// A scan dataset of 31 ints and the runner's output folder.
struct ScanRun {
  test::TempDir dir;
  gpulab::LabConfig lab =
      gpulab::LabConfig::load(test::source_dir() / "labs" / "scan" / "lab.json");
  const gpulab::PartSpec* part = lab.part("exclusive");
  gpulab::DatasetDirs ds;

  ScanRun() {
    const gpulab::DatasetSpec spec{
        "int-31", {{"n", 31}, {"dtype", "int32"}, {"values", "small"}}, 7, {}};
    ds = gpulab::materialize(lab, lab.groups.at(0), spec, "", dir / "datasets");
    std::filesystem::create_directories(dir / "out");
  }
  std::vector<int32_t> right() const {
    const gpulab::NpyArray e = gpulab::read_npy(ds.expected / "exclusive.npy", gpulab::DType::i32);
    return std::vector<int32_t>(e.as<int32_t>(), e.as<int32_t>() + e.count());
  }
  // Writes the first call's and the second call's outputs.
  void write(const std::vector<int32_t>& first, const std::vector<int32_t>& second) const {
    gpulab::write_npy(dir / "out" / "exclusive.npy", {first.size()}, first.data());
    gpulab::write_npy(dir / "out" / (std::string(gpulab::kRepeatPrefix) + "exclusive.npy"),
                      {second.size()}, second.data());
  }
  gpulab::CheckResult check() const {
    return gpulab::check_outputs(lab, *part, ds, test::sealed_outputs(dir / "out"), false, true);
  }
};

}  // namespace

TEST_CASE("a second call that agrees with a right first one passes") {
  ScanRun run;
  REQUIRE(run.part != nullptr);
  run.write(run.right(), run.right());
  const gpulab::CheckResult c = run.check();
  INFO(c.message);
  CHECK(c.pass);
  CHECK_FALSE(c.state_leak);
}

TEST_CASE("a wrong second call after a right first one fails, saying state leaks") {
  ScanRun run;
  std::vector<int32_t> second = run.right();
  second[0] += 1;
  run.write(run.right(), second);
  const gpulab::CheckResult c = run.check();
  CHECK_FALSE(c.pass);
  CHECK(c.state_leak);
  CHECK(test::contains(c.message, "exclusive (from a second call)"));
  CHECK(test::contains(c.message, "a second call in the same process gave wrong ones"));
}

TEST_CASE("a wrong first call, or a missing second output, is no state leak") {
  ScanRun run;
  std::vector<int32_t> wrong = run.right();
  wrong[3] += 1;
  run.write(wrong, wrong);
  gpulab::CheckResult c = run.check();
  CHECK_FALSE(c.pass);
  CHECK_FALSE(c.state_leak);
  std::filesystem::remove(run.dir / "out" / (std::string(gpulab::kRepeatPrefix) + "exclusive.npy"));
  gpulab::write_npy(run.dir / "out" / "exclusive.npy", {run.right().size()}, run.right().data());
  c = run.check();
  CHECK_FALSE(c.pass);
  CHECK_FALSE(c.state_leak);
}
