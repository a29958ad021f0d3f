// particle-grid datasets: particles in a box of grid cells, and the exact oracle.
//
// Input: positions.npy, float32 [n][4] (x, y, z, w = 0). Every coordinate is an integer number of
// sixteenths, k / 16, so that the cell rule and the squared distances are exact in float32
// (labs/particle-grid/particle_grid.h); the oracle works on the integers k themselves.
//
// Parameters:
//   n             particles, >= 1
//   nx, ny, nz    cells per axis, >= 1, at most 2^24 cells in all; nz == 1 is a 2-D grid, whose
//                 particles all have z = 0
//   cell          the side of a cell and the neighbour radius: a power of two in [1/4, 4]; each
//                 axis of the box (its cells times `cell`) is at most 128 long
//   outside       "clamp" or "reject": what the grid does with particles outside the box
//   layout        "uniform": anywhere in the box;
//                 "clustered": a fraction `cluster_fraction` (default 0.9) of the particles in
//                 `clusters` (default 4) random cells, the rest anywhere: atomic contention;
//                 "one-cell": every particle in one random cell;
//                 "sparse": only in cells whose coordinates are all in [1, n - 1) (for an axis of
//                 3 cells or more) and whose x is odd: runs of empty cells at the start, the end
//                 and in between;
//                 "boundaries": each coordinate, independently, on a cell boundary (the box's
//                 upper face included, which is outside) with probability 1/2, one sixteenth
//                 below a boundary with probability 1/4, else anywhere;
//                 "gradient": uniform in y and z, and along x a density that rises linearly from
//                 0 at x = 0 to twice the mean at the upper face (x = the box's side times the
//                 square root of a uniform draw): neighbour counts that rise with it, from none
//                 at x = 0
//   outside_fraction  (default 0) the probability that a particle is then moved outside the
//                 box along one axis (x, y, or z in 3-D): below 0 or at or above the upper face,
//                 by less than two cells
//   neighbours    (default true) false: the oracle leaves the neighbour count out (for a
//                 dataset of the build parts only, where counting by brute force would take too
//                 long, e.g. 16 M particles of which most are in four cells)
//   lists         (default false) true: the oracle also writes each particle's neighbour list
//                 and its energy (below); left out elsewhere, where the lists of 2^24 particles
//                 would take gigabytes
// Particles come in random order.
//
// The oracle, in integers: cell coordinates floor(k / (16 cell)), clamped or rejected;
// cell_count (ncells + 1 entries, the last the outside slot), cell_start (their exclusive scan),
// particle_index (a stable counting sort: one valid order; the grader compares each cell as a
// set), and neighbours: for each particle, the others at squared distance below cell^2 in
// sixteenths, -1 for a rejected particle. The neighbours are counted over the 3^3 cells around
// each particle's cell, with the coordinates copied into cell order so that each row of three
// cells is one contiguous range (parallel, harness/parallel.h), and, for n <= 20000, also by
// brute force over all pairs: the two must agree, or the oracle throws. With `lists`, the same
// walk over the cells also writes the lists in CSR form: nbr_count (the neighbour count, 0 for a
// rejected particle), nbr_start (its exclusive scan) and nbr_index (each particle's neighbours, in
// the order of the walk: one valid order; the grader compares each list as a set); and the
// energy, for each particle the sum over its neighbours of (1 - d2 / R^2)^2, in fp64 from the
// integers (exact per term), with energy_terms (the neighbour count) and energy_magnitude (the
// sum of (1 + d2 / R^2)^2, the terms with every operand made positive) for the grader's bound.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "npy.h"
#include "parallel.h"
#include "parsed_generator.h"
#include "rng.h"

