// volatile accesses (the classic warp reduction through a volatile pointer), managed memory,
// and <device_launch_parameters.h>.
#include <device_launch_parameters.h>

#include "sim_test.h"

static char gpulab_sim_tu;

namespace {

// The volatile warp reduction, with the __syncwarp() between steps that Volta and later need.
void volatile_reduce_k(float* out, const float* in) {
  SHARED(float[64], sdata, 0);
  const unsigned tid = threadIdx.x;
  WR(sdata[tid]) = RD(in[tid]);
  WR(sdata[tid + 32]) = RD(in[tid + 32]);
  __syncthreads();
  volatile float* s = sdata;
  for (unsigned stride = 32; stride > 0; stride /= 2) {
    const float v = tid < stride ? RD(s[tid]) + RD(s[tid + stride]) : 0.0f;
    __syncwarp();
    if (tid < stride) WR(s[tid]) = v;
    __syncwarp();
  }
  if (tid == 0) WR(*out) = RD(s[0]);
}
// volatile global memory: read, read-modify-write, write.
void volatile_global_k(volatile int* p) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  RW(p[i]) += 1;
  WR(p[i + 64]) = RD(p[i]) * 2;
}
void scale_k(float* p, int n, int slack) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n + slack) RW(p[i]) *= 2.0f;
}

}  // namespace

TEST_SUITE("semantics") {
  TEST_CASE("volatile pointers: the classic volatile warp reduction, volatile global memory") {
    fresh();
    std::vector<float> h(64);
    for (int i = 0; i < 64; ++i) h[i] = static_cast<float>(i);
    float* in = to_device(h);
    float* out = nullptr;
    REQUIRE(cudaMalloc(&out, sizeof(float)) == cudaSuccess);
    LAUNCH(volatile_reduce_k, 1, 32, 0, out, in);
    CHECK(to_host(out, 1)[0] == 64.0f * 63.0f / 2.0f);
    int* g = to_device(std::vector<int>(128, 5));
    LAUNCH(volatile_global_k, 2, 32, 0, static_cast<volatile int*>(g));
    const auto r = to_host(g, 128);
    CHECK(r[3] == 6);
    CHECK(r[64 + 63] == 12);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(in);
    cudaFree(out);
    cudaFree(g);
  }

  TEST_CASE("cudaMallocManaged: host writes are seen, kernels are checked, cudaFree frees") {
    fresh();
    float* p = nullptr;
    REQUIRE(cudaMallocManaged(&p, 100 * sizeof(float)) == cudaSuccess);
    for (int i = 0; i < 100; ++i) p[i] = static_cast<float>(i);  // the host writes directly
    LAUNCH(scale_k, 1, 128, 0, p, 100, 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(p[7] == 14.0f);
    CHECK(gpulab_sim::findings().empty());  // no "uninitialised" read of host-written memory
    void* q = nullptr;
    CHECK(cudaMallocManaged(&q, 16, cudaMemAttachHost) == cudaSuccess);
    CHECK(cudaFree(q) == cudaSuccess);
    CHECK(cudaMallocManaged(&q, 16, 0) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    int managed = 0;
    CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0) == cudaSuccess);
    CHECK(managed == 1);
    LAUNCH(scale_k, 1, 128, 0, p, 100, 1);  // one past the end: checked like cudaMalloc'd memory
    const auto f = found(gpulab_sim::finding_kind::out_of_bounds);
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("cudaMallocManaged allocation") != std::string::npos);
    fresh();
  }
}
