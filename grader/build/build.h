// Building a runner from a lab's student files (a submission, the student's working copy, or
// reference/): the lab's build recipe for the backend (runner_recipe.h: the manifest CMake
// writes) compiles each file against the lab's interface header with the backend's compiler
// (nvcc, or gpulab-sim-cc for the CPU backend), then links the lab's driver and the harness
// built for that backend. Where lab.json has a "library" section, each file's headers (from the
// compiler, before its compile) and its object's names (after) are checked against it
// (library_rule.h). CMake's reference and stub runners are built by this same function
// (gpulab-build-runner), so theirs and a student's get the same commands.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "files/paths.h"
#include "lab/lab_config.h"
#include "sandbox/runner_recipe.h"
#include "sandbox/sandbox.h"

namespace gpulab {

struct BuildResult {
  bool ok = false;
  std::filesystem::path runner;
  std::string message;  // for the report: what failed and the compiler's own words
  // The compiler and linker commands run, in order (the last one failed where !ok).
  std::vector<std::vector<std::string>> commands;
  // The runner is a copy of one kept from an earlier build of the same content (build_cache.h);
  // `commands` are that build's.
  bool kept = false;
};

// src_dir holds the lab's student files; the runner is written to work_dir/runner, which is
// emptied first. The compiler and linker run in `sandbox`
// (build_sandbox: they see the student files, the recipe's include folders and libraries).
// A missing or malformed manifest throws RecipeError naming it.
BuildResult build_runner(const LabConfig& lab, const Paths& paths,
                         const std::filesystem::path& src_dir,
                         const std::filesystem::path& work_dir, Backend backend,
                         const Sandbox& sandbox, double timeout_s = 300);

// The same with the recipe given: `use` says whose runner it is (RecipeUse::trusted adds the
// recipe's warning flags, for the runners CMake builds).
BuildResult build_runner(const RunnerRecipe& recipe, const LabConfig& lab, const Paths& paths,
                         const std::filesystem::path& src_dir,
                         const std::filesystem::path& work_dir, const Sandbox& sandbox,
                         RecipeUse use, double timeout_s = 300);

// Every file the compiler reads for the lab's student files in `src_dir` but those files (the
// recipe's dependency_command, in the build's sandbox, `work_dir` its folder), each once, sorted:
// what a kept build's validity rests on besides them (build_cache.h). nullopt where the
// compiler could not list them all.
std::optional<std::vector<std::string>> headers_read(const RunnerRecipe& recipe,
                                                     const LabConfig& lab, const Paths& paths,
                                                     const std::filesystem::path& src_dir,
                                                     const std::filesystem::path& work_dir,
                                                     const Sandbox& sandbox,
                                                     double timeout_s = 300);

// Where gpulab-build-runner builds CMake's runner `runner_name` ("scan-reference-sim"):
// build/runner-builds/<name>/; and the file in such a folder that keeps its BuildResult's
// commands (a JSON array of argument arrays).
std::filesystem::path trusted_build_dir(const Paths& paths, const std::string& runner_name);
std::filesystem::path recorded_commands(const std::filesystem::path& build_dir);

}  // namespace gpulab
