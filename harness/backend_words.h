// gpulab's backends, and where each runs the student's kernels in the words every message uses:
// one place, so that a run on the CPU backend (sim) never says "on the GPU". The grader holds a
// backend as a Backend and spells it by backend_name() where users read or write it (--backend,
// lab.json's groups, the reports); a runner knows its own by how its harness was built
// (harness/CMakeLists.txt defines GPULAB_SIM_HARNESS for sim's).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpulab {

// Each backend: its name, then the words for where it runs kernels.
//   cuda: nvcc's runners on a GPU; sim: the CPU backend (sim/).
#define GPULAB_BACKENDS(X) \
  X(cuda, "on the GPU")    \
  X(sim, "on the CPU backend")

enum class Backend {
#define GPULAB_BACKEND_ENUM(name, where) name,
  GPULAB_BACKENDS(GPULAB_BACKEND_ENUM)
#undef GPULAB_BACKEND_ENUM
};

// "cuda", "sim": as --backend, lab.json and the reports spell it.
inline const char* backend_name(Backend b) {
  switch (b) {
#define GPULAB_BACKEND_NAME(name, where) \
  case Backend::name:                    \
    return #name;
    GPULAB_BACKENDS(GPULAB_BACKEND_NAME)
#undef GPULAB_BACKEND_NAME
  }
  return "?";
}

// "on the GPU" for the cuda backend, "on the CPU backend" for sim.
inline const char* where_kernels_run(Backend b) {
  switch (b) {
#define GPULAB_BACKEND_WHERE(name, where) \
  case Backend::name:                     \
    return where;
    GPULAB_BACKENDS(GPULAB_BACKEND_WHERE)
#undef GPULAB_BACKEND_WHERE
  }
  return "?";
}

// The backend a name spells; none for any other word.
inline std::optional<Backend> backend_named(const std::string& name) {
#define GPULAB_BACKEND_MATCH(n, where) \
  if (name == #n) return Backend::n;
  GPULAB_BACKENDS(GPULAB_BACKEND_MATCH)
#undef GPULAB_BACKEND_MATCH
  return std::nullopt;
}

// Every backend's name, in the list's order.
inline const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names = {
#define GPULAB_BACKEND_LISTED(name, where) #name,
      GPULAB_BACKENDS(GPULAB_BACKEND_LISTED)
#undef GPULAB_BACKEND_LISTED
  };
  return names;
}

// The backend this harness was built for.
#ifdef GPULAB_SIM_HARNESS
inline constexpr Backend kHarnessBackend = Backend::sim;
#else
inline constexpr Backend kHarnessBackend = Backend::cuda;
#endif

}  // namespace gpulab
