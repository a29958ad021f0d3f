// An owning device allocation, and the copies drivers need around it.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "cuda_check.h"

namespace gpulab {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    // Allocate at least one element so that an empty array still has a valid address.
    GPULAB_CUDA(cudaMalloc(&ptr_, (count ? count : 1) * sizeof(T)));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) { o.ptr_ = nullptr; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }

  T* get() const { return ptr_; }
  size_t size() const { return count_; }

  void upload(const T* host) { upload(host, count_); }
  // The first `count` elements only.
  void upload(const T* host, size_t count) {
    GPULAB_CUDA(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    GPULAB_CUDA(cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// Device scratch that grows on demand and is kept between calls: a library's temporary storage
// (CUB's), allocated once, so that the timed calls of a trusted baseline time the library's
// work alone.
class DeviceScratch {
 public:
  DeviceScratch() = default;
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;
  ~DeviceScratch() {
    if (ptr_) cudaFree(ptr_);
  }
  // At least `bytes` bytes, valid until the next reserve.
  void* reserve(size_t bytes) {
    if (bytes <= bytes_) return ptr_;
    if (ptr_) GPULAB_CUDA(cudaFree(ptr_));
    ptr_ = nullptr;
    GPULAB_CUDA(cudaMalloc(&ptr_, bytes));
    bytes_ = bytes;
    return ptr_;
  }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace gpulab
