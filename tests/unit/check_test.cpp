// The grader's check of a runner's outputs: wrong shapes, missing or malformed files and
// timed outputs each fail with a message, and never throw.
#include "check.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compare.h"
#include "dataset_store.h"
#include "gather_dataset.h"
#include "lab_config.h"
#include "npy.h"
#include "test_util.h"

namespace {

struct Fixture : test::GatherDataset {
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
  CHECK(test::contains(r.message, "your run left no 'potential.npy' in its output folder"));
  test::write_file(f.dir / "out" / "potential.npy", "not an npy file");
  CHECK_NOTHROW(r = f.check(false));
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message, "bad magic"));
}

TEST_CASE("an output that is a link to the right answer is refused, never followed") {
  Fixture f;
  // What the oracle wrote, as a float32 file the grader could read and a run could not.
  gpulab::write_npy(f.dir / "answer.npy", f.shape, f.correct().data());
  std::filesystem::create_symlink(f.dir / "answer.npy", f.dir / "out" / "potential.npy");
  gpulab::CheckResult r;
  CHECK_NOTHROW(r = f.check(false));
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message,
                       "your run left 'potential.npy' in its output folder as a symbolic link"));
  std::filesystem::remove(f.dir / "out" / "potential.npy");
  std::filesystem::create_hard_link(f.dir / "answer.npy", f.dir / "out" / "potential.npy");
  CHECK_NOTHROW(r = f.check(false));
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message, "as a hard link"));
}

TEST_CASE("a segment_sets output is compared cell by cell, in any order inside a cell") {
  test::TempDir dir;
  const gpulab::LabConfig lab =
      gpulab::LabConfig::load(test::source_dir() / "labs" / "particle-grid" / "lab.json");
  const gpulab::PartSpec* part = lab.part("atomic");
  REQUIRE(part != nullptr);
  const gpulab::DatasetSpec spec{"small",
                                 {{"n", 200},
                                  {"nx", 3},
                                  {"ny", 4},
                                  {"nz", 2},
                                  {"cell", 1.0},
                                  {"outside", "reject"},
                                  {"layout", "uniform"},
                                  {"outside_fraction", 0.1}},
                                 5,
                                 {}};
  const gpulab::DatasetDirs ds =
      gpulab::materialize(lab, lab.groups.at(0), spec, "", dir / "datasets");
  const auto out = dir / "out";
  std::filesystem::create_directories(out);
  auto read = [&](const std::string& name) {
    const gpulab::NpyArray a = gpulab::read_npy(ds.expected / (name + ".npy"), gpulab::DType::i32);
    return std::vector<int32_t>(a.as<int32_t>(), a.as<int32_t>() + a.count());
  };
  const std::vector<int32_t> start = read("cell_start"), count = read("cell_count");
  REQUIRE(start.size() == 3 * 4 * 2 + 1);
  for (const char* name : {"cell_start", "cell_count"}) {
    const std::vector<int32_t> v = read(name);
    gpulab::write_npy(out / (std::string(name) + ".npy"), {v.size()}, v.data());
  }
  std::vector<int32_t> index = read("particle_index");
  // Each cell's particles in reverse order: still right.
  for (size_t c = 0; c < start.size(); ++c)
    std::reverse(index.begin() + start[c], index.begin() + start[c] + count[c]);
  gpulab::write_npy(out / "particle_index.npy", {index.size()}, index.data());
  const gpulab::CheckResult ok = gpulab::check_outputs(lab, *part, ds, out, false);
  INFO(ok.message);
  CHECK(ok.pass);
  CHECK(test::contains(ok.message, "particle_index: all 25 cells hold the expected values"));

  // The first particle of the first non-empty cell swapped with the last particle of the array
  // (another cell: rejected particles are last).
  size_t first = 0;
  while (count[first] == 0) ++first;
  REQUIRE(count.back() > 0);
  std::swap(index[static_cast<size_t>(start[first])], index.back());
  gpulab::write_npy(out / "particle_index.npy", {index.size()}, index.data());
  const gpulab::CheckResult bad = gpulab::check_outputs(lab, *part, ds, out, false);
  INFO(bad.message);
  CHECK_FALSE(bad.pass);
  CHECK(test::contains(bad.message, "particle_index: 2 of 25 cells hold the wrong values"));
  CHECK(test::contains(bad.message, "the first is cell " + gpulab::index_string(first, {2, 4, 3}) +
                                        " (id " + std::to_string(first) + ")"));
  CHECK(test::contains(bad.message, "cell_count: all 25 values exact"));
}
