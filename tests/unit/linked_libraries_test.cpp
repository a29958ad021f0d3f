// grader/build/linked_libraries.h on this machine: a runner's libraries are found, the ones linked
// first come first, and the symbol policy over them refuses what the adversarial corpus defines
// while allowing what a correct submission's objects hold.
#include "build/linked_libraries.h"

#include <doctest/doctest.h>

#include "test_util.h"

namespace {

gpulab::LabConfig scatter_gather() {
  return gpulab::LabConfig::load(test::source_dir() / "labs" / "scatter-gather" / "lab.json");
}

std::vector<gpulab::LinkedLibrary> read_all(const std::vector<gpulab::LibraryFile>& files) {
  std::vector<gpulab::LinkedLibrary> libs;
  for (const auto& f : files) {
    std::string error;
    const auto lib = gpulab::read_library(f, error);
    REQUIRE_MESSAGE(lib.has_value(), error);
    libs.push_back(*lib);
  }
  return libs;
}

}  // namespace

TEST_CASE("runner_libraries: the archives linked first, then the C and C++ libraries") {
  const gpulab::Paths paths = gpulab::Paths::current();
  if (!std::filesystem::exists(paths.harness_lib(gpulab::Backend::sim)) ||
      !std::filesystem::exists(paths.sim_lib))
    return;  // a build without the CPU backend
  std::string missing;
  const auto files = gpulab::runner_libraries(
      gpulab::load_recipe(paths, scatter_gather(), gpulab::Backend::sim), missing);
  CHECK(missing.empty());
  REQUIRE(files.size() >= 5);
  CHECK(files[0].path == paths.harness_lib(gpulab::Backend::sim));
  CHECK(files[1].path == paths.driver_lib("scatter-gather", gpulab::Backend::sim));
  CHECK(files[2].path == paths.sim_lib);
  for (size_t i = 0; i < files.size(); ++i) CHECK(files[i].linked_first == (i < 3));
  bool libc = false;
  for (const auto& f : files) libc = libc || f.description == "the C library";
  CHECK(libc);

  const auto libs = read_all(files);
  const gpulab::SymbolPolicy policy(libs, gpulab::interface_names(libs[1].symbols, libs));
  // The lab's interface is what the driver takes from the student.
  CHECK(policy.check({{"_Z12dcs_cpu_fastPKfi7LatticePf", 'T'}}).empty());
  const auto clock = policy.check({{"clock_gettime", 'W'}});
  REQUIRE(clock.size() == 1);
  CHECK(clock[0].library == "the C library");
  // The sim's cudaEventElapsedTime has C++ linkage.
  const auto event = policy.check({{"_Z20cudaEventElapsedTimePfP10CUevent_stS1_", 'T'}});
  REQUIRE(event.size() == 1);
  CHECK(event[0].library == "the CPU backend's runtime");
  const auto main = policy.check({{"main", 'T'}});
  REQUIRE(main.size() == 1);
  CHECK(main[0].library == "gpulab's harness");
}
