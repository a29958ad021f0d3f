// The grader's check of a runner's outputs: wrong shapes, missing or malformed files and
// timed outputs each fail with a message, and never throw.
#include "check.h"

#include <doctest/doctest.h>

#include <vector>

#include "dataset_store.h"
#include "lab_config.h"
#include "npy.h"
#include "test_util.h"

namespace {

struct Fixture {
  test::TempDir dir;
  gpulab::LabConfig lab =
      gpulab::LabConfig::load(test::source_dir() / "labs" / "scatter-gather" / "lab.json");
  gpulab::DatasetDirs ds;
  const gpulab::PartSpec* part = lab.part("gather");
  std::vector<size_t> shape = {5, 31, 33};

  Fixture() {
    gpulab::GroupSpec group = lab.groups.at(0);
    gpulab::DatasetSpec spec{
        "odd", {{"nx", 33}, {"ny", 31}, {"nz", 5}, {"n_atoms", 37}, {"h", 0.5}}, 3, {}};
    ds = gpulab::materialize(lab, group, spec, 0, dir / "datasets");
    std::filesystem::create_directories(dir / "out");
  }

  // The oracle's answer rounded to float: what a correct runner writes.
  std::vector<float> correct() const {
    const gpulab::NpyArray e = gpulab::read_npy(ds.expected / "potential.npy");
    std::vector<float> v(e.count());
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(e.as<double>()[i]);
    return v;
  }
  gpulab::CheckResult check(bool timed) const {
    return gpulab::check_outputs(lab, *part, ds, dir / "out", timed);
  }
};

}  // namespace

TEST_CASE("a correct output passes, and a timed run's output is checked as well") {
  Fixture f;
  gpulab::write_npy(f.dir / "out" / "potential.npy", f.shape, f.correct().data());
  CHECK(f.check(false).pass);
  const gpulab::CheckResult missing_timed = f.check(true);
  CHECK_FALSE(missing_timed.pass);
  CHECK(test::contains(missing_timed.message, "from a timed run"));
  std::vector<float> wrong = f.correct();
  wrong[100] += 1.0f;
  gpulab::write_npy(f.dir / "out" / "timed_potential.npy", f.shape, wrong.data());
  const gpulab::CheckResult bad_timed = f.check(true);
  CHECK_FALSE(bad_timed.pass);
  CHECK(test::contains(bad_timed.message, "[0][3][1]"));
}

TEST_CASE("a wrongly shaped output fails with both shapes named") {
  Fixture f;
  const std::vector<float> v = f.correct();
  gpulab::write_npy(f.dir / "out" / "potential.npy", std::vector<size_t>{31, 33, 5}, v.data());
  const gpulab::CheckResult r = f.check(false);
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message, "has shape (31, 33, 5) but (5, 31, 33) was expected"));
}

TEST_CASE("a missing or malformed output fails with a message instead of throwing") {
  Fixture f;
  gpulab::CheckResult r;
  CHECK_NOTHROW(r = f.check(false));
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message, "cannot open"));
  test::write_file(f.dir / "out" / "potential.npy", "not an npy file");
  CHECK_NOTHROW(r = f.check(false));
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message, "bad magic"));
}