// Its own namespace: the student's build compiles every lab's generator as one file
// (GPULAB_UNITY), where the labs' Params and parse() would otherwise meet.
namespace gpulab::particle_grid_data {
namespace {

constexpr long long kBruteForceMax = 20000;

struct Params {
  long long n = 0;
  int dims[3] = {1, 1, 1};  // nx, ny, nz
  int c16 = 16;             // the cell side in sixteenths
  bool reject = false;
  std::string layout;
  double outside_fraction = 0;
  int clusters = 4;
  double cluster_fraction = 0.9;
  bool neighbours = true;
  bool lists = false;

  long long ncells() const { return 1LL * dims[0] * dims[1] * dims[2]; }
  long long extent(int a) const { return 1LL * dims[a] * c16; }  // the box, in sixteenths
  int active_axes() const { return dims[2] == 1 ? 2 : 3; }
};

[[noreturn]] void fail(const std::string& key, const std::string& why) {
  throw std::invalid_argument("parameter \"" + key + "\" " + why);
}

long long integer(const nlohmann::json& p, const char* key, long long lo, long long hi,
                  long long fallback, bool required) {
  if (!p.contains(key)) {
    if (required) fail(key, "is required");
    return fallback;
  }
  const auto& v = p[key];
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    fail(key, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<long long>();
}

double number(const nlohmann::json& p, const char* key, double lo, double hi, double fallback) {
  if (!p.contains(key)) return fallback;
  const auto& v = p[key];
  if (!v.is_number() || !(v.get<double>() >= lo) || !(v.get<double>() <= hi))
    fail(key, "must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<double>();
}

Params parse(const nlohmann::json& p) {
  Params r;
  r.n = integer(p, "n", 1, 0x7fffffffLL, 0, true);
  const char* axes[3] = {"nx", "ny", "nz"};
  for (int a = 0; a < 3; ++a) r.dims[a] = static_cast<int>(integer(p, axes[a], 1, 4096, 0, true));
  if (r.ncells() > (1LL << 24)) fail("nx", "times ny times nz must be at most 2^24 cells");
  if (!p.contains("cell") || !p["cell"].is_number()) fail("cell", "is required, a number");
  const double cell = p["cell"].get<double>();
  int e = 0;
  if (!(cell >= 0.25 && cell <= 4) || std::frexp(cell, &e) != 0.5)
    fail("cell", "must be a power of two in [1/4, 4]");
  r.c16 = static_cast<int>(cell * 16);
  for (int a = 0; a < 3; ++a)
    if (r.extent(a) > 128 * 16)
      fail(axes[a], "times cell must be at most 128 (the box's side, for exact float32)");
  const std::string outside = p.value("outside", std::string());
  if (outside != "clamp" && outside != "reject") fail("outside", "must be \"clamp\" or \"reject\"");
  r.reject = outside == "reject";
  r.layout = p.value("layout", std::string());
  const std::vector<std::string> layouts = {"uniform", "clustered",  "one-cell",
                                            "sparse",  "boundaries", "gradient"};
  if (std::find(layouts.begin(), layouts.end(), r.layout) == layouts.end())
    fail("layout",
         "must be \"uniform\", \"clustered\", \"one-cell\", \"sparse\", \"boundaries\" or "
         "\"gradient\"");
  r.outside_fraction = number(p, "outside_fraction", 0, 1, 0);
  r.clusters = static_cast<int>(integer(p, "clusters", 1, 1 << 20, 4, false));
  r.cluster_fraction = number(p, "cluster_fraction", 0, 1, 0.9);
  if (p.contains("neighbours")) {
    if (!p["neighbours"].is_boolean()) fail("neighbours", "must be true or false");
    r.neighbours = p["neighbours"].get<bool>();
  }
  if (p.contains("lists")) {
    if (!p["lists"].is_boolean()) fail("lists", "must be true or false");
    r.lists = p["lists"].get<bool>();
    if (r.lists && !r.neighbours) fail("lists", "needs the neighbours (\"neighbours\": true)");
  }
  return r;
}

long long below(Rng& rng, long long n) {
  return static_cast<long long>(rng.next() % static_cast<uint64_t>(n));
}

// floor(k / d) for d > 0.
long long floor_div(long long k, long long d) {
  return k >= 0 ? k / d : -((-k + d - 1) / d);
}

class ParticleGridGenerator final : public ParsedGenerator<Params, parse> {
 public:
  int version() const override { return 2; }

  void generate_from(const Params& p, Rng& rng, const std::filesystem::path& dir) const override {
    const int axes = p.active_axes();
    // The special cells of a layout.
    auto random_cell = [&](std::vector<long long>& c) {
      for (int a = 0; a < 3; ++a) c[static_cast<size_t>(a)] = below(rng, p.dims[a]);
    };
    std::vector<std::vector<long long>> special;
    if (p.layout == "one-cell" || p.layout == "clustered") {
      const int count = p.layout == "one-cell" ? 1 : p.clusters;
      for (int i = 0; i < count; ++i) {
        special.emplace_back(3);
        random_cell(special.back());
      }
    }
    // The cells that "sparse" fills, per axis.
    auto sparse_cell = [&](int a) {
      const long long n = p.dims[a];
      const long long lo = n >= 3 ? 1 : 0, hi = n >= 3 ? n - 1 : n;
      if (a != 0 || hi - lo < 2) return lo + below(rng, hi - lo);
      const long long first_odd = lo + (lo % 2 == 0 ? 1 : 0);
      return first_odd + 2 * below(rng, (hi - first_odd + 1) / 2);
    };
    std::vector<float> pos(static_cast<size_t>(p.n) * 4, 0.0f);
    for (long long i = 0; i < p.n; ++i) {
      long long k[3] = {0, 0, 0};
      const std::vector<long long>* in_cell = nullptr;
      if (p.layout == "one-cell") in_cell = &special[0];
      if (p.layout == "clustered" && rng.uniform() < p.cluster_fraction)
        in_cell = &special[static_cast<size_t>(below(rng, static_cast<long long>(special.size())))];
      for (int a = 0; a < axes; ++a) {
        const long long L = p.extent(a);
        if (in_cell) {
          k[a] = (*in_cell)[static_cast<size_t>(a)] * p.c16 + below(rng, p.c16);
        } else if (p.layout == "gradient" && a == 0) {
          k[a] = std::min(L - 1, static_cast<long long>(std::sqrt(rng.uniform()) * L));
        } else if (p.layout == "sparse") {
          k[a] = sparse_cell(a) * p.c16 + below(rng, p.c16);
        } else if (p.layout == "boundaries") {
          const long long r = below(rng, 4);
          if (r < 2)
            k[a] = below(rng, p.dims[a] + 1) * p.c16;  // the upper face too
          else if (r == 2)
            k[a] = (1 + below(rng, p.dims[a])) * p.c16 - 1;
          else
            k[a] = below(rng, L);
        } else {
          k[a] = below(rng, L);
        }
      }
      if (p.outside_fraction > 0 && rng.uniform() < p.outside_fraction) {
        const int a = static_cast<int>(below(rng, axes));
        const long long by = below(rng, 2LL * p.c16);
        k[a] = rng.next() % 2 ? p.extent(a) + by : -1 - by;
      }
      for (int a = 0; a < 3; ++a)
        pos[static_cast<size_t>(i) * 4 + static_cast<size_t>(a)] = static_cast<float>(k[a]) / 16;
    }
    write_npy(dir / "positions.npy", {static_cast<size_t>(p.n), 4}, pos.data());
  }

  void oracle_from(const Params& p, const std::filesystem::path& input_dir,
                   const std::filesystem::path& expected_dir) const override {
    const NpyArray in = read_npy(input_dir / "positions.npy", DType::f32);
    if (in.shape.size() != 2 || in.shape[1] != 4 || static_cast<long long>(in.shape[0]) != p.n)
      throw std::runtime_error("positions.npy has shape " + in.shape_string() + ", not (" +
                               std::to_string(p.n) + ", 4)");
    const size_t n = static_cast<size_t>(p.n);
    // The coordinates as integers (sixteenths), the cell of each particle (clamped), and its id.
    std::vector<long long> k(n * 3);
    std::vector<int> cell(n * 3), id(n);
    const long long slots = p.ncells() + 1;
    for (size_t i = 0; i < n; ++i) {
      bool inside = true;
      for (size_t a = 0; a < 3; ++a) {
        const double x16 = static_cast<double>(in.as<float>()[i * 4 + a]) * 16;
        if (x16 != std::floor(x16))
          throw std::runtime_error("positions.npy: a coordinate is not a multiple of 1/16");
        k[i * 3 + a] = static_cast<long long>(x16);
        const long long c = floor_div(k[i * 3 + a], p.c16);
        inside = inside && c >= 0 && c < p.dims[a];
        cell[i * 3 + a] = static_cast<int>(std::clamp<long long>(c, 0, p.dims[a] - 1));
      }
      id[i] = !inside && p.reject
                  ? static_cast<int>(p.ncells())
                  : (cell[i * 3 + 2] * p.dims[1] + cell[i * 3 + 1]) * p.dims[0] + cell[i * 3];
    }
    std::vector<int32_t> count(static_cast<size_t>(slots), 0), start(count.size(), 0);
    for (size_t i = 0; i < n; ++i) ++count[static_cast<size_t>(id[i])];
    for (size_t c = 1; c < count.size(); ++c) start[c] = start[c - 1] + count[c - 1];
    std::vector<int32_t> index(n), cursor = start;
    for (size_t i = 0; i < n; ++i)
      index[static_cast<size_t>(cursor[static_cast<size_t>(id[i])]++)] = static_cast<int32_t>(i);

    const int32_t r2 = p.c16 * p.c16;
    const size_t outside_slot = static_cast<size_t>(p.ncells());
    auto rejected = [&](size_t i) { return static_cast<size_t>(id[i]) == outside_slot; };
    auto near = [&](size_t i, size_t j) {
      long long d2 = 0;
      for (size_t a = 0; a < 3; ++a) {
        const long long d = k[j * 3 + a] - k[i * 3 + a];
        d2 += d * d;
      }
      return d2 < static_cast<long long>(r2);
    };
    write_npy(expected_dir / "cell_start.npy", {start.size()}, start.data());
    write_npy(expected_dir / "cell_count.npy", {count.size()}, count.data());
    write_npy(expected_dir / "particle_index.npy", {n}, index.data());
    if (!p.neighbours) return;
    // The coordinates in cell order, so that the cells x - 1 .. x + 1 of a row are one
    // contiguous range of them; one task per chunk of slots.
    std::vector<int32_t> sorted(n * 3);
    for (size_t s = 0; s < n; ++s)
      for (size_t a = 0; a < 3; ++a)
        sorted[s * 3 + a] = static_cast<int32_t>(k[static_cast<size_t>(index[s]) * 3 + a]);
    // Calls visit(j, d2) for each slot j != s of the cells around slot s's cell (s not
    // rejected) whose particle is at squared distance d2 < r2, in sixteenths squared.
    auto walk = [&](size_t s, auto&& visit) {
      const size_t i = static_cast<size_t>(index[s]);
      int lo[3], hi[3];
      for (size_t a = 0; a < 3; ++a) {
        lo[a] = std::max(cell[i * 3 + a] - 1, 0);
        hi[a] = std::min(cell[i * 3 + a] + 1, p.dims[a] - 1);
      }
      const int32_t px = sorted[s * 3], py = sorted[s * 3 + 1], pz = sorted[s * 3 + 2];
      for (int z = lo[2]; z <= hi[2]; ++z)
        for (int y = lo[1]; y <= hi[1]; ++y) {
          const size_t row = static_cast<size_t>((z * p.dims[1] + y) * p.dims[0]);
          const size_t first = static_cast<size_t>(start[row + static_cast<size_t>(lo[0])]);
          const size_t last = row + static_cast<size_t>(hi[0]);
          const size_t end = static_cast<size_t>(start[last] + count[last]);
          for (size_t j = first; j < end; ++j) {
            // |d| < 2^13 sixteenths, so d2 < 3 * 2^26 fits in int32
            const int32_t dx = sorted[j * 3] - px, dy = sorted[j * 3 + 1] - py,
                          dz = sorted[j * 3 + 2] - pz;
            const int32_t d2 = dx * dx + dy * dy + dz * dz;
            if (d2 < r2 && j != s) visit(j, d2);
          }
        }
    };
    // body(s) for every slot s, 4096 slots per task.
    auto each_slot = [&](auto&& body) { parallel_for_chunks(n, 4096, body); };
    std::vector<int32_t> neighbours(n);
    each_slot([&](size_t s) {
      const size_t i = static_cast<size_t>(index[s]);
      int found = rejected(i) ? -1 : 0;
      if (!rejected(i)) walk(s, [&](size_t, int32_t) { ++found; });
      neighbours[i] = found;
    });
    if (p.n <= kBruteForceMax) {  // the definition itself: every pair
      std::atomic<size_t> first_bad{n};
      parallel_for(n, [&](size_t i) {
        int found = -1;
        if (!rejected(i)) {
          found = 0;
          for (size_t j = 0; j < n; ++j) found += j != i && !rejected(j) && near(i, j);
        }
        if (found != neighbours[i]) first_bad = i;
      });
      if (first_bad != n)
        throw std::logic_error("particle-grid oracle: the cell-list neighbour count of particle " +
                               std::to_string(first_bad.load()) +
                               " differs from the brute-force one");
    }
    write_npy(expected_dir / "neighbours.npy", {n}, neighbours.data());
    if (!p.lists) return;
    std::vector<int32_t> nbr_count(n), nbr_start(n);
    long long total = 0;
    for (size_t i = 0; i < n; ++i) {
      nbr_count[i] = std::max(neighbours[i], 0);
      nbr_start[i] = static_cast<int32_t>(total);
      total += nbr_count[i];
      if (total > 0x7fffffffLL)
        throw std::invalid_argument("parameter \"lists\": the lists hold 2^31 neighbours or more");
    }
    std::vector<int32_t> nbr_index(static_cast<size_t>(total));
    std::vector<double> energy(n, 0.0), terms(n), magnitude(n, 0.0);
    each_slot([&](size_t s) {
      const size_t i = static_cast<size_t>(index[s]);
      terms[i] = nbr_count[i];
      if (rejected(i)) return;
      size_t at = static_cast<size_t>(nbr_start[i]);
      walk(s, [&](size_t j, int32_t d2) {
        nbr_index[at++] = index[j];
        const double x = static_cast<double>(d2) / r2;  // exact: r2 is a power of two
        energy[i] += (1 - x) * (1 - x);
        magnitude[i] += (1 + x) * (1 + x);
      });
    });
    write_npy(expected_dir / "nbr_count.npy", {n}, nbr_count.data());
    write_npy(expected_dir / "nbr_start.npy", {n}, nbr_start.data());
    write_npy(expected_dir / "nbr_index.npy", {nbr_index.size()}, nbr_index.data());
    write_npy(expected_dir / "energy.npy", {n}, energy.data());
    write_npy(expected_dir / "energy_terms.npy", {n}, terms.data());
    write_npy(expected_dir / "energy_magnitude.npy", {n}, magnitude.data());
  }
};

}  // namespace
}  // namespace gpulab::particle_grid_data

GPULAB_DATASETS("particle-grid", gpulab::particle_grid_data::ParticleGridGenerator);
