#include "files/paths.h"

#include <cstdlib>

namespace gpulab {

Paths Paths::current() {
  Paths p;
  const char* src = std::getenv("GPULAB_SOURCE_DIR");
  const char* bld = std::getenv("GPULAB_BUILD_DIR");
  const char* nvcc = std::getenv("GPULAB_NVCC");
  p.source = src && *src ? src : GPULAB_DEFAULT_SOURCE_DIR;
  p.build = bld && *bld ? bld : GPULAB_DEFAULT_BUILD_DIR;
  p.nvcc = nvcc && *nvcc ? nvcc : GPULAB_DEFAULT_NVCC;
  const auto env_or = [](const char* name, const std::filesystem::path& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::filesystem::path(v) : fallback;
  };
  // gpulab-sim-cc finds its rewriter and library in the build tree it was built in, wherever a
  // link to it is used from; its runtime headers in that build's sources.
  std::error_code ec;
  const std::filesystem::path sim_build =
      std::filesystem::weakly_canonical(p.sim_cc(), ec).parent_path().parent_path();
  p.sim_rewriter = env_or("GPULAB_SIM_REWRITER", sim_build / "bin" / "gpulab-sim-rewrite");
  p.sim_include = env_or("GPULAB_SIM_INCLUDE",
                         std::filesystem::path(GPULAB_DEFAULT_SOURCE_DIR) / "sim/runtime/include");
  p.sim_lib = env_or("GPULAB_SIM_LIB", sim_build / "lib" / "libgpulab_sim.a");
  p.cache = env_or("GPULAB_CACHE_DIR", p.build / "cache");
  return p;
}

}  // namespace gpulab
