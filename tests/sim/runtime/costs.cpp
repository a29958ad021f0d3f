// The cost model (gpulab_sim/profile.h) against counts worked out by hand: coalesced and strided
// loads, padded and unpadded shared tiles, plain and warp-aggregated atomics, divergent lanes;
// and counts that do not depend on how the blocks were scheduled.
#include <gpulab_sim/profile.h>

#include "sim_test.h"

static char gpulab_sim_tu;

namespace {

// out[i] = in[i * stride]: a warp's 32 loads span 32 * stride floats.
void strided_k(float* out, const float* in, int stride) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  WR(out[i]) = RD(in[i * stride]);
}
// A 32x32 tile written by rows and read by columns: (32 + pad) words a row.
template <int Pad>
void transpose_k(float* out, const float* in) {
  SHARED(float[32][32 + Pad], tile, Pad);
  const unsigned x = threadIdx.x, y = threadIdx.y;
  WR(tile[y][x]) = RD(in[y * 32 + x]);
  __syncthreads();
  WR(out[y * 32 + x]) = RD(tile[x][y]);
}
// Every lane adds to one counter; or each warp's leader adds its warp's count once.
void plain_count_k(unsigned* count) {
  atomicAdd(count, 1u);
}
void aggregated_count_k(unsigned* count) {
  const unsigned lanes = __ballot_sync(0xffffffffu, 1);
  if (threadIdx.x % 32 == 0) atomicAdd(count, static_cast<unsigned>(__popc(lanes)));
}
// Lane l adds to bins[l % 4]: 8 lanes on each of 4 addresses.
void four_bins_k(unsigned* bins) {
  atomicAdd(&bins[threadIdx.x % 4], 1u);
}
// The same on a shared array: 8 lanes on one word take 8 wavefronts.
void four_shared_bins_k(unsigned* bins) {
  SHARED(unsigned[4], local, 2);
  if (threadIdx.x < 4) WR(local[threadIdx.x]) = 0;
  __syncthreads();
  atomicAdd(&local[threadIdx.x % 4], 1u);
  __syncthreads();
  if (threadIdx.x < 4) WR(bins[threadIdx.x]) = RD(local[threadIdx.x]);
}
// Only the first 8 lanes of each warp store.
void divergent_k(int* out) {
  if (threadIdx.x % 32 < 8) WR(out[threadIdx.x]) = 1;
}
// Only the first warp touches memory (the others compute and leave); or no thread does.
void first_warp_k(int* out) {
  if (threadIdx.x < 32) WR(out[threadIdx.x]) = 1;
}
void no_access_k(int n) {
  volatile int local = n;
  (void)local;
}
// A grid-stride sum, many blocks: its counts must not depend on the blocks' order.
void grid_sum_k(unsigned* sum, const unsigned* in, int n) {
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n;
       i += static_cast<int>(gridDim.x * blockDim.x))
    atomicAdd(sum, RD(in[i]));
}

// The one kernel a launch site ran, checked to be the only one.
gpulab_sim::kernel_cost only(const std::vector<gpulab_sim::kernel_cost>& costs) {
  REQUIRE(costs.size() == 1);
  return costs[0];
}

}  // namespace

