#include "paths.h"

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
  p.cuda_architectures = GPULAB_CUDA_ARCHITECTURES;
  return p;
}

}  // namespace gpulab
