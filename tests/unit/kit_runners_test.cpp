// grader/build/kit_runners.h, paths.h, elf_sections.h: which compiled runners the student kit
// ships, the architectures `gpulab dist` accepts and names, how the kit's gpulab finds its runners,
// and when it refuses one built against other files.
#include "build/kit_runners.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "build/dist_policy.h"
#include "build/elf_sections.h"
#include "files/content_hash.h"
#include "os/process.h"
#include "test_util.h"

namespace {

using test::contains;
namespace fs = std::filesystem;

std::string refusal(const std::vector<std::string>& architectures) {
  try {
    gpulab::kit_architectures(architectures);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

gpulab::Paths paths_in(const test::TempDir& dir) {
  gpulab::Paths p;
  p.source = dir / "src";
  p.build = dir / "build";
  return p;
}

}  // namespace

TEST_CASE("the kit's architectures: named as sm_XX and PTX; native, all and no PTX refused") {
  const auto both = gpulab::kit_architectures({"80", "90"});
  CHECK(both.describe() == "sm_80, sm_90 + PTX (compute_80, compute_90)");
  const auto mixed = gpulab::kit_architectures({"80-real", "90a-real", "90-virtual"});
  CHECK(mixed.sass == std::vector<std::string>{"sm_80", "sm_90a"});
  CHECK(mixed.ptx == std::vector<std::string>{"compute_90"});

  CHECK(contains(refusal({"native"}), "\"native\""));
  CHECK(contains(refusal({"native"}), "-DCMAKE_CUDA_ARCHITECTURES"));
  CHECK(contains(refusal({"all-major"}), "\"all-major\""));
  CHECK(contains(refusal({"80-real", "90-real"}), "no PTX"));
  CHECK(contains(refusal({"90-virtual"}), "no CUDA machine code"));
  CHECK(contains(refusal({}), "no CUDA machine code"));
}

TEST_CASE(
    "dist ships each lab's reference runner, and a baseline runner where its source is "
    "the instructor's; a missing one is refused by name") {
  test::TempDir dir;
  const gpulab::Paths p = paths_in(dir);
  const std::vector<gpulab::LabConfig> labs = {
      gpulab::LabConfig::load_id(test::source_dir(), "coarsening"),
      gpulab::LabConfig::load_id(test::source_dir(), "scan")};
  REQUIRE_FALSE(labs[0].reference_driver_files.empty());
  REQUIRE(labs[1].reference_driver_files.empty());
  for (const char* name : {"coarsening-reference", "coarsening-stub"})
    test::write_file(p.build / "runners" / name, "x");
  const std::string missing = (p.build / "runners" / "scan-reference").string();
  CHECK_THROWS_WITH_AS(gpulab::kit_runners(p, labs), doctest::Contains(missing.c_str()),
                       std::runtime_error);
  test::write_file(p.build / "runners" / "scan-reference", "x");
  // A kit's shipped runner is no build's: dist takes the build's alone.
  test::write_file(p.shipped_runner_dir() / "scan-reference", "x");
  std::vector<std::string> names;
  for (const auto& r : gpulab::kit_runners(p, labs)) {
    names.push_back(r.name);
    CHECK(r.built.parent_path() == p.build / "runners");
  }
  CHECK(names ==
        std::vector<std::string>{"coarsening-reference", "coarsening-baseline", "scan-reference"});
  fs::remove(p.build / "runners" / "coarsening-stub");
  CHECK_THROWS_WITH_AS(gpulab::kit_runners(p, labs),
                       doctest::Contains("coarsening-stub is missing: the kit ships the baseline"),
                       std::runtime_error);
}

TEST_CASE(
    "where the build has the CPU backend, dist ships its reference and baseline runners too, "
    "and refuses a missing one by name") {
  test::TempDir dir;
  gpulab::Paths p = paths_in(dir);
  p.sim_lib = p.build / "lib" / "libgpulab_sim.a";
  const std::vector<gpulab::LabConfig> labs = {
      gpulab::LabConfig::load_id(test::source_dir(), "coarsening")};
  for (const char* name : {"coarsening-reference", "coarsening-stub", "coarsening-reference-sim",
                           "coarsening-stub-sim"})
    test::write_file(p.build / "runners" / name, "x");
  // No CPU backend in the build (its library missing): the CUDA runners alone.
  CHECK(gpulab::kit_runners(p, labs).size() == 2);
  test::write_file(p.sim_lib, "x");
  std::vector<std::string> names;
  for (const auto& r : gpulab::kit_runners(p, labs)) {
    names.push_back(r.name);
    CHECK((r.backend == gpulab::Backend::sim) == contains(r.name, "-sim"));
  }
  CHECK(names == std::vector<std::string>{"coarsening-reference", "coarsening-baseline",
                                          "coarsening-reference-sim", "coarsening-baseline-sim"});
  fs::remove(p.build / "runners" / "coarsening-reference-sim");
  CHECK_THROWS_WITH_AS(gpulab::kit_runners(p, labs),
                       doctest::Contains("coarsening-reference-sim is missing: the kit ships the "
                                         "reference runner of the lab coarsening compiled. Build "
                                         "gpulab with its CPU-backend runners"),
                       std::runtime_error);
}

TEST_CASE("the kit's gpulab finds the shipped runners where its build has none") {
  test::TempDir dir;
  const gpulab::Paths p = paths_in(dir);
  CHECK(p.reference_runner("scan") == p.build / "runners" / "scan-reference");  // neither
  CHECK(p.shipped_baseline_runner("coarsening").empty());
  test::write_file(p.shipped_runner_dir() / "scan-reference", "x");
  test::write_file(p.shipped_runner_dir() / "coarsening-baseline", "x");
  CHECK(p.reference_runner("scan") == p.shipped_runner_dir() / "scan-reference");
  CHECK(p.reference_runner("scan", gpulab::Backend::sim) ==
        p.build / "runners" / "scan-reference-sim");
  CHECK(p.shipped_baseline_runner("coarsening") == p.shipped_runner_dir() / "coarsening-baseline");
  CHECK(p.shipped_baseline_runner("coarsening", gpulab::Backend::sim).empty());
  test::write_file(p.build / "runners" / "scan-reference", "x");  // the build's comes first
  CHECK(p.reference_runner("scan") == p.build / "runners" / "scan-reference");
}

TEST_CASE(
    "a shipped runner is refused where the kit's harness or lab files are not those it "
    "was built against, or gpulab's version differs") {
  test::TempDir dir;
  const gpulab::Paths p = paths_in(dir);
  gpulab::LabConfig lab;
  lab.id = "scan";
  lab.student_files = {"scan.cu"};
  lab.writeup = gpulab::WriteupSpec{"REPORT.md", 9};
  const std::vector<std::pair<std::string, std::string>> files = {
      {"harness/runner_main.cpp", "main"},
      {"labs/scan/driver.cpp", "driver"},
      {"labs/scan/REPORT.md", "# the write-up's template"},
      {"labs/binning/driver.cpp", "other lab"}};
  nlohmann::json record = {{"gpulab_version", GPULAB_VERSION},
                           {"built_from", nlohmann::json::object()}};
  for (const auto& [path, text] : files) {
    test::write_file(p.source / path, text);
    record["built_from"][path] = gpulab::content_hash(p.source / path);
  }
  test::write_file(p.source / "labs/scan/scan.cu", "the student's");
  const fs::path runner = p.shipped_runner_dir() / "scan-reference";
  test::write_file(runner, "x");
  const fs::path record_file = p.shipped_runner_dir() / gpulab::kKitRunnerRecord;
  CHECK(contains(gpulab::shipped_runner_mismatch(p, lab, runner), gpulab::kKitRunnerRecord));
  test::write_file(record_file, record.dump());
  CHECK(gpulab::shipped_runner_mismatch(p, lab, runner) == "");
  CHECK_NOTHROW(gpulab::check_shipped_runner(p, lab, runner));

  test::write_file(p.source / "labs/scan/scan.cu", "edited: the student's own file");
  test::write_file(p.source / "labs/scan/REPORT.md", "# filled in: the student's write-up");
  test::write_file(p.source / "labs/binning/driver.cpp", "another lab's, not scan's");
  CHECK(gpulab::shipped_runner_mismatch(p, lab, runner) == "");

  test::write_file(p.source / "harness/runner_main.cpp", "changed");
  CHECK(contains(gpulab::shipped_runner_mismatch(p, lab, runner), "harness/runner_main.cpp"));
  CHECK_THROWS_WITH_AS(gpulab::check_shipped_runner(p, lab, runner), doctest::Contains("same kit"),
                       std::runtime_error);
  // The build's own runners are never checked: the build made them with this gpulab.
  CHECK(gpulab::shipped_runner_mismatch(p, lab, p.build / "runners" / "scan-reference") == "");
  test::write_file(p.source / "harness/runner_main.cpp", "main");
  fs::remove(p.source / "labs/scan/driver.cpp");
  CHECK(contains(gpulab::shipped_runner_mismatch(p, lab, runner), "labs/scan/driver.cpp"));
  test::write_file(p.source / "labs/scan/driver.cpp", "driver");

  record["gpulab_version"] = "0.0.0-other";
  test::write_file(record_file, record.dump());
  CHECK(contains(gpulab::shipped_runner_mismatch(p, lab, runner), "gpulab 0.0.0-other"));
}

TEST_CASE("ELF section names: a symbol table until strip removes it; a non-ELF file refused") {
  test::TempDir dir;
  const auto names = gpulab::elf_section_names("/proc/self/exe");
  CHECK(std::find(names.begin(), names.end(), ".text") != names.end());
  CHECK(std::find(names.begin(), names.end(), gpulab::kElfSymbolTable) != names.end());
  gpulab::ProcessOptions po;
  po.argv = {"strip", "--strip-all", "-o", (dir / "stripped").string(), "/proc/self/exe"};
  REQUIRE(gpulab::run_process(po).ok());
  const auto stripped = gpulab::elf_section_names(dir / "stripped");
  CHECK(std::find(stripped.begin(), stripped.end(), ".text") != stripped.end());
  CHECK(std::find(stripped.begin(), stripped.end(), gpulab::kElfSymbolTable) == stripped.end());
  test::write_file(dir / "text", "#!/bin/sh\n" + std::string(100, '#') + "\necho not ELF\n");
  CHECK_THROWS_WITH_AS(gpulab::elf_section_names(dir / "text"), doctest::Contains("no ELF magic"),
                       std::runtime_error);
  test::write_file(dir / "short",
                   "\x7f"
                   "EL");
  CHECK_THROWS_WITH_AS(gpulab::elf_section_names(dir / "short"), doctest::Contains("too short"),
                       std::runtime_error);
}

TEST_CASE("the bundles leave out a tracked file deleted in the work tree") {
  test::TempDir dir;
  const auto git = [&](std::vector<std::string> args) {
    gpulab::ProcessOptions po;
    po.argv = {"git", "-C", (dir / "repo").string()};
    po.argv.insert(po.argv.end(), args.begin(), args.end());
    const auto r = gpulab::run_process(po);
    REQUIRE_MESSAGE(r.ok(), r.output);
  };
  fs::create_directories(dir / "repo");
  git({"init", "-q"});
  test::write_file(dir / "repo/labs/a.cu", "a");
  test::write_file(dir / "repo/labs/moved.cu", "moved away");
  git({"add", "labs"});
  CHECK(gpulab::tracked_files(dir / "repo") ==
        std::vector<std::string>{"labs/a.cu", "labs/moved.cu"});
  fs::remove(dir / "repo/labs/moved.cu");
  CHECK(gpulab::tracked_files(dir / "repo") == std::vector<std::string>{"labs/a.cu"});
}
