// Where gpulab run takes the student's files from (grader/lab/lab_tree.h): labs/<lab> of the gpulab
// tree the working directory is in, else the build's own.
#include "lab/lab_tree.h"

#include <doctest/doctest.h>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::lab_folder_above;

// A gpulab tree at `root` with labs/<lab>/lab.json.
void make_lab(const fs::path& root, const std::string& lab) {
  fs::create_directories(root / "labs" / lab);
  std::ofstream(root / "labs" / lab / "lab.json") << "{}";
}

TEST_CASE("found from the tree's top, from labs/<lab> itself and from any folder below the tree") {
  test::TempDir t;
  make_lab(t / "kit", "scan");
  make_lab(t / "kit", "binning");
  fs::create_directories(t / "kit" / "notes" / "week1");
  const fs::path want = t / "kit" / "labs" / "scan";
  CHECK(lab_folder_above(t / "kit", "scan") == want);
  CHECK(lab_folder_above(t / "kit" / "labs" / "scan", "scan") == want);
  CHECK(lab_folder_above(t / "kit" / "labs" / "binning", "scan") == want);
  CHECK(lab_folder_above(t / "kit" / "notes" / "week1", "scan") == want);
  CHECK(lab_folder_above(t / "kit" / "notes" / "week1" / "", "scan") == want);  // trailing '/'
  CHECK(lab_folder_above(t / "kit" / "notes" / ".." / "notes", "scan") == want);
}

TEST_CASE("the nearest tree wins; a tree without the lab is passed over for one above") {
  test::TempDir t;
  make_lab(t.path(), "scan");
  make_lab(t / "inner", "scan");
  make_lab(t / "other", "binning");
  CHECK(lab_folder_above(t / "inner", "scan") == t / "inner" / "labs" / "scan");
  CHECK(lab_folder_above(t / "other", "scan") == t / "labs" / "scan");
}

TEST_CASE("a labs/<lab> folder without lab.json is no tree; no tree anywhere finds nothing") {
  test::TempDir t;
  fs::create_directories(t / "kit" / "labs" / "scan");
  CHECK_FALSE(lab_folder_above(t / "kit", "scan"));
  std::ofstream(t / "kit" / "labs" / "scan" / "lab.json") << "{}";
  CHECK(lab_folder_above(t / "kit", "scan"));
  CHECK_FALSE(lab_folder_above(t / "kit", "binning"));
}

TEST_CASE("a name that is not a lab id finds nothing, whatever folders there are") {
  test::TempDir t;
  make_lab(t / "kit", "scan");
  CHECK_FALSE(lab_folder_above(t / "kit" / "labs", "scan/.."));
  CHECK_FALSE(lab_folder_above(t / "kit" / "labs" / "scan", ".."));
  CHECK_FALSE(lab_folder_above(t / "kit", ""));
}

TEST_CASE("without a tree around the working directory, the fallback, and it says so") {
  test::TempDir t;
  make_lab(t / "kit", "scan");
  fs::create_directories(t / "elsewhere");
  const auto fallback = t / "build-source" / "labs" / "scan";
  const auto away = gpulab::student_lab_folder(t / "elsewhere", "scan", fallback);
  CHECK(away.dir == fallback);
  CHECK_FALSE(away.from_cwd_tree);
  const auto in_kit = gpulab::student_lab_folder(t / "kit", "scan", fallback);
  CHECK(in_kit.dir == t / "kit" / "labs" / "scan");
  CHECK(in_kit.from_cwd_tree);
}

}  // namespace
