#include "os/environment_help.h"

#include <sstream>
#include <vector>

#include "files/paths.h"
#include "os/exit_status.h"

namespace gpulab {

namespace {

struct Variable {
  const char* name;
  std::string what;
};

std::vector<Variable> variables() {
  const Paths p = Paths::current();
  return {
      {"GPULAB_SOURCE_DIR",
       "gpulab's own tree: labs, reference, datasets (now " + p.source.string() + ")"},
      {"GPULAB_BUILD_DIR", "the build the runners link against (now " + p.build.string() + ")"},
      {"GPULAB_CACHE_DIR", "generated datasets and the runners built, kept between runs (now " +
                               p.cache.string() + "; see gpulab cache)"},
      {"GPULAB_NVCC", "the CUDA compiler (now " + p.nvcc.string() + ")"},
      {"GPULAB_HIDDEN_SEED",
       "the hidden datasets' secret where neither --hidden-seed nor --hidden-seed-file is "
       "given (instructors)"},
      {"GPULAB_BWRAP",
       "the bubblewrap program that sandboxes student code (default: bwrap "
       "on the PATH)"},
      {"GPULAB_COMPUTE_SANITIZER",
       "NVIDIA's compute-sanitizer, for run --sanitize (default: "
       "on the PATH, else /usr/local/cuda/bin)"},
      {"GPULAB_SIM_INCLUDE", "the CPU backend's headers (now " + p.sim_include.string() + ")"},
      {"GPULAB_SIM_LIB", "the CPU backend's library (now " + p.sim_lib.string() + ")"},
      {"GPULAB_SIM_REWRITER",
       "the CPU backend's source rewriter (now " + p.sim_rewriter.string() + ")"},
      {"NO_COLOR", "set to any non-empty value: no colour, even on a terminal"},
  };
}

}  // namespace

std::vector<std::string> environment_variable_names() {
  std::vector<std::string> names;
  for (const auto& v : variables()) names.push_back(v.name);
  return names;
}

std::string environment_help() {
  std::ostringstream out;
  out << "Environment:\n";
  for (const auto& v : variables()) out << "  " << v.name << "\n      " << v.what << "\n";
  out << "Exit status:\n";
#define GPULAB_EXIT_LINE(name, code, meaning) out << "  " << code << "   " << meaning << "\n";
  GPULAB_EXIT_STATUSES(GPULAB_EXIT_LINE)
#undef GPULAB_EXIT_LINE
  return out.str();
}

}  // namespace gpulab
