// particle-grid's lab driver: loads a dataset's particles (positions.npy, n x 4 float32) and its
// grid (the parameters nx, ny, nz, cell and outside), and calls the student's functions through
// the shared run/check/time mechanism. For the parts that use a grid (3 to 6) it first builds a
// correct one on the host (trusted code), so that they are graded whatever parts 1 and 2 do; for
// the neighbour lists it also builds the lists on the host: their total is the size of part 4's
// nbr_index, and part 5 reads them. In a baseline run (gpulab bench: runner_flags.h's
// kTimeBaselineFlag) run_gpu_part calls no student code, and the builds time CUB's radix sort
// of the same cell ids instead (driver_baseline.cu).
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_baseline.h"
#include "input_sets.h"
#include "parallel.h"
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

// The cell coordinates of particle i by the rule of particle_grid.h, clamped, in float
// arithmetic as a kernel does it (exact for the datasets' coordinates: see the header); false
// when the particle is outside the box.
bool cell_of(const Particles& p, size_t i, int c[3]) {
  const Grid& g = p.grid;
  const int dims[3] = {g.nx, g.ny, g.nz};
  bool inside = true;
  for (int a = 0; a < 3; ++a) {
    c[a] = static_cast<int>(std::floor(p.pos[4 * i + a] / g.cell));
    inside = inside && c[a] >= 0 && c[a] < dims[a];
    c[a] = std::min(std::max(c[a], 0), dims[a] - 1);
  }
  return inside;
}

