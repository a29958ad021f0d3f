// The runtime API: errors and their sticky semantics, bad launch configurations, device
// queries, events and streams, copies and sets.
#include <cstring>

#include "sim_test.h"

namespace {

void flag_k(int* flag) {
  WR(*flag) = 1;
}
void oob_k(int* p) {
  WR(p[threadIdx.x + 1000]) = 1;
}

}  // namespace

TEST_SUITE("runtime_api") {
  TEST_CASE("error names and strings") {
    CHECK(std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0);
    CHECK(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    CHECK(std::strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration),
                      "invalid configuration argument") == 0);
    CHECK(cudaErrorIllegalAddress == 700);
    CHECK(cudaErrorLaunchFailure == 719);
    CHECK(cudaErrorInvalidConfiguration == 9);
  }

  TEST_CASE("bad launch configurations are refused, not sticky, and run nothing") {
    fresh();
    int* flag = nullptr;
    REQUIRE(cudaMalloc(&flag, sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(flag, 0, sizeof(int)) == cudaSuccess);
    LAUNCH(flag_k, 1, 1025, 0, flag);
    CHECK(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError() == cudaSuccess);
    LAUNCH(flag_k, 1, dim3(1, 1, 65), 0, flag);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    LAUNCH(flag_k, 0, 32, 0, flag);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    LAUNCH(flag_k, dim3(1, 65536), 32, 0, flag);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration);
    LAUNCH(flag_k, 1, 32, 49 * 1024, flag);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(to_host(flag, 1)[0] == 0);
    CHECK(found(gpulab_sim::finding_kind::bad_launch).size() == 5);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);  // not sticky
    LAUNCH(flag_k, 1, dim3(32, 32), 0, flag);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(to_host(flag, 1)[0] == 1);
    cudaFree(flag);
  }

  TEST_CASE("a crashed kernel makes its error sticky until cudaDeviceReset") {
    fresh();
    int* p = nullptr;
    REQUIRE(cudaMalloc(&p, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(oob_k, 4, 32, 0, p);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
    CHECK(cudaGetLastError() == cudaErrorIllegalAddress);
    int* q = nullptr;
    CHECK(cudaMalloc(&q, 16) == cudaErrorIllegalAddress);
    int h = 0;
    CHECK(cudaMemcpy(&h, p, sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
    CHECK(cudaDeviceReset() == cudaSuccess);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(cudaMalloc(&q, 16) == cudaSuccess);
    cudaFree(q);
  }

  TEST_CASE("copies and sets are checked against their allocation") {
    fresh();
    char* d = nullptr;
    REQUIRE(cudaMalloc(&d, 100) == cudaSuccess);
    std::vector<char> h(200, 7);
    CHECK(cudaMemcpy(d, h.data(), 100, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(d, h.data(), 101, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(h.data(), d + 50, 60, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    CHECK(cudaMemset(d + 1, 0, 100) == cudaErrorInvalidValue);
    CHECK(cudaMemset(d, 3, 100) == cudaSuccess);
    char* e = nullptr;
    REQUIRE(cudaMalloc(&e, 100) == cudaSuccess);
    CHECK(cudaMemcpy(e, d, 100, cudaMemcpyDeviceToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(h.data(), e, 100, cudaMemcpyDefault) == cudaSuccess);
    CHECK(h[99] == 3);
    CHECK(cudaMemcpyAsync(h.data(), e, 10, cudaMemcpyDeviceToHost, 0) == cudaSuccess);
    CHECK(cudaMemsetAsync(e, 1, 10, 0) == cudaSuccess);
    CHECK(found(gpulab_sim::finding_kind::bad_copy).size() == 3);
    CHECK(cudaFree(h.data()) == cudaErrorInvalidDevicePointer);
    CHECK(cudaGetLastError() == cudaErrorInvalidDevicePointer);
    CHECK(cudaFree(d) == cudaSuccess);
    CHECK(cudaFree(e) == cudaSuccess);
    CHECK(cudaFree(nullptr) == cudaSuccess);
    void* huge = nullptr;
    CHECK(cudaMalloc(&huge, size_t{1} << 50) == cudaErrorMemoryAllocation);
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
    void* pinned = nullptr;
    CHECK(cudaMallocHost(&pinned, 64) == cudaSuccess);
    CHECK(cudaFreeHost(pinned) == cudaSuccess);
  }

  TEST_CASE("stream-ordered allocations are device memory, checked like any") {
    fresh();
    float* a = nullptr;
    REQUIRE(cudaMallocAsync(&a, 8 * sizeof(float), 0) == cudaSuccess);
    CHECK(cudaMemsetAsync(a, 0, 8 * sizeof(float), 0) == cudaSuccess);
    CHECK(cudaMemsetAsync(a, 0, 9 * sizeof(float), 0) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaFreeAsync(a, 0) == cudaSuccess);
    CHECK(cudaFreeAsync(a, 0) == cudaErrorInvalidDevicePointer);  // freed already
    CHECK(cudaGetLastError() == cudaErrorInvalidDevicePointer);
  }

  TEST_CASE("device queries") {
    fresh();
    int n = 0, dev = -1, v = 0;
    CHECK(cudaGetDeviceCount(&n) == cudaSuccess);
    CHECK(n == 1);
    CHECK(cudaSetDevice(0) == cudaSuccess);
    CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice);
    CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
    CHECK(cudaGetDevice(&dev) == cudaSuccess);
    CHECK(dev == 0);
    cudaDeviceProp p{};
    CHECK(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
    CHECK(std::strcmp(p.name, "gpulab sim (CPU)") == 0);
    CHECK(p.maxThreadsPerBlock == 1024);
    CHECK(p.warpSize == 32);
    CHECK(p.sharedMemPerBlock == 48 * 1024);
    CHECK(p.sharedMemPerBlockOptin == 227 * 1024);
    CHECK(p.multiProcessorCount >= 1);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0) == cudaSuccess);
    CHECK(v == p.l2CacheSize);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess);
    CHECK(v == 227 * 1024);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0) == cudaSuccess);
    CHECK(v == 32);
    CHECK(cudaRuntimeGetVersion(&v) == cudaSuccess);
    CHECK(v >= 12000);
    CHECK(cudaDriverGetVersion(&v) == cudaSuccess);
    CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b) == cudaSuccess);
    CHECK(free_b <= total_b);
  }

  TEST_CASE("events time host work in order; streams run in order") {
    fresh();
    cudaEvent_t a, b;
    REQUIRE(cudaEventCreate(&a) == cudaSuccess);
    REQUIRE(cudaEventCreate(&b) == cudaSuccess);
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, a, b) == cudaErrorInvalidResourceHandle);
    CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    cudaStream_t s;
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    int* flag = nullptr;
    REQUIRE(cudaMalloc(&flag, sizeof(int)) == cudaSuccess);
    CHECK(cudaEventRecord(a, s) == cudaSuccess);
    ::gpulab_sim::launch(
        __FILE__, __LINE__, 1, 1, 0, s, [&](auto&&... x) { flag_k(x...); }, flag);
    CHECK(cudaEventRecord(b, s) == cudaSuccess);
    CHECK(cudaEventSynchronize(b) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, a, b) == cudaSuccess);
    CHECK(ms >= 0);
    CHECK(to_host(flag, 1)[0] == 1);
    CHECK(cudaEventDestroy(a) == cudaSuccess);
    CHECK(cudaEventDestroy(b) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    cudaFree(flag);
  }
}
