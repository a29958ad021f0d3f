// The CUDA runtime API over host memory: copies and sets (bounds-checked against allocations
// and symbols, and keeping the initialisation shadow), errors with CUDA's sticky semantics, a
// plausible device, and host-clock events.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "internal.h"

namespace gpulab_sim::detail {
namespace {
std::atomic<int> g_last{cudaSuccess};
std::atomic<int> g_sticky{cudaSuccess};
}  // namespace

void set_last_error(cudaError_t e) {
  if (e != cudaSuccess) g_last = e;
}
cudaError_t sticky_error() {
  return static_cast<cudaError_t>(g_sticky.load());
}
void set_sticky_error(cudaError_t e) {
  int expected = cudaSuccess;
  g_sticky.compare_exchange_strong(expected, e);
  g_last = e;
}

namespace {

cudaError_t fail_api(cudaError_t e) {
  set_last_error(e);
  return e;
}

// What a GPU does with a copy or set it refuses, said in each such finding.
constexpr const char* kRefused =
    " A GPU refuses it with cudaErrorInvalidValue (\"invalid argument\") and copies nothing.";

// Checks that a copy's device side lies inside one allocation or symbol, as a GPU does; where it
// does not, the finding names the caller's line and the copy is refused.
bool check_device(const void* p, std::size_t n, const std::string& api, const char* side,
                  unsigned char** shadow, const char* file, int line) {
  if (n == 0) {
    *shadow = nullptr;
    return true;
  }
  if (device_range(p, n, shadow)) return true;
  report(finding_kind::bad_copy, nullptr, file, line, nullptr, "bad " + api,
         std::string("its ") + side + ", " + std::to_string(n) + " bytes at " +
             hex(reinterpret_cast<std::uintptr_t>(p)) + ", " + range_problem(p, n) + "." +
             kRefused +
             " Is the pointer or the byte count (count times sizeof) wrong, or the direction "
             "swapped?");
  return false;
}

struct Stamp {
  std::chrono::steady_clock::time_point t;
  bool recorded = false;
};

cudaDeviceProp make_props() {
  cudaDeviceProp p{};
  std::strcpy(p.name, "gpulab sim (CPU)");
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p.totalGlobalMem = pages > 0 && page > 0 ? static_cast<size_t>(pages) * page : (size_t{8} << 30);
  p.sharedMemPerBlock = kStaticSharedLimit;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 2147483647;
  p.maxGridSize[1] = 65535;
  p.maxGridSize[2] = 65535;
  p.clockRate = 1000000;
  p.totalConstMem = 65536;
  p.major = 9;
  p.minor = 0;
  p.textureAlignment = 512;
  p.deviceOverlap = 1;
  p.multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p.concurrentKernels = 1;
  p.asyncEngineCount = 1;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 1000000;
  p.memoryBusWidth = 64;
  p.l2CacheSize = 4 << 20;
  p.persistingL2CacheMaxSize = 0;
  p.maxThreadsPerMultiProcessor = 2048;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.sharedMemPerBlockOptin = kOptinSharedLimit;
  p.maxBlocksPerMultiProcessor = 32;
  p.accessPolicyMaxWindowSize = 0;
  p.reservedSharedMemPerBlock = 1024;
  return p;
}

}  // namespace

cudaError_t memcpy_symbol(const void* symbol, std::size_t symbol_size, void* other,
                          std::size_t count, std::size_t offset, cudaMemcpyKind kind,
                          bool to_symbol, const char* file, int line) {
  if (cudaError_t e = sticky_error()) return e;
  const std::string api = to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
  if (offset > symbol_size || count > symbol_size - offset) {
    report(finding_kind::bad_copy, nullptr, file, line, nullptr, "bad " + api,
           std::to_string(count) + " bytes at offset " + std::to_string(offset) +
               " do not fit in the " + std::to_string(symbol_size) + "-byte symbol." + kRefused);
    return fail_api(cudaErrorInvalidValue);
  }
  char* sym = static_cast<char*>(const_cast<void*>(symbol)) + offset;
  if (to_symbol && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return fail_api(cudaErrorInvalidMemcpyDirection);
  if (!to_symbol && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return fail_api(cudaErrorInvalidMemcpyDirection);
  // The other side, where it is device memory, must lie inside its allocation as cudaMemcpy's do.
  unsigned char* shadow = nullptr;
  if ((kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && device_pointer(other))) &&
      !check_device(other, count, api + " (device to device)", to_symbol ? "source" : "destination",
                    &shadow, file, line))
    return fail_api(cudaErrorInvalidValue);
  if (to_symbol) {
    std::memmove(sym, other, count);
  } else {
    std::memmove(other, sym, count);
    if (shadow) std::memset(shadow, shadow_init, count);
  }
  return cudaSuccess;
}

cudaError_t func_set_attribute(const void* func, cudaFuncAttribute attr, int value) {
  if (cudaError_t e = sticky_error()) return e;
  if (!func) return fail_api(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || static_cast<std::size_t>(value) > kOptinSharedLimit)
      return fail_api(cudaErrorInvalidValue);
    // The launch does not know which kernel it runs (the rewriter passes a lambda), so the
    // opt-in is one limit for all kernels: the largest any kernel asked for.
    set_max_dynamic_shared(static_cast<std::size_t>(value));
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;
  return fail_api(cudaErrorInvalidValue);
}

}  // namespace gpulab_sim::detail

using namespace gpulab_sim::detail;

#define GPULAB_STICKY \
  if (cudaError_t sticky = sticky_error()) return sticky

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                       const char* file, int line) {
  GPULAB_STICKY;
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return fail_api(cudaErrorInvalidValue);
  // cudaMemcpyDefault: each side's kind by where its pointer lies, as unified addressing does;
  // its range is then checked like an explicit kind's.
  if (kind == cudaMemcpyDefault) {
    const bool d = device_pointer(dst), s = device_pointer(src);
    kind = d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
             : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  }
  unsigned char* sh_dst = nullptr;
  unsigned char* sh_src = nullptr;
  const auto check = [&](const char* api, bool device_dst, bool device_src) {
    return (!device_dst || check_device(dst, count, api, "destination", &sh_dst, file, line)) &&
           (!device_src || check_device(src, count, api, "source", &sh_src, file, line));
  };
  bool ok = true;
  switch (kind) {
    case cudaMemcpyHostToHost:
      break;
    case cudaMemcpyHostToDevice:
      ok = check("cudaMemcpy (host to device)", true, false);
      break;
    case cudaMemcpyDeviceToHost:
      ok = check("cudaMemcpy (device to host)", false, true);
      break;
    case cudaMemcpyDeviceToDevice:
      ok = check("cudaMemcpy (device to device)", true, true);
      break;
    default:
      return fail_api(cudaErrorInvalidMemcpyDirection);
  }
  if (!ok) return fail_api(cudaErrorInvalidValue);
  std::memmove(dst, src, count);
  if (sh_dst) {
    if (sh_src)
      std::memmove(sh_dst, sh_src, count);
    else
      std::memset(sh_dst, shadow_init, count);
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t, const char* file, int line) {
  return cudaMemcpy(dst, src, count, kind, file, line);
}

cudaError_t cudaMemset(void* p, int value, size_t count, const char* file, int line) {
  GPULAB_STICKY;
  unsigned char* shadow = nullptr;
  if (!check_device(p, count, "cudaMemset", "destination", &shadow, file, line))
    return fail_api(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  std::memset(p, value, count);
  if (shadow) std::memset(shadow, shadow_init, count);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t count, cudaStream_t, const char* file,
                            int line) {
  return cudaMemset(p, value, count, file, line);
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  GPULAB_STICKY;
  const size_t total = make_props().totalGlobalMem, used = allocated_bytes();
  if (free_bytes) *free_bytes = used < total ? total - used : 0;
  if (total_bytes) *total_bytes = total;
  return cudaSuccess;
}

cudaError_t cudaGetLastError() {
  if (cudaError_t s = sticky_error()) return s;
  return static_cast<cudaError_t>(g_last.exchange(cudaSuccess));
}
cudaError_t cudaPeekAtLastError() {
  if (cudaError_t s = sticky_error()) return s;
  return static_cast<cudaError_t>(g_last.load());
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define GPULAB_SIM_CUDA_ERROR(name, number, string) \
  case name:                                        \
    return #name;
#include <gpulab_sim/cuda_errors.def>
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
#define GPULAB_SIM_CUDA_ERROR(name, number, string) \
  case name:                                        \
    return string;
#include <gpulab_sim/cuda_errors.def>
  }
  return "unrecognized error code";
}

cudaError_t cudaDeviceSynchronize() {
  GPULAB_STICKY;
  return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
  free_all_allocations();
  reset_executor_limits();
  g_sticky = cudaSuccess;
  g_last = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  GPULAB_STICKY;
  return device == 0 ? cudaSuccess : fail_api(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDevice(int* device) {
  GPULAB_STICKY;
  if (!device) return fail_api(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail_api(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  GPULAB_STICKY;
  if (!prop) return fail_api(cudaErrorInvalidValue);
  if (device != 0) return fail_api(cudaErrorInvalidDevice);
  *prop = make_props();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  GPULAB_STICKY;
  if (!value) return fail_api(cudaErrorInvalidValue);
  if (device != 0) return fail_api(cudaErrorInvalidDevice);
  const cudaDeviceProp p = make_props();
  int v;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      v = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      v = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxBlockDimY:
      v = p.maxThreadsDim[1];
      break;
    case cudaDevAttrMaxBlockDimZ:
      v = p.maxThreadsDim[2];
      break;
    case cudaDevAttrMaxGridDimX:
      v = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxGridDimY:
      v = p.maxGridSize[1];
      break;
    case cudaDevAttrMaxGridDimZ:
      v = p.maxGridSize[2];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      v = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrTotalConstantMemory:
      v = static_cast<int>(p.totalConstMem);
      break;
    case cudaDevAttrWarpSize:
      v = p.warpSize;
      break;
    case cudaDevAttrMaxRegistersPerBlock:
      v = p.regsPerBlock;
      break;
    case cudaDevAttrClockRate:
      v = p.clockRate;
      break;
    case cudaDevAttrMultiProcessorCount:
      v = p.multiProcessorCount;
      break;
    case cudaDevAttrConcurrentKernels:
      v = p.concurrentKernels;
      break;
    case cudaDevAttrMemoryClockRate:
      v = p.memoryClockRate;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      v = p.memoryBusWidth;
      break;
    case cudaDevAttrL2CacheSize:
      v = p.l2CacheSize;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      v = p.maxThreadsPerMultiProcessor;
      break;
    case cudaDevAttrAsyncEngineCount:
      v = p.asyncEngineCount;
      break;
    case cudaDevAttrUnifiedAddressing:
      v = p.unifiedAddressing;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      v = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      v = p.minor;
      break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      v = static_cast<int>(p.sharedMemPerMultiprocessor);
      break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      v = p.regsPerMultiprocessor;
      break;
    case cudaDevAttrManagedMemory:
      v = p.managedMemory;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      v = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      v = p.maxBlocksPerMultiProcessor;
      break;
    case cudaDevAttrMaxPersistingL2CacheSize:
      v = p.persistingL2CacheMaxSize;
      break;
    case cudaDevAttrMaxAccessPolicyWindowSize:
      v = p.accessPolicyMaxWindowSize;
      break;
    default:
      return fail_api(cudaErrorInvalidValue);
  }
  *value = v;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return fail_api(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return fail_api(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() {
  GPULAB_STICKY;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  GPULAB_STICKY;
  return cudaSuccess;
}

struct CUevent_st {
  Stamp stamp;
};
struct CUstream_st {
  unsigned flags;
};

cudaError_t cudaEventCreate(cudaEvent_t* e) {
  return cudaEventCreateWithFlags(e, 0);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
  GPULAB_STICKY;
  if (!e) return fail_api(cudaErrorInvalidValue);
  *e = new CUevent_st{};
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  GPULAB_STICKY;
  if (!e) return fail_api(cudaErrorInvalidResourceHandle);
  e->stamp.t = std::chrono::steady_clock::now();  // all earlier work has finished
  e->stamp.recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  GPULAB_STICKY;
  return e ? cudaSuccess : fail_api(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
  GPULAB_STICKY;
  return e ? cudaSuccess : fail_api(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  GPULAB_STICKY;
  if (!ms) return fail_api(cudaErrorInvalidValue);
  if (!start || !stop || !start->stamp.recorded || !stop->stamp.recorded)
    return fail_api(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(stop->stamp.t - start->stamp.t).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (!e) return fail_api(cudaErrorInvalidResourceHandle);
  delete e;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* s) {
  return cudaStreamCreateWithFlags(s, 0);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
  GPULAB_STICKY;
  if (!s) return fail_api(cudaErrorInvalidValue);
  *s = new CUstream_st{flags};
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!s) return fail_api(cudaErrorInvalidResourceHandle);
  delete s;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  GPULAB_STICKY;
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t) {
  GPULAB_STICKY;
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) {
  GPULAB_STICKY;
  return cudaSuccess;
}
