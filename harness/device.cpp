#include "device.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace gpulab {

static std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// The NVIDIA kernel module's release, from the line "NVRM version: NVIDIA UNIX x86_64 Kernel
// Module  580.65.06  Sun Jul 27 ..." (the CUDA runtime has no call that returns it).
static std::string driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  const auto at = line.find("Kernel Module");
  if (at == std::string::npos) return "";
  std::istringstream rest(line.substr(at + std::char_traits<char>::length("Kernel Module")));
  std::string release;
  rest >> release;
  return release;
}

static std::string uuid_string(const cudaUUID_t& id) {
  const auto* b = reinterpret_cast<const unsigned char*>(id.bytes);
  char buf[64];
  std::snprintf(buf, sizeof buf,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return buf;
}

nlohmann::json DeviceInfo::to_json() const {
  nlohmann::json j;
  j["usable"] = usable;
  j["runtime"] = version_string(runtime_version);
  if (!driver_release.empty()) j["driver_release"] = driver_release;
  if (!usable) {
    j["problem"] = problem;
    return j;
  }
  j["name"] = name;
  j["uuid"] = uuid;
  j["count"] = count;
  j["compute_capability"] = std::to_string(cc_major) + "." + std::to_string(cc_minor);
  j["driver"] = version_string(driver_version);
  j["sm_count"] = sm_count;
  j["clock_khz"] = clock_khz;
  j["memory_clock_khz"] = memory_clock_khz;
  j["l2_bytes"] = l2_bytes;
  j["memory_bytes"] = global_mem_bytes;
  return j;
}

DeviceInfo device_preflight(int index) {
  DeviceInfo d;
  cudaRuntimeGetVersion(&d.runtime_version);
  cudaDriverGetVersion(&d.driver_version);
  d.driver_release = driver_release();
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorInsufficientDriver || (err == cudaSuccess && d.driver_version == 0)) {
    d.problem = "no NVIDIA driver is loaded (or it is older than the CUDA " +
                version_string(d.runtime_version) + " runtime needs)";
    return d;
  }
  if (err != cudaSuccess || count == 0) {
    d.problem = std::string("no CUDA GPU found (") +
                (err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0") + ")";
    cudaGetLastError();
    return d;
  }
  d.count = count;
  if (index < 0 || index >= count) {
    d.problem = "there is no CUDA GPU " + std::to_string(index) + " (" + std::to_string(count) +
                " visible)";
    return d;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, index) != cudaSuccess) {
    d.problem =
        "the CUDA GPU could not be queried: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return d;
  }
  d.usable = true;
  d.name = p.name;
  d.uuid = uuid_string(p.uuid);
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<size_t>(p.l2CacheSize);
  d.persisting_l2_max_bytes = static_cast<size_t>(p.persistingL2CacheMaxSize);
  d.global_mem_bytes = p.totalGlobalMem;
  // Not in cudaDeviceProp since CUDA 13: attributes. 0 where a runtime does not say.
  if (cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, index) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, index) !=
          cudaSuccess) {
    d.clock_khz = d.memory_clock_khz = 0;
    cudaGetLastError();
  }
  return d;
}

}  // namespace gpulab
