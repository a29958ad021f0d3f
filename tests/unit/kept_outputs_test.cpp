// run --keep-outputs (kept_outputs.h): a run's outputs kept beside the expected ones, only as
// well-formed arrays of the expected shape, as the run handed them over, replacing an earlier
// run's.
#include "data/kept_outputs.h"

#include <doctest/doctest.h>

#include "gather_dataset.h"
#include "npy.h"
#include "sealed_test_outputs.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;

struct Fixture : test::GatherDataset {
  fs::path kept = dir / "kept" / "gather" / "odd";

  std::string keep() {
    return gpulab::keep_outputs(lab, *part, ds, test::sealed_outputs(dir / "out"), dir / "kept");
  }
};

}  // namespace

TEST_CASE("a run's output is kept as written, beside the expected one") {
  Fixture f;
  std::vector<float> got(5 * 31 * 33, 0.25f);
  gpulab::write_npy(f.dir / "out" / "potential.npy", f.shape, got.data());
  CHECK(f.keep().empty());
  const gpulab::NpyArray kept = gpulab::read_npy(f.kept / "potential.npy", gpulab::DType::f32);
  CHECK(kept.shape == f.shape);
  CHECK(kept.as<float>()[17] == 0.25f);
  CHECK(test::read_file(f.kept / "potential.expected.npy") ==
        test::read_file(f.ds.expected / "potential.npy"));
  CHECK(gpulab::kept_outputs_dir(f.dir / "kept", "gather", "odd") == f.kept);
}

TEST_CASE("an output of the wrong shape, or not handed over, is not kept") {
  Fixture f;
  std::vector<float> got(5 * 31 * 33, 1.0f);
  gpulab::write_npy(f.dir / "out" / "potential.npy", f.shape, got.data());
  REQUIRE(f.keep().empty());
  // A later run wrote the wrong shape: the earlier run's output does not stay to mislead.
  gpulab::write_npy(f.dir / "out" / "potential.npy", {7}, got.data());
  CHECK(test::contains(f.keep(), "shape"));
  CHECK_FALSE(fs::exists(f.kept / "potential.npy"));
  CHECK(fs::exists(f.kept / "potential.expected.npy"));
  fs::remove(f.dir / "out" / "potential.npy");
  CHECK(test::contains(f.keep(), "potential not kept"));
  CHECK_FALSE(fs::exists(f.kept / "potential.npy"));
  for (const auto& e : fs::directory_iterator(f.kept))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}
