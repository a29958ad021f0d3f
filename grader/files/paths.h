// Where gpulab's own files are: the source tree (labs/, reference/, datasets/) and the build
// tree (the harness and driver libraries runners link against, the prebuilt reference runners,
// gpulab-sim-cc). Set at build time; GPULAB_SOURCE_DIR and GPULAB_BUILD_DIR in the environment
// override them. Libraries and runners come per backend: cuda, or sim (the CPU backend, whose
// files carry a _sim or -sim suffix).
#pragma once

#include <filesystem>
#include <string>

#include "backend_words.h"

namespace gpulab {

struct Paths {
  std::filesystem::path source, build, nvcc;
  // What gpulab-sim-cc runs and compiles against: the rewriter, the sim runtime's headers and
  // library, each from the build or the environment variable sim/cc/sim_cc.h names for it.
  std::filesystem::path sim_rewriter, sim_include, sim_lib;

  static Paths current();
  std::filesystem::path lab_dir(const std::string& lab) const { return source / "labs" / lab; }
  std::filesystem::path reference_dir(const std::string& lab) const {
    return source / "reference" / lab;
  }
  std::filesystem::path harness_dir() const { return source / "harness"; }
  // What compute-sanitizer starts the runner through (grader/os/confine_main.cpp).
  std::filesystem::path confine() const { return build / "bin" / "gpulab-confine"; }
  std::filesystem::path harness_lib(Backend backend = Backend::cuda) const {
    return build / "lib" / ("libgpulab_harness" + lib_suffix(backend) + ".a");
  }
  std::filesystem::path driver_lib(const std::string& lab, Backend backend = Backend::cuda) const {
    return build / "lib" / ("libgpulab_driver_" + lab + lib_suffix(backend) + ".a");
  }
  // The reference runner CMake built; where the build has none, the one the student kit ships
  // compiled (shipped_runner_dir(); the kit has no reference/). Either may be missing.
  std::filesystem::path reference_runner(const std::string& lab,
                                         Backend backend = Backend::cuda) const {
    const auto built = built_reference_runner(lab, backend);
    const auto shipped = shipped_runner_dir() / runner_name(lab, "reference", backend);
    return std::filesystem::exists(built) || !std::filesystem::exists(shipped) ? built : shipped;
  }
  // The reference runner CMake built, never one a kit shipped (it may be missing).
  std::filesystem::path built_reference_runner(const std::string& lab,
                                               Backend backend = Backend::cuda) const {
    return build / "runners" / runner_name(lab, "reference", backend);
  }
  // A runner's file name, built or shipped: <lab>-<kind>, with -sim for the CPU backend's.
  static std::string runner_name(const std::string& lab, const std::string& kind, Backend backend) {
    return lab + "-" + kind + (backend == Backend::sim ? "-sim" : "");
  }
  // The runners `gpulab dist` ships compiled (grader/build/kit_runners.h), in the kit's own tree.
  // An instructor's checkout has none.
  std::filesystem::path shipped_runner_dir() const { return source / "runners"; }
  // The runner that times the lab's baseline, shipped in the kit where its source is the
  // instructor's alone (lab.json's reference_driver_files): the kit's own build of the lab has
  // no baseline then. Empty where none is shipped.
  std::filesystem::path shipped_baseline_runner(const std::string& lab,
                                                Backend backend = Backend::cuda) const {
    const auto shipped = shipped_runner_dir() / runner_name(lab, "baseline", backend);
    return std::filesystem::exists(shipped) ? shipped : std::filesystem::path();
  }
  // The stub runner CMake built from the lab's own files, labs/<lab>/ (it may be missing).
  std::filesystem::path stub_runner(const std::string& lab, Backend backend = Backend::cuda) const {
    return build / "runners" / runner_name(lab, "stub", backend);
  }
  // The CPU backend's compiler driver; missing when gpulab was built without the sim.
  std::filesystem::path sim_cc() const { return build / "bin" / "gpulab-sim-cc"; }
  // Generated datasets and bench outputs: build/cache, or GPULAB_CACHE_DIR (a test that must not
  // share the build's cache, say).
  std::filesystem::path cache;
  std::filesystem::path cache_dir() const { return cache.empty() ? build / "cache" : cache; }

 private:
  static std::string lib_suffix(Backend backend) { return backend == Backend::sim ? "_sim" : ""; }
};

}  // namespace gpulab
