// Unchecked mode (built with -DGPULAB_SIM_UNCHECKED): launches the rewriter proved barrier-free
// run each block as a plain loop over its threads, without fibers and without checks. The
// semantics must be those of a launch; only the detectors are gone. This file is linked into
// the same binary as the checked tests: the two modes' inline functions must not mix.
#include <stdexcept>

#include "sim_test.h"

#define LAUNCH_FREE(k, g, b, ...)    \
  ::gpulab_sim::launch_barrier_free( \
      __FILE__, __LINE__, g, b, 0, 0, [&](auto&&... gpulab_a) { k(gpulab_a...); }, ##__VA_ARGS__)

using gpulab_sim::finding_kind;

namespace {

void coords_k(uint4* out) {
  const unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  WR(out[b * blockDim.x * blockDim.y * blockDim.z + t]) =
      make_uint4(threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z,
                 blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z,
                 blockDim.x * blockDim.y * blockDim.z, gridDim.x * gridDim.y * gridDim.z);
}

void own_param_k(int* out, int v) {
  v += static_cast<int>(threadIdx.x);  // each thread's own copy
  WR(out[threadIdx.x]) = v;
}

void count_k(unsigned* counter, float* sum) {
  atomicAdd(counter, 1u);
  atomicAdd(sum, 0.5f);
}

void read_k(const int* in, int* out) {
  WR(out[threadIdx.x]) = RD(in[threadIdx.x]) + 1;
}

void trap_k(int* out, int planted) {
  if (planted && threadIdx.x == 3) __trap();
  WR(out[threadIdx.x]) = 1;
}

void throw_k(int* out) {
  if (threadIdx.x == 5) throw std::runtime_error("boom");
  WR(out[threadIdx.x]) = 1;
}

}  // namespace

TEST_SUITE("unchecked") {
  TEST_CASE("every thread runs once with its coordinates, in 3-D blocks and grids") {
    fresh();
    for (const auto& [grid, block] :
         {std::pair{dim3(3, 2, 2), dim3(4, 3, 2)}, std::pair{dim3(5, 1, 1), dim3(256, 1, 1)},
          std::pair{dim3(1, 3, 1), dim3(2, 3, 4)}}) {
      const unsigned nb = grid.x * grid.y * grid.z, nt = block.x * block.y * block.z;
      uint4* d = nullptr;
      REQUIRE(cudaMalloc(&d, nb * nt * sizeof(uint4)) == cudaSuccess);
      LAUNCH_FREE(coords_k, grid, block, d);
      const auto h = to_host(d, nb * nt);
      for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
          for (unsigned bx = 0; bx < grid.x; ++bx)
            for (unsigned tz = 0; tz < block.z; ++tz)
              for (unsigned ty = 0; ty < block.y; ++ty)
                for (unsigned tx = 0; tx < block.x; ++tx) {
                  const unsigned b = (bz * grid.y + by) * grid.x + bx;
                  const unsigned t = (tz * block.y + ty) * block.x + tx;
                  const uint4 v = h[b * nt + t];
                  REQUIRE(v.x == tx + 100 * ty + 10000 * tz);
                  REQUIRE(v.y == bx + 100 * by + 10000 * bz);
                  REQUIRE(v.z == nt);
                  REQUIRE(v.w == nb);
                }
      cudaFree(d);
    }
    CHECK(gpulab_sim::findings().empty());
  }

  TEST_CASE("each thread gets its own copy of the by-value parameters") {
    fresh();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 256 * sizeof(int)) == cudaSuccess);
    LAUNCH_FREE(own_param_k, 1, 256, d, 7);
    const auto h = to_host(d, 256);
    for (int t = 0; t < 256; ++t) REQUIRE(h[t] == 7 + t);
    cudaFree(d);
  }

  TEST_CASE("atomics across blocks on several OS threads") {
    fresh();
    unsigned* counter = to_device(std::vector<unsigned>{0});
    float* sum = to_device(std::vector<float>{0});
    LAUNCH_FREE(count_k, 64, 128, counter, sum);
    CHECK(to_host(counter, 1)[0] == 64 * 128);
    CHECK(to_host(sum, 1)[0] == 64 * 128 * 0.5f);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(counter);
    cudaFree(sum);
  }

  TEST_CASE("nothing is checked: a read of memory nothing wrote is not reported") {
    // The checked twin of this launch reports an uninitialised read (detectors.cpp).
    fresh();
    int* in = nullptr;
    int* out = nullptr;
    REQUIRE(cudaMalloc(&in, 32 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH_FREE(read_k, 1, 32, in, out);
    CHECK(gpulab_sim::findings().empty());
    cudaFree(in);
    cudaFree(out);
  }

  TEST_CASE("__trap and C++ exceptions still stop the kernel, with the thread that threw") {
    fresh();
    int* out = nullptr;
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(out, 0, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH_FREE(trap_k, 1, 32, out, 1);
    const auto traps = found(finding_kind::kernel_exception);
    REQUIRE(traps.size() == 1);
    CHECK(traps[0].thread.x == 3);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    fresh();
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(out, 0, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH_FREE(throw_k, 1, 32, out);
    const auto throws = found(finding_kind::kernel_exception);
    REQUIRE(throws.size() == 1);
    CHECK(throws[0].message.find("boom") != std::string::npos);
    CHECK(throws[0].thread.x == 5);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    fresh();
  }
}
