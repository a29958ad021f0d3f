// Where gpulab's own files are: the source tree (labs/, reference/, datasets/) and the build
// tree (the harness and driver libraries runners link against, the prebuilt reference runners).
// Set at build time; GPULAB_SOURCE_DIR and GPULAB_BUILD_DIR in the environment override them.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab {

struct Paths {
  std::filesystem::path source, build, nvcc;
  std::string cuda_architectures;  // as configured in CMake, comma-separated: "80,90"

  static Paths current();
  std::filesystem::path lab_dir(const std::string& lab) const { return source / "labs" / lab; }
  std::filesystem::path reference_dir(const std::string& lab) const {
    return source / "reference" / lab;
  }
  std::filesystem::path harness_dir() const { return source / "harness"; }
  std::filesystem::path harness_lib() const { return build / "lib" / "libgpulab_harness.a"; }
  std::filesystem::path driver_lib(const std::string& lab) const {
    return build / "lib" / ("libgpulab_driver_" + lab + ".a");
  }
  // The reference runner CMake built; empty when it is missing.
  std::filesystem::path reference_runner(const std::string& lab) const {
    return build / "runners" / (lab + "-reference");
  }
  std::filesystem::path cache_dir() const { return build / "cache"; }
};

}  // namespace gpulab
