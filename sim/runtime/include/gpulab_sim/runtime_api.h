// The subset of the CUDA runtime API that gpulab's harness and students' drivers use, with
// CUDA's names, error numbers and sticky-error semantics. Memory is host memory registered as
// "device" allocations (with red zones and an initialisation shadow); everything is synchronous.
#pragma once

#include <cstddef>

#include "vector_types.h"

// The codes, their names and strings: cuda_errors.def.
enum cudaError_t {
#define GPULAB_SIM_CUDA_ERROR(name, number, string) name = number,
#include "cuda_errors.def"
};
typedef cudaError_t cudaError;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};

struct CUstream_st;
struct CUevent_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00

// A device's identity; the sim's is all zero bytes.
struct CUuuid_st {
  char bytes[16];
};
typedef CUuuid_st cudaUUID_t;

struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

// Memory. The call site (default arguments) names allocations in findings.
cudaError_t cudaMalloc(void** p, size_t size, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE());
template <class T>
cudaError_t cudaMalloc(T** p, size_t size, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
  return cudaMalloc(reinterpret_cast<void**>(p), size, file, line);
}
cudaError_t cudaFree(void* p);
// Stream-ordered allocation: streams are in order and synchronous here, so it is the plain one.
inline cudaError_t cudaMallocAsync(void** p, size_t size, cudaStream_t,
                                   const char* file = __builtin_FILE(),
                                   int line = __builtin_LINE()) {
  return cudaMalloc(p, size, file, line);
}
template <class T>
cudaError_t cudaMallocAsync(T** p, size_t size, cudaStream_t stream,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return cudaMallocAsync(reinterpret_cast<void**>(p), size, stream, file, line);
}
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) {
  return cudaFree(p);
}
cudaError_t cudaMallocHost(void** p, size_t size);
template <class T>
cudaError_t cudaMallocHost(T** p, size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(p), size);
}
cudaError_t cudaHostAlloc(void** p, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void* p);
// Managed memory: one allocation both host and kernels use (CUDA's flags are macros too).
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
cudaError_t cudaMallocManaged(void** p, size_t size, unsigned int flags = cudaMemAttachGlobal,
                              const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T>
cudaError_t cudaMallocManaged(T** p, size_t size, unsigned int flags = cudaMemAttachGlobal,
                              const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return cudaMallocManaged(reinterpret_cast<void**>(p), size, flags, file, line);
}
// Copies and sets: a device range past the end of its allocation is refused as a GPU refuses
// it (cudaErrorInvalidValue) and reported at the call site (the default arguments).
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                       const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = 0, const char* file = __builtin_FILE(),
                            int line = __builtin_LINE());
cudaError_t cudaMemset(void* p, int value, size_t count, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE());
cudaError_t cudaMemsetAsync(void* p, int value, size_t count, cudaStream_t stream = 0,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);

namespace gpulab_sim::detail {
cudaError_t memcpy_symbol(const void* symbol, size_t symbol_size, void* other, size_t count,
                          size_t offset, cudaMemcpyKind kind, bool to_symbol, const char* file,
                          int line);
cudaError_t func_set_attribute(const void* func, cudaFuncAttribute attr, int value);
}  // namespace gpulab_sim::detail

// Symbols are taken by reference, as CUDA's templates do; the bound is the variable's size. The
// other side is checked like cudaMemcpy's where it is device memory (device to device).
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return gpulab_sim::detail::memcpy_symbol(&symbol, sizeof(T), const_cast<void*>(src), count,
                                           offset, kind, true, file, line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                 const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return gpulab_sim::detail::memcpy_symbol(&symbol, sizeof(T), dst, count, offset, kind, false,
                                           file, line);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count,
                                    size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t = 0, const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind, file, line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t = 0, const char* file = __builtin_FILE(),
                                      int line = __builtin_LINE()) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind, file, line);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** p, const T& symbol) {
  *p = const_cast<T*>(&symbol);
  return cudaSuccess;
}

// Errors.
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);

// Device.
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaCtxResetPersistingL2Cache();
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
template <class T>
cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
  return gpulab_sim::detail::func_set_attribute(reinterpret_cast<const void*>(func), attr, value);
}
template <class T>
cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) {
  return cudaSuccess;
}

// Events and streams: all work is synchronous, so events record the host clock.
cudaError_t cudaEventCreate(cudaEvent_t* e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaStreamCreate(cudaStream_t* s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags = 0);
