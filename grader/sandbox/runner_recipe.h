// How a runner is built from a lab's student files: the one recipe for the reference and stub
// runners CMake builds and for a student's runner the grader builds. CMake writes it per lab,
// with every path resolved, to build/lib/manifests/<lab>.json (cmake/GpulabLab.cmake,
// gpulab_add_lab); grader/build/build.cpp reads it here and runs its commands, for CMake's runners
// through gpulab-build-runner (build_runner_main.cpp). docs/GRADING.md, "Building a runner",
// describes the file.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "files/paths.h"
#include "lab/lab_config.h"

namespace gpulab {

// A manifest that is missing, unreadable or malformed; the message names the file.
struct RecipeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An archive linked whole and before the objects. role: "harness", "driver" or "runtime" (the
// CPU backend's sim runtime).
struct LinkedArchive {
  std::string role;
  std::filesystem::path path;
};

// A role's archive as messages name it ("gpulab's harness"); empty for an unknown role.
std::string linked_archive_description(const std::string& role);

struct RunnerRecipe {
  std::filesystem::path manifest;  // where it was read from, for messages
  std::string lab;
  Backend backend = Backend::cuda;
  std::filesystem::path compiler;  // nvcc, or gpulab-sim-cc for the CPU backend
  std::string cxx_standard;        // "17": -std=c++17
  // CMake's CUDA architectures ("80", "90-real", "native", ...); none on the CPU backend.
  std::vector<std::string> architectures;
  std::vector<std::string> nvcc_flags;  // the lab's (lab.json)
  // What CMake compiles gpulab's own code with (GPULAB_WERROR adds -Werror): given to the
  // instructor's runners alone (RecipeUse::trusted), so that CI fails on a warning in reference/
  // while a student's report never quotes or fails for one. They change no generated code.
  std::vector<std::string> warning_flags;
  std::vector<std::filesystem::path> include_dirs;  // the lab's folder first
  std::vector<LinkedArchive> link_whole;            // in link order
  // The compiler's options for `architectures` (cuda_arch_flags), found when the recipe is read.
  std::vector<std::string> arch_flags;
};

// CMake's own translation of each CUDA architecture entry into nvcc options ("native" is the
// GPU this process sees, or sm_90 where there is none: a sandboxed build sees no GPU). Throws
// RecipeError naming `manifest` for an entry CMake would not take.
std::vector<std::string> cuda_arch_flags(const std::vector<std::string>& architectures,
                                         const std::filesystem::path& manifest);

// What every CUDA build of a runner adds, the instructor's and the student's alike: line
// information, so that compute-sanitizer, which runs on every GPU grade (sanitizer_runs.h), names
// file and line from the very runner that was graded and timed. It changes no generated code
// (nvcc's -lineinfo only adds a line table beside it), so timings are those of a plain build, and
// no second build is needed for the tool.
constexpr const char* kLineInfoFlag = "-lineinfo";

// Whose runner a command builds: a student's (also the grader's fallback builds of reference/
// and labs/<lab>/), or the instructor's, built by CMake with its warning flags.
enum class RecipeUse { student, trusted };

// One runner's commands, in order: one compile per student file, then the link. `objects` are
// each student file's object, as compile_command wrote them.
std::vector<std::string> compile_command(const RunnerRecipe& r, RecipeUse use,
                                         const std::filesystem::path& src,
                                         const std::filesystem::path& object);
// The command that lists the headers `src` includes as compile_command's compile includes them
// (include_tree.h): the compiler's dependency pass (-M), which preprocesses as the compile does
// (nvcc: once per device architecture and once for the host; gpulab-sim-cc: as its g++ does,
// without the rewrite), its host compiler printing each header it opens (-H) and no warnings
// (-w), so that nothing else it prints starts with a dot. Its output file is /dev/null.
std::vector<std::string> include_tree_command(const RunnerRecipe& r, RecipeUse use,
                                              const std::filesystem::path& src);
// The command that writes, to `rule`, the make rule of every file a student's compile of `src`
// reads (the compiler's -M): its headers, those the compiler includes of its own accord too
// (gpulab-sim-cc's sim header, which -H does not list), as each pass preprocesses them.
std::vector<std::string> dependency_command(const RunnerRecipe& r, const std::filesystem::path& src,
                                            const std::filesystem::path& rule);
std::vector<std::string> link_command(const RunnerRecipe& r,
                                      const std::vector<std::filesystem::path>& objects,
                                      const std::filesystem::path& runner);

// build/lib/manifests/<lab>.json.
std::filesystem::path recipe_manifest(const Paths& paths, const std::string& lab);

// The recipe for `backend` from `manifest`'s parsed text. Throws RecipeError
// naming `manifest` and the key when a key is missing or of the wrong type, when the manifest
// is for another lab, when it has no recipe for `backend` (gpulab built without it), or when
// its nvcc_flags are not lab.json's (a lab.json changed since the last build).
RunnerRecipe parse_recipe(const nlohmann::json& doc, const std::filesystem::path& manifest,
                          const LabConfig& lab, Backend backend);

// parse_recipe of recipe_manifest(paths, lab.id); a missing or unparsable file is a RecipeError
// naming it.
RunnerRecipe load_recipe(const Paths& paths, const LabConfig& lab, Backend backend);

}  // namespace gpulab
