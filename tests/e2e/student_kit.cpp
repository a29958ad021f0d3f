#include "student_kit.h"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <regex>

#include "e2e_util.h"
#include "lab/lab_config.h"
#include "rusage_time.h"

namespace e2e {

namespace {

// A seed no file of gpulab contains by chance.
std::string fresh_seed() {
  std::random_device rd;
  return std::to_string(9000000000000000000ull + (static_cast<uint64_t>(rd()) << 20) + rd() % 997);
}

StudentKit make_kit() {
  StudentKit k;
  k.root = scratch("student-kit");
  k.seed = fresh_seed();
  // An instructor's environment may hold the hidden seed; the kit must not.
  const auto made =
      run_command({GPULAB_TEST_BINARY, "dist", "--out", (k.root / "kit.tar.gz").string(),
                   // Two labs' GitHub Classroom steps (kit_classroom_e2e.cpp): few, as they cost.
                   "--github-classroom", "--lab", "scatter-gather", "--lab", "scan"},
                  k.root, {"GPULAB_HIDDEN_SEED=" + k.seed}, 600);
  REQUIRE_MESSAGE(made.exit_code == 0, made.output);
  // dist counts what it shipped: each lab's reference runner and the baselines that are the
  // instructor's alone, for the GPU and again for the CPU backend (kit_reference_e2e.cpp checks
  // the files themselves).
  size_t runners = 0;
  for (const auto& lab_json : gpulab::find_lab_files(kSource))
    runners += gpulab::LabConfig::load(lab_json).reference_driver_files.empty() ? 1 : 2;
  const std::string count = std::to_string(runners);
  CHECK_MESSAGE(made.output.find(" files and " + count +
                                 " compiled runners (reference, baseline)") != std::string::npos,
                made.output);
  CHECK_MESSAGE(
      made.output.find(" and " + count + " for the CPU backend under gpulab/") != std::string::npos,
      made.output);
  fs::create_directories(k.root / "unpacked");
  const auto untar = run_command(
      {"tar", "-xzf", (k.root / "kit.tar.gz").string(), "-C", (k.root / "unpacked").string()},
      k.root, {}, 300);
  REQUIRE_MESSAGE(untar.exit_code == 0, untar.output);
  k.kit = k.root / "unpacked" / "gpulab";
  REQUIRE(fs::is_regular_file(k.kit / "README.md"));

  // The README's build commands for a machine without a GPU, as a student runs them.
  const std::string readme = read_text(k.kit / "README.md");
  std::smatch block;
  REQUIRE_MESSAGE(
      std::regex_search(readme, block,
                        std::regex("<!-- gpulab-kit: build-sim -->\\s*```sh\\n([^`]*)```")),
      "the kit's README has no build-sim block");
  const auto t0 = std::chrono::steady_clock::now();
  // A build's, every compiler it started included (each waited for by its parent).
  const double cpu0 = gpulab::rusage_cpu_s(RUSAGE_CHILDREN);
  const auto build =
      run_command({"bash", "-euo", "pipefail", "-c", block[1].str()}, k.kit, {}, 1500);
  k.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  k.build_cpu_s = gpulab::rusage_cpu_s(RUSAGE_CHILDREN) - cpu0;
  MESSAGE("the student kit's build took " << k.build_s << " s on the clock, " << k.build_cpu_s
                                          << " s of CPU time");
  REQUIRE_MESSAGE(build.exit_code == 0, build.output);
  k.gpulab = k.kit / "build" / "gpulab";
  REQUIRE(fs::is_regular_file(k.gpulab));
  return k;
}

}  // namespace

const StudentKit& student_kit() {
  static std::mutex mutex;
  static std::unique_ptr<StudentKit> kit;
  static bool failed = false;
  std::lock_guard lock(mutex);
  REQUIRE_MESSAGE(!failed, "the student kit could not be made (see the first case that asked)");
  if (!kit) {
    failed = true;  // until make_kit returns: a failed REQUIRE inside it leaves this set
    kit = std::make_unique<StudentKit>(make_kit());
    failed = false;
  }
  return *kit;
}

gpulab::ProcessResult run_in_kit(std::vector<std::string> argv, const fs::path& cwd,
                                 std::vector<std::string> env, double timeout_s) {
  const StudentKit& k = student_kit();
  return run_command(std::move(argv), cwd.empty() ? k.kit : cwd, std::move(env), timeout_s);
}

KitFile::KitFile(const fs::path& relative, const fs::path& replacement)
    : file_(student_kit().kit / relative), original_(read_text(file_)) {
  REQUIRE_MESSAGE(fs::is_regular_file(file_), "the kit has no " << relative);
  fs::copy_file(replacement, file_, fs::copy_options::overwrite_existing);
}

KitFile::~KitFile() {
  std::ofstream(file_, std::ios::binary | std::ios::trunc) << original_;
}

}  // namespace e2e
