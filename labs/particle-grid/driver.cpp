// particle-grid's lab driver: loads a dataset's particles (positions.npy, n x 4 float32) and its
// grid (the parameters nx, ny, nz, cell and outside), and calls the student's functions through
// the shared run/check/time mechanism. For the neighbour count it first builds a correct grid on
// the host (trusted code), so that part 3 is graded whatever parts 1 and 2 do. In a baseline
// run (gpulab bench: runner_flags.h's kTimeBaselineFlag) run_gpu_part calls no student code,
// and the builds time CUB's radix sort of the same cell ids instead (driver_baseline.cu).
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_baseline.h"
#include "input_sets.h"
#include "particle_grid.h"
#include "run_part.h"

namespace {

using gpulab::DeviceBuffer;
using gpulab::RunContext;

struct Particles {
  std::vector<float> pos;  // x, y, z, w per particle
  int n = 0;
  Grid grid{};
  int ncells = 0;
};

Particles load(const RunContext& ctx) {
  const gpulab::Dataset& d = ctx.dataset;
  const gpulab::NpyArray a = d.input("positions", gpulab::DType::f32);
  if (a.shape.size() != 2 || a.shape[1] != 4 || a.shape[0] < 1 || a.shape[0] > INT_MAX)
    throw std::runtime_error((d.dir / "positions.npy").string() + ": shape " + a.shape_string() +
                             " is not (n, 4) with 1 <= n < 2^31");
  Particles p;
  p.n = static_cast<int>(a.shape[0]);
  p.pos.assign(a.as<float>(), a.as<float>() + a.count());
  const long long nx = d.int_param("nx"), ny = d.int_param("ny"), nz = d.int_param("nz");
  if (nx < 1 || ny < 1 || nz < 1 || nx * ny * nz >= INT_MAX)
    throw std::runtime_error((d.dir / "meta.json").string() +
                             ": the grid needs nx, ny, nz >= 1 and fewer than 2^31 - 1 cells");
  const double cell = d.num_param("cell");
  const std::string outside = d.params().value("outside", std::string());
  if (!(cell > 0) || (outside != "clamp" && outside != "reject"))
    throw std::runtime_error((d.dir / "meta.json").string() +
                             ": needs cell > 0 and outside \"clamp\" or \"reject\"");
  p.grid = {static_cast<int>(nx), static_cast<int>(ny), static_cast<int>(nz),
            static_cast<float>(cell), outside == "reject" ? 1 : 0};
  p.ncells = static_cast<int>(nx * ny * nz);
  return p;
}

// The cell id of every particle by the rule of particle_grid.h, in float arithmetic as a kernel
// does it (exact for the datasets' coordinates: see the header).
std::vector<int> cell_ids(const Particles& p) {
  const Grid& g = p.grid;
  std::vector<int> ids(static_cast<size_t>(p.n));
  for (size_t i = 0; i < ids.size(); ++i) {
    int c[3];
    const int dims[3] = {g.nx, g.ny, g.nz};
    bool inside = true;
    for (int a = 0; a < 3; ++a) {
      c[a] = static_cast<int>(std::floor(p.pos[4 * i + a] / g.cell));
      inside = inside && c[a] >= 0 && c[a] < dims[a];
      c[a] = std::min(std::max(c[a], 0), dims[a] - 1);
    }
    ids[i] = !inside && g.reject_outside ? p.ncells : (c[2] * g.ny + c[1]) * g.nx + c[0];
  }
  return ids;
}

// A correct grid: a counting sort of the particles by cell id (ncells + 1 slots).
struct HostGrid {
  std::vector<int> start, count, index;
};

HostGrid host_grid(const std::vector<int>& ids, int ncells) {
  HostGrid h;
  h.count.assign(static_cast<size_t>(ncells) + 1, 0);
  for (int id : ids) ++h.count[static_cast<size_t>(id)];
  h.start.assign(h.count.size(), 0);
  for (size_t c = 1; c < h.count.size(); ++c) h.start[c] = h.start[c - 1] + h.count[c - 1];
  std::vector<int> cursor = h.start;
  h.index.resize(ids.size());
  for (size_t i = 0; i < ids.size(); ++i)
    h.index[static_cast<size_t>(cursor[static_cast<size_t>(ids[i])]++)] = static_cast<int>(i);
  return h;
}

// One copy of `host` per input set, at different addresses: the trusted baseline's inputs and
// outputs.
template <class T>
std::vector<DeviceBuffer<T>> copies(const std::vector<T>& host, int sets) {
  std::vector<DeviceBuffer<T>> out;
  for (int s = 0; s < sets; ++s) {
    out.emplace_back(host.size());
    out.back().upload(host.data());
  }
  return out;
}

using BuildFn = void (*)(const float*, int, Grid, int*, int*, int*);

void build_part(RunContext& ctx, BuildFn build, const char* what) {
  const Particles p = load(ctx);
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> pos(ctx, p.pos.data(), p.pos.size());
  const size_t slots = static_cast<size_t>(p.ncells) + 1;
  gpulab::GpuIntOutputs start({"cell_start", {slots}}, sets);
  gpulab::GpuIntOutputs count({"cell_count", {slots}}, sets);
  gpulab::GpuIntOutputs index({"particle_index", {static_cast<size_t>(p.n)}}, sets);
  gpulab::run_gpu_part<int32_t>(
      ctx, {&start, &count, &index},
      [&](int s) { build(pos.get(s), p.n, p.grid, start.get(s), count.get(s), index.get(s)); },
      what);
  ctx.result["work"] = static_cast<double>(p.n);
  if (!ctx.time_baseline) return;
  // CUB's sort of the same keys (cell ids computed here, untimed), the indices as values.
  const std::vector<int> ids = cell_ids(p);
  std::vector<int> iota(ids.size());
  for (size_t i = 0; i < iota.size(); ++i) iota[i] = static_cast<int>(i);
  const auto keys = copies(ids, sets), values = copies(iota, sets);
  auto keys_out = copies(ids, sets), values_out = copies(iota, sets);
  int key_bits = 1;  // ids go up to ncells, the outside slot
  while (key_bits < 31 && (p.ncells >> key_bits) != 0) ++key_bits;
  const gpulab::TimingResult cub = gpulab::time_gpu_baseline(ctx, sets, [&](int s) {
    baseline_cub_sort_pairs(keys[s].get(), keys_out[s].get(), values[s].get(), values_out[s].get(),
                            p.n, key_bits);
  });
  ctx.result["baseline"] = {
      {"name", "CUB DeviceRadixSort::SortPairs of the same cell ids over the " +
                   std::to_string(key_bits) + " key bits they use: the sort alone"},
      {"timing", cub.to_json()}};
}

void atomic(RunContext& ctx) {
  build_part(ctx, build_grid_atomic, "build_grid_atomic");
}

void sort(RunContext& ctx) {
  build_part(ctx, build_grid_sort, "build_grid_sort");
}

void neighbours(RunContext& ctx) {
  const Particles p = load(ctx);
  const HostGrid h = host_grid(cell_ids(p), p.ncells);
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> pos(ctx, p.pos.data(), p.pos.size());
  gpulab::DeviceInputs<int> start(ctx, h.start.data(), h.start.size());
  gpulab::DeviceInputs<int> count(ctx, h.count.data(), h.count.size());
  gpulab::DeviceInputs<int> index(ctx, h.index.data(), h.index.size());
  gpulab::GpuIntOutputs out({"neighbours", {static_cast<size_t>(p.n)}}, sets);
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) {
        count_neighbours(pos.get(s), p.n, p.grid, start.get(s), count.get(s), index.get(s),
                         out.get(s));
      },
      "count_neighbours");
  ctx.result["work"] = static_cast<double>(p.n);
}

}  // namespace

GPULAB_PART("atomic", true, atomic);
GPULAB_PART("sort", true, sort);
GPULAB_PART("neighbours", true, neighbours);
