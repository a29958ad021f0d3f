#include "device.h"

#include <cuda_runtime.h>

namespace gpulab {

static std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

nlohmann::json DeviceInfo::to_json() const {
  nlohmann::json j;
  j["usable"] = usable;
  if (!usable) {
    j["problem"] = problem;
    return j;
  }
  j["name"] = name;
  j["compute_capability"] = std::to_string(cc_major) + "." + std::to_string(cc_minor);
  j["driver"] = version_string(driver_version);
  j["runtime"] = version_string(runtime_version);
  j["sm_count"] = sm_count;
  j["l2_bytes"] = l2_bytes;
  j["memory_bytes"] = global_mem_bytes;
  return j;
}

DeviceInfo device_preflight() {
  DeviceInfo d;
  cudaRuntimeGetVersion(&d.runtime_version);
  cudaDriverGetVersion(&d.driver_version);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorInsufficientDriver || (err == cudaSuccess && d.driver_version == 0)) {
    d.problem = "no NVIDIA driver is loaded (or it is older than the CUDA " +
                version_string(d.runtime_version) +
                " runtime needs); GPU parts cannot run here. Use a machine with an NVIDIA GPU.";
    return d;
  }
  if (err != cudaSuccess || count == 0) {
    d.problem = std::string("no CUDA GPU found (") +
                (err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0") +
                "); GPU parts cannot run here.";
    cudaGetLastError();
    return d;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    d.problem =
        "the CUDA GPU could not be queried: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return d;
  }
  d.usable = true;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<size_t>(p.l2CacheSize);
  d.persisting_l2_max_bytes = static_cast<size_t>(p.persistingL2CacheMaxSize);
  d.global_mem_bytes = p.totalGlobalMem;
  return d;
}

}  // namespace gpulab
