// The grader's check of a runner's outputs: wrong shapes, missing or malformed files and
// timed outputs each fail with a message, and never throw; and what the grader takes as an
// output at all (sealed_outputs.h).
#include "data/check.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compare.h"
#include "data/dataset_store.h"
#include "data/sealed_outputs.h"
#include "gather_dataset.h"
#include "lab/lab_config.h"
#include "npy.h"
#include "poison.h"
#include "sealed_file.h"
#include "sealed_test_outputs.h"
#include "test_util.h"

namespace {

struct Fixture : test::GatherDataset {
  gpulab::CheckResult check(bool timed) const {
    return gpulab::check_outputs(lab, *part, ds, test::sealed_outputs(dir / "out"), timed);
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
  CHECK(test::contains(r.message, "your run did not hand over this output"));
  test::write_file(f.dir / "out" / "potential.npy", "not an npy file");
  CHECK_NOTHROW(r = f.check(false));
  CHECK_FALSE(r.pass);
  CHECK(test::contains(r.message, "bad magic"));
}

TEST_CASE("only a sealed memory file of its size is taken as an output, each name once") {
  gpulab::SealedOutputs outputs;
  const auto sealed = [](size_t bytes) {
    return gpulab::sealed_memory_file("x", bytes, [](void*) {});
  };
  CHECK(outputs.add("a", sealed(100), 1000).empty());
  CHECK(outputs.has("a"));
  CHECK(test::contains(outputs.add("a", sealed(100), 1000), "came twice"));
  CHECK(test::contains(outputs.add("b", sealed(2000), 1000), "larger (2000 bytes)"));
  // A memory file its maker can still write: what the grader reads could change after.
  gpulab::UniqueFd open(memfd_create("x", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  REQUIRE(open.valid());
  CHECK(test::contains(outputs.add("c", std::move(open), 1000), "came unsealed"));
  // Sealed against growing and shrinking only: still writable.
  gpulab::UniqueFd partly(memfd_create("x", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  REQUIRE(fcntl(partly.get(), F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK) == 0);
  CHECK(test::contains(outputs.add("d", std::move(partly), 1000), "came unsealed"));
  // A plain file, a pipe: never sealed.
  test::TempDir dir;
  test::write_file(dir / "f.npy", "x");
  CHECK(test::contains(
      outputs.add("e", gpulab::UniqueFd(::open((dir / "f.npy").c_str(), O_RDONLY)), 1000),
      "came unsealed"));
  int p[2];
  REQUIRE(pipe(p) == 0);
  close(p[1]);
  CHECK(test::contains(outputs.add("f", gpulab::UniqueFd(p[0]), 1000),
                       "something other than a memory file"));
  CHECK(outputs.names() == std::vector<std::string>{"a"});
}

TEST_CASE("an output sealed when it was sent reads the same whatever its maker does after") {
  Fixture f;
  gpulab::write_npy(f.dir / "out" / "potential.npy", f.shape, f.correct().data());
  gpulab::SealedOutputs outputs = test::sealed_outputs(f.dir / "out");
  // What the run's folder holds later (a link to the answer, other bytes) is never read.
  std::filesystem::remove(f.dir / "out" / "potential.npy");
  test::write_file(f.dir / "out" / "potential.npy", "not an npy file");
  CHECK(gpulab::check_outputs(f.lab, *f.part, f.ds, outputs, false).pass);
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
  const gpulab::CheckResult ok =
      gpulab::check_outputs(lab, *part, ds, test::sealed_outputs(out), false);
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
  const gpulab::CheckResult bad =
      gpulab::check_outputs(lab, *part, ds, test::sealed_outputs(out), false);
  INFO(bad.message);
  CHECK_FALSE(bad.pass);
  CHECK(test::contains(bad.message, "particle_index: 2 of 25 cells hold the wrong values"));
  CHECK(test::contains(bad.message, "the first is cell " + gpulab::index_string(first, {2, 4, 3}) +
                                        " (id " + std::to_string(first) + ")"));
  CHECK(test::contains(bad.message, "cell_count: all 25 values exact"));
  // The wrong output is told first, before the right ones.
  CHECK(bad.message.rfind("particle_index:", 0) == 0);

  // Wrong starts as well: told before the cells they lay out, whatever lab.json's order.
  std::vector<int32_t> shifted = start;
  for (auto& s : shifted) ++s;
  gpulab::write_npy(out / "cell_start.npy", {shifted.size()}, shifted.data());
  const gpulab::CheckResult both =
      gpulab::check_outputs(lab, *part, ds, test::sealed_outputs(out), false);
  INFO(both.message);
  CHECK(both.message.rfind("cell_start:", 0) == 0);
  CHECK(both.message.find("particle_index:") > both.message.find("cell_start:"));
  CHECK(both.message.find("cell_count:") > both.message.find("particle_index:"));

  // A failed run's outputs as its kernels left them: the wrong ones it wrote, in data-flow order;
  // an output nothing wrote (the kernel the failure stopped first) and a right one are left out.
  std::vector<int32_t> unwritten(index.size(), gpulab::kPoisonInt);
  gpulab::write_npy(out / "particle_index.npy", {unwritten.size()}, unwritten.data());
  std::string left = gpulab::outputs_left_by_failure(lab, *part, ds, test::sealed_outputs(out));
  INFO(left);
  CHECK(left.rfind("Where your code's kernels had left its outputs when it failed:\ncell_start:",
                   0) == 0);
  CHECK(left.find("particle_index") == std::string::npos);
  CHECK(left.find("cell_count") == std::string::npos);
  gpulab::write_npy(out / "cell_start.npy", {start.size()}, start.data());
  CHECK(gpulab::outputs_left_by_failure(lab, *part, ds, test::sealed_outputs(out)).empty());
}