TEST_SUITE("costs") {
  TEST_CASE("global loads: coalesced, stride 2, stride 32 (a sector per lane)") {
    fresh();
    float* in = to_device(std::vector<float>(64 * 32, 1.0f));
    float* out = to_device(std::vector<float>(64, 0.0f));
    for (const auto& [stride, sectors] : {std::pair{1, 4}, {2, 8}, {32, 32}}) {
      CAPTURE(stride);
      gpulab_sim::profile_start();
      LAUNCH(strided_k, 1, 64, 0, out, in, stride);
      const auto c = only(gpulab_sim::profile_take());
      CHECK(c.launches == 1);
      CHECK(c.blocks == 1);
      CHECK(c.threads == 64);
      CHECK(c.load_requests == 2);
      CHECK(c.load_sectors == 2u * sectors);
      CHECK(c.load_bytes == 64 * 4);
      CHECK(c.store_requests == 2);
      CHECK(c.store_sectors == 2 * 4);  // out[i] stays coalesced
      CHECK(c.lane_slots == 4 * 32);
      CHECK(c.lanes_active == 4 * 32);
    }
    CHECK(gpulab_sim::findings().empty());
  }

  TEST_CASE("shared tiles: a column of an unpadded tile is a 32-way bank conflict") {
    fresh();
    float* in = to_device(std::vector<float>(32 * 32, 1.0f));
    float* out = to_device(std::vector<float>(32 * 32, 0.0f));
    gpulab_sim::profile_start();
    LAUNCH(transpose_k<0>, 1, dim3(32, 32), 0, out, in);
    const auto plain = only(gpulab_sim::profile_take());
    gpulab_sim::profile_start();
    LAUNCH(transpose_k<1>, 1, dim3(32, 32), 0, out, in);
    const auto padded = only(gpulab_sim::profile_take());
    // 32 warps, each a row write (one wavefront) and a column read.
    CHECK(plain.shared_requests == 64);
    CHECK(plain.shared_wavefronts == 32 * 1 + 32 * 32);
    CHECK(padded.shared_requests == 64);
    CHECK(padded.shared_wavefronts == 64);
    CHECK(plain.barriers == 1);
    CHECK(plain.load_sectors == 32 * 4);
    CHECK(gpulab_sim::findings().empty());
  }

  TEST_CASE("atomics: every lane on one address, one per warp, 8 lanes per address") {
    fresh();
    unsigned* count = to_device(std::vector<unsigned>(4, 0));
    gpulab_sim::profile_start();
    LAUNCH(plain_count_k, 1, 64, 0, count);
    const auto plain = only(gpulab_sim::profile_take());
    CHECK(plain.atomic_requests == 2);
    CHECK(plain.atomic_ops == 64);
    CHECK(plain.atomic_serial == 64);
    gpulab_sim::profile_start();
    LAUNCH(aggregated_count_k, 1, 64, 0, count);
    const auto aggregated = only(gpulab_sim::profile_take());
    CHECK(aggregated.atomic_requests == 2);
    CHECK(aggregated.atomic_ops == 2);
    CHECK(aggregated.atomic_serial == 2);
    CHECK(aggregated.lane_slots == 2 * 32);
    CHECK(aggregated.lanes_active == 2);  // the leaders alone
    CHECK(to_host(count, 1)[0] == 128);
    gpulab_sim::profile_start();
    LAUNCH(four_bins_k, 1, 64, 0, count);
    const auto bins = only(gpulab_sim::profile_take());
    CHECK(bins.atomic_ops == 64);
    CHECK(bins.atomic_serial == 2 * 8);
    gpulab_sim::profile_start();
    LAUNCH(four_shared_bins_k, 1, 64, 0, count);
    const auto shared = only(gpulab_sim::profile_take());
    CHECK(shared.atomic_requests == 0);  // on shared memory: shared requests
    // Warp 0: its zeroing store and read-out (lanes 0-3, one wavefront each) and its atomic
    // (8 lanes a word: 8); warp 1: its atomic alone.
    CHECK(shared.shared_requests == 4);
    CHECK(shared.shared_wavefronts == 1 + 1 + 8 + 8);
    CHECK(to_host(count, 4) == std::vector<unsigned>(4, 16));
    CHECK(gpulab_sim::findings().empty());
  }

  TEST_CASE("divergent lanes are counted as inactive slots") {
    fresh();
    int* out = to_device(std::vector<int>(96, 0));
    gpulab_sim::profile_start();
    LAUNCH(divergent_k, 1, 96, 0, out);
    const auto c = only(gpulab_sim::profile_take());
    CHECK(c.store_requests == 3);
    CHECK(c.store_bytes == 3 * 8 * 4);
    CHECK(c.store_sectors == 3);
    CHECK(c.lane_slots == 3 * 32);
    CHECK(c.lanes_active == 3 * 8);
  }

  TEST_CASE("warps and blocks that touch no memory cost nothing, and break nothing") {
    fresh();
    int* out = to_device(std::vector<int>(128, 0));
    gpulab_sim::profile_start();
    LAUNCH(no_access_k, 3, 96, 0, 5);
    LAUNCH(first_warp_k, 2, 128, 0, out);
    const auto costs = gpulab_sim::profile_take();
    REQUIRE(costs.size() == 2);
    CHECK(costs[0].blocks == 3);
    CHECK(costs[0].lane_slots == 0);
    CHECK(costs[1].store_requests == 2);  // one warp in each of the two blocks
    CHECK(costs[1].lane_slots == 2 * 32);
  }

  TEST_CASE("kernels are their launch sites, summed over launches, in order of first launch") {
    fresh();
    float* in = to_device(std::vector<float>(64, 1.0f));
    float* out = to_device(std::vector<float>(64, 0.0f));
    unsigned* count = to_device(std::vector<unsigned>(1, 0));
    gpulab_sim::profile_start();
    for (int k = 0; k < 3; ++k) LAUNCH(strided_k, 2, 32, 0, out, in, 1);
    LAUNCH(plain_count_k, 1, 32, 0, count);
    const auto costs = gpulab_sim::profile_take();
    REQUIRE(costs.size() == 2);
    CHECK(costs[0].launches == 3);
    CHECK(costs[0].blocks == 6);
    CHECK(costs[0].load_requests == 6);
    CHECK(costs[1].launches == 1);
    CHECK(costs[1].atomic_ops == 32);
    CHECK(costs[0].line != costs[1].line);
    // Counting stopped: a launch now is not counted.
    LAUNCH(plain_count_k, 1, 32, 0, count);
    gpulab_sim::profile_start();
    CHECK(gpulab_sim::profile_take().empty());
  }

  TEST_CASE("the counts do not depend on the order blocks run in") {
    fresh();
    const int n = 40000;
    std::vector<unsigned> ones(n, 1);
    const unsigned* in = to_device(ones);
    unsigned* sum = to_device(std::vector<unsigned>(1, 0));
    std::vector<gpulab_sim::kernel_cost> runs;
    for (const char* order : {"natural", "shuffle", "reverse"}) {
      setenv("GPULAB_SIM_BLOCK_ORDER", order, 1);
      gpulab_sim::detail::reload_settings();
      gpulab_sim::profile_start();
      LAUNCH(grid_sum_k, 37, 96, 0, sum, in, n);
      runs.push_back(only(gpulab_sim::profile_take()));
    }
    unsetenv("GPULAB_SIM_BLOCK_ORDER");
    gpulab_sim::detail::reload_settings();
    for (const auto& r : runs) {
      CHECK(r.atomic_ops == static_cast<unsigned>(n));
      CHECK(r.load_bytes == 4u * n);
#define GPULAB_SIM_COST(name, what) CHECK(r.name == runs[0].name);
#include <gpulab_sim/costs.def>
    }
    CHECK(to_host(sum, 1)[0] == 3u * n);
  }

  TEST_CASE("the estimate: the slowest of memory, shared memory and atomics, plus launches") {
    gpulab_sim::kernel_cost c;
    c.launches = 2;
    c.load_sectors = 1000;
    c.store_sectors = 500;
    const gpulab_sim::gpu_constants gpu{"test", 32e9, 1e9, 1e6, 1e-6};
    CHECK(gpulab_sim::estimate_seconds(c, gpu) == doctest::Approx(1500e-9 + 2e-6));
    c.atomic_serial = 10;  // 10 us of serialised atomics now dominate
    CHECK(gpulab_sim::estimate_seconds(c, gpu) == doctest::Approx(10e-6 + 2e-6));
    c.shared_wavefronts = 20000;
    CHECK(gpulab_sim::estimate_seconds(c, gpu) == doctest::Approx(20e-6 + 2e-6));
  }
}
