// The libraries a runner links, for the symbol policy (symbol_policy.h): first the archives the
// recipe (runner_recipe.h) links whole and before the submission's objects (the harness, the
// lab's driver and, on the CPU backend, the sim runtime), then the CUDA
// runtime and driver API (cuda backend) and the C, math, threads, C++ and GCC runtime
// libraries the host compiler links. These are gpulab's and the system's own files, so nm reads
// them outside the sandbox, once per grader process.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "build/symbol_policy.h"
#include "sandbox/runner_recipe.h"

namespace gpulab {

struct LibraryFile {
  std::string description;  // "the C library"
  std::filesystem::path path;
  // An archive linked whole (every member, so none can be left out for a submission's
  // definitions to stand in) and before the submission's objects (so that where both hold a
  // weak copy of a name, the archive's is kept).
  bool linked_first = false;
};

// The libraries of a runner built by `recipe`, in the order their descriptions are preferred in
// messages. A library that must be there and is not is named in `missing`.
std::vector<LibraryFile> runner_libraries(const RunnerRecipe& recipe, std::string& missing);

// A library's symbols as `nm -P` lists them (for a shared library, its dynamic symbols), read
// once per grader process and file version. On failure, nothing, with `error` saying why.
std::optional<LinkedLibrary> read_library(const LibraryFile& file, std::string& error);

}  // namespace gpulab