// The cell id of every particle (ncells for a rejected one).
std::vector<int> cell_ids(const Particles& p) {
  const Grid& g = p.grid;
  std::vector<int> ids(static_cast<size_t>(p.n));
  for (size_t i = 0; i < ids.size(); ++i) {
    int c[3];
    const bool inside = cell_of(p, i, c);
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

// The walks of the neighbour lists over a correct grid, in float arithmetic as a kernel does
// it: one particle per slot of the grid (cell order), its candidates read from a copy of the
// positions in that order, in which a row of three cells is one contiguous range, so that
// consecutive walks read the same memory.
class HostWalk {
 public:
  HostWalk(const Particles& p, const HostGrid& h) : p_(p), h_(h), sorted_(h.index.size() * 3) {
    for (size_t k = 0; k < h.index.size(); ++k)
      for (size_t a = 0; a < 3; ++a)
        sorted_[k * 3 + a] = p.pos[4 * static_cast<size_t>(h.index[k]) + a];
  }

  // near(j) for every slot j of the cells around slot k whose particle is closer than the
  // cell side (k itself included); false, with no walk, for a rejected particle.
  template <class Near>
  bool walk(size_t k, Near near) const {
    const Grid& g = p_.grid;
    int c[3];
    if (!cell_of(p_, static_cast<size_t>(h_.index[k]), c) && g.reject_outside) return false;
    const float r2 = g.cell * g.cell;
    const float* q = sorted_.data();
    const float x = q[k * 3], y = q[k * 3 + 1], z = q[k * 3 + 2];
    const int x0 = std::max(c[0] - 1, 0), x1 = std::min(c[0] + 1, g.nx - 1);
    for (int cz = std::max(c[2] - 1, 0); cz <= std::min(c[2] + 1, g.nz - 1); ++cz)
      for (int cy = std::max(c[1] - 1, 0); cy <= std::min(c[1] + 1, g.ny - 1); ++cy) {
        const size_t row = static_cast<size_t>((cz * g.ny + cy) * g.nx);
        const size_t last = row + static_cast<size_t>(x1);
        const size_t end = static_cast<size_t>(h_.start[last] + h_.count[last]);
        for (size_t j = static_cast<size_t>(h_.start[row + static_cast<size_t>(x0)]); j < end;
             ++j) {
          const float dx = q[j * 3] - x, dy = q[j * 3 + 1] - y, dz = q[j * 3 + 2] - z;
          if (dx * dx + dy * dy + dz * dz < r2) near(j);
        }
      }
    return true;
  }

  // body(k) for every slot k, spread over the machine's cores (harness/parallel.h): the lists
  // of 2^22 particles would take seconds on one, in every run of a part.
  template <class Body>
  void each_slot(Body body) const {
    gpulab::parallel_for_chunks(h_.index.size(), 4096, body);
  }

  // Each particle's neighbour count (0 for a rejected one), by particle.
  std::vector<int> counts() const {
    std::vector<int> count(h_.index.size(), 0);
    each_slot([&](size_t k) {
      int found = 0;
      if (walk(k, [&](size_t) { ++found; }))
        count[static_cast<size_t>(h_.index[k])] = found - 1;  // less the particle itself
    });
    return count;
  }

 private:
  const Particles& p_;
  const HostGrid& h_;
  std::vector<float> sorted_;  // x, y, z per slot
};

// The total of the neighbour counts: the size of the lists.
size_t list_capacity(const std::vector<int>& count) {
  size_t total = 0;
  for (int c : count) total += static_cast<size_t>(c);
  if (total > static_cast<size_t>(INT_MAX))
    throw std::runtime_error("the neighbour lists hold 2^31 neighbours or more");
  return total;
}

// The neighbour lists of particle_grid.h in CSR form: counted, scanned, filled, as part 4 asks.
struct HostLists {
  std::vector<int> start, count, index;
};

HostLists host_lists(const Particles& p, const HostGrid& h) {
  const HostWalk w(p, h);
  HostLists l;
  l.count = w.counts();
  l.index.resize(list_capacity(l.count));
  l.start.resize(l.count.size());
  for (size_t i = 1; i < l.start.size(); ++i) l.start[i] = l.start[i - 1] + l.count[i - 1];
  w.each_slot([&](size_t k) {
    size_t at = static_cast<size_t>(l.start[static_cast<size_t>(h.index[k])]);
    w.walk(k, [&](size_t j) {
      if (j != k) l.index[at++] = h.index[j];
    });
  });
  return l;
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
  gpulab::DeviceInputs<float> pos(ctx, "positions", p.pos.data(), p.pos.size());
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

// A correct grid as the inputs of a part, one copy per input set.
struct GridInputs {
  gpulab::DeviceInputs<int> start, count, index;
  GridInputs(RunContext& ctx, const HostGrid& h)
      : start(ctx, "cell_start", h.start.data(), h.start.size()),
        count(ctx, "cell_count", h.count.data(), h.count.size()),
        index(ctx, "particle_index", h.index.data(), h.index.size()) {}
};

void neighbours(RunContext& ctx) {
  const Particles p = load(ctx);
  const HostGrid h = host_grid(cell_ids(p), p.ncells);
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> pos(ctx, "positions", p.pos.data(), p.pos.size());
  GridInputs grid(ctx, h);
  gpulab::GpuIntOutputs out({"neighbours", {static_cast<size_t>(p.n)}}, sets);
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) {
        count_neighbours(pos.get(s), p.n, p.grid, grid.start.get(s), grid.count.get(s),
                         grid.index.get(s), out.get(s));
      },
      "count_neighbours");
  ctx.result["work"] = static_cast<double>(p.n);
}

void neighbour_list(RunContext& ctx) {
  const Particles p = load(ctx);
  const HostGrid h = host_grid(cell_ids(p), p.ncells);
  const size_t capacity = list_capacity(HostWalk(p, h).counts());
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> pos(ctx, "positions", p.pos.data(), p.pos.size());
  GridInputs grid(ctx, h);
  const size_t n = static_cast<size_t>(p.n);
  gpulab::GpuIntOutputs count({"nbr_count", {n}}, sets);
  gpulab::GpuIntOutputs start({"nbr_start", {n}}, sets);
  gpulab::GpuIntOutputs index({"nbr_index", {capacity}}, sets);
  gpulab::run_gpu_part<int32_t>(
      ctx, {&count, &start, &index},
      [&](int s) {
        build_neighbour_list(pos.get(s), p.n, p.grid, grid.start.get(s), grid.count.get(s),
                             grid.index.get(s), count.get(s), start.get(s), index.get(s),
                             static_cast<int>(capacity));
      },
      "build_neighbour_list");
  ctx.result["work"] = static_cast<double>(p.n);
}

void energy_list(RunContext& ctx) {
  const Particles p = load(ctx);
  const HostLists l = host_lists(p, host_grid(cell_ids(p), p.ncells));
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> pos(ctx, "positions", p.pos.data(), p.pos.size());
  gpulab::DeviceInputs<int> start(ctx, "nbr_start", l.start.data(), l.start.size());
  gpulab::DeviceInputs<int> count(ctx, "nbr_count", l.count.data(), l.count.size());
  gpulab::DeviceInputs<int> index(ctx, "nbr_index", l.index.data(), l.index.size());
  gpulab::GpuOutputs out({"energy", {static_cast<size_t>(p.n)}}, sets);
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) {
        energy_from_list(pos.get(s), p.n, p.grid.cell, start.get(s), count.get(s), index.get(s),
                         out.get(s));
      },
      "energy_from_list");
  ctx.result["work"] = static_cast<double>(p.n);
}

void energy_cells(RunContext& ctx) {
  const Particles p = load(ctx);
  const HostGrid h = host_grid(cell_ids(p), p.ncells);
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> pos(ctx, "positions", p.pos.data(), p.pos.size());
  GridInputs grid(ctx, h);
  gpulab::GpuOutputs out({"energy", {static_cast<size_t>(p.n)}}, sets);
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) {
        energy_from_cells(pos.get(s), p.n, p.grid, grid.start.get(s), grid.count.get(s),
                          grid.index.get(s), out.get(s));
      },
      "energy_from_cells");
  ctx.result["work"] = static_cast<double>(p.n);
}

}  // namespace

GPULAB_PART("atomic", true, atomic);
GPULAB_PART("sort", true, sort);
GPULAB_PART("neighbours", true, neighbours);
GPULAB_PART("neighbour-list", true, neighbour_list);
GPULAB_PART("energy-list", true, energy_list);
GPULAB_PART("energy-cells", true, energy_cells);
