// gpulab-build-runner <lab> <backend> <source folder> <runner>: how CMake builds its reference and
// stub runners (cmake/GpulabLab.cmake, gpulab_add_runner). The lab's manifest and the function
// that build a student's runner (build.h) build this one too, so the reference a student is
// measured against is compiled with the student's flags for the same architectures; only the
// recipe's warning flags are added (RecipeUse::trusted). No sandbox: the code is the
// instructor's, built like the rest of gpulab. The commands run are kept (recorded_commands) for
// the test that compares them with a student's build.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "build/build.h"
#include "files/atomic_file.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 5) {
    std::cerr << "usage: gpulab-build-runner <lab> <cuda|sim> <source folder> <runner>\n";
    return 2;
  }
  try {
    const gpulab::Paths paths = gpulab::Paths::current();
    const gpulab::LabConfig lab = gpulab::LabConfig::load_id(paths.source, argv[1]);
    const std::optional<gpulab::Backend> backend = gpulab::backend_named(argv[2]);
    if (!backend) {
      std::cerr << "gpulab-build-runner: no backend named \"" << argv[2] << "\" (cuda or sim)\n";
      return 2;
    }
    const gpulab::RunnerRecipe recipe = gpulab::load_recipe(paths, lab, *backend);
    const fs::path out = argv[4];
    const fs::path work = gpulab::trusted_build_dir(paths, out.filename().string());
    const gpulab::BuildResult b = gpulab::build_runner(
        recipe, lab, paths, argv[3], work, gpulab::Sandbox{}, gpulab::RecipeUse::trusted);
    gpulab::write_file_atomically(gpulab::recorded_commands(work),
                                  nlohmann::json(b.commands).dump(1) + "\n");
    if (!b.ok) {
      std::cerr << "gpulab-build-runner: " << out.string() << ": " << b.message << "\n";
      return 1;
    }
    fs::create_directories(out.parent_path());
    fs::rename(b.runner, out);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "gpulab-build-runner: " << e.what() << "\n";
    return 1;
  }
}
