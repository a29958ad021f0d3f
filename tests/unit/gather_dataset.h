// A scatter-gather dataset for its gather part, made as grading makes it (materialize) in a
// temporary folder, with an empty out/ for a run's outputs: what the check, the kept outputs
// and the error maps read in their unit tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "data/dataset_store.h"
#include "lab/lab_config.h"
#include "npy.h"
#include "test_util.h"

namespace test {

struct GatherDataset {
  TempDir dir;
  gpulab::LabConfig lab =
      gpulab::LabConfig::load(source_dir() / "labs" / "scatter-gather" / "lab.json");
  gpulab::DatasetDirs ds;
  const gpulab::PartSpec* part = lab.part("gather");
  std::vector<size_t> shape = {5, 31, 33};

  // "odd": 33 x 31 x 5 points, 37 atoms, seed 3.
  GatherDataset() {
    make({"odd", {{"nx", 33}, {"ny", 31}, {"nz", 5}, {"n_atoms", 37}, {"h", 0.5}}, 3, {}});
  }
  // The lab's public dataset of that name (its shape must be 5 x 31 x 33).
  explicit GatherDataset(const std::string& public_name) {
    const gpulab::GroupSpec& group = lab.groups.at(0);
    const auto spec = std::find_if(group.datasets.begin(), group.datasets.end(),
                                   [&](const auto& s) { return s.name == public_name; });
    REQUIRE_MESSAGE(spec != group.datasets.end(), "no public dataset " << public_name);
    make(*spec);
  }

  // The oracle's answer rounded to float: what a correct runner writes.
  std::vector<float> correct() const {
    const gpulab::NpyArray e = gpulab::read_npy(ds.expected / "potential.npy");
    std::vector<float> v(e.count());
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(e.as<double>()[i]);
    return v;
  }

 private:
  void make(const gpulab::DatasetSpec& spec) {
    ds = gpulab::materialize(lab, lab.groups.at(0), spec, "", dir / "datasets");
    fs::create_directories(dir / "out");
  }
};

}  // namespace test
