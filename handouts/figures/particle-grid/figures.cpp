// particle-grid.md's figures, from the oracle's expected outputs of the uneven-density public
// datasets: the particles per cell of one slice of `gradient`'s grid (cell_count) as a heat
// map, and the distribution of the neighbour lists' lengths (the differences of nbr_start, the
// lists' CSR offsets) of `gradient` and `dense-cluster`, with how busy a warp's lanes are when
// each thread walks one particle's list.
#include "figures/figures.h"

#include <algorithm>
#include <stdexcept>

#include "npy.h"
#include "plot/bar_chart.h"
#include "plot/colour_map.h"
#include "text/number_text.h"

namespace gpulab {

namespace {

struct GridSize {
  int nx, ny, nz;
};

GridSize grid_size(const GeneratedDataset& ds) {
  const auto& p = ds.spec->params;
  return {p.at("nx").get<int>(), p.at("ny").get<int>(), p.at("nz").get<int>()};
}

Figure cell_counts(const std::string& name, const GeneratedDataset& ds) {
  const GridSize g = grid_size(ds);
  const NpyArray counts = read_npy(ds.expected / "cell_count.npy", DType::i32);
  const size_t ncells = static_cast<size_t>(g.nx) * g.ny * g.nz;
  if (counts.count() != ncells + 1)
    throw std::runtime_error(name + ": cell_count.npy does not hold one count per cell and one");
  const int32_t* count = counts.as<int32_t>();
  const int cz = g.nz / 2;
  auto at = [&](int x, int y, int z) {
    return count[(static_cast<size_t>(z) * g.ny + y) * g.nx + x];
  };
  int most = 1;
  for (int y = 0; y < g.ny; ++y)
    for (int x = 0; x < g.nx; ++x) most = std::max(most, at(x, y, cz));
  // Each column of cells along x, its mean over the whole grid: the density profile.
  std::vector<double> column(static_cast<size_t>(g.nx), 0.0);
  long long inside = 0;
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x = 0; x < g.nx; ++x) {
        column[x] += at(x, y, z) / (static_cast<double>(g.ny) * g.nz);
        inside += at(x, y, z);
      }
  const double mean = static_cast<double>(inside) / static_cast<double>(ncells);

  const double cell = 30, left = 56, top = 80, strip = 14;
  const double bottom = top + g.ny * cell, strip_top = bottom + 8,
               axis = strip_top + strip;  // the x labels go under the strip
  Canvas c(static_cast<int>(left + g.nx * cell + 110), static_cast<int>(axis + 48));
  c.text(12, 22,
         "particle-grid, dataset " + name + ": particles per cell at cz = " + std::to_string(cz) +
             " (" + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " +
             std::to_string(g.nz) + " cells)",
         15);
  c.text(12, 42, "the oracle's cell_count; the strip below: each column's mean over all cy and cz,",
         12, Anchor::start, kGrey);
  c.text(12, 58,
         "from " + decimal_text(column.front(), 2) + " a cell at cx = 0 to " +
             decimal_text(column.back(), 2) + " at cx = " + std::to_string(g.nx - 1) + " (" +
             decimal_text(mean, 2) + " over the whole grid)",
         12, Anchor::start, kGrey);
  // Row cy = 0 at the bottom, as y grows upwards.
  for (int y = 0; y < g.ny; ++y)
    for (int x = 0; x < g.nx; ++x)
      c.rect(left + x * cell, top + (g.ny - 1 - y) * cell, cell, cell,
             sequential_colour(static_cast<double>(at(x, y, cz)) / most));
  for (int x = 0; x < g.nx; ++x)
    c.rect(left + x * cell, strip_top, cell, strip, sequential_colour(column[x] / most));
  c.text(left - 6, strip_top + 11, "mean", 11, Anchor::end, kGrey);
  for (int x = 0; x < g.nx; x += 3)
    c.text(left + (x + 0.5) * cell, axis + 16, std::to_string(x), 11, Anchor::middle);
  for (int y = 0; y < g.ny; y += 3)
    c.text(left - 6, top + (g.ny - 0.5 - y) * cell + 4, std::to_string(y), 11, Anchor::end);
  c.text(left + g.nx * cell / 2, axis + 36, "cx", 12, Anchor::middle);
  c.text(18, top + g.ny * cell / 2, "cy", 12, Anchor::middle);
  // The colour bar: a block per count, 0 at the bottom.
  const double bx = left + g.nx * cell + 24, bh = g.ny * cell / (most + 1.0);
  for (int k = 0; k <= most; ++k)
    c.rect(bx, bottom - (k + 1) * bh, 18, bh + 0.5,
           sequential_colour(static_cast<double>(k) / most));
  for (int k : {0, most / 2, most})
    c.text(bx + 24, bottom - (k + 0.5) * bh + 4, std::to_string(k), 11);
  c.text(bx, top - 8, "particles", 11, Anchor::start, kGrey);
  return {"cell-counts-" + name, c};
}

// The fraction of lane steps that do work when each lane of a warp walks one particle's list
// and the warp runs until its longest list is done: warps of 32 consecutive particles of
// `order`.
double lane_use(const std::vector<long long>& length, const std::vector<size_t>& order) {
  long long work = 0, taken = 0;
  for (size_t w = 0; w < order.size(); w += 32) {
    const size_t lanes = std::min<size_t>(32, order.size() - w);
    long long longest = 0;
    for (size_t l = 0; l < lanes; ++l) {
      work += length[order[w + l]];
      longest = std::max(longest, length[order[w + l]]);
    }
    taken += longest * static_cast<long long>(lanes);
  }
  return taken == 0 ? 1.0 : static_cast<double>(work) / static_cast<double>(taken);
}

Figure list_lengths(const std::string& name, const GeneratedDataset& ds, bool log_scale) {
  const NpyArray start = read_npy(ds.expected / "nbr_start.npy", DType::i32);
  const NpyArray index = read_npy(ds.expected / "nbr_index.npy", DType::i32);
  const NpyArray cells = read_npy(ds.expected / "particle_index.npy", DType::i32);
  const size_t n = start.count();
  if (cells.count() != n)
    throw std::runtime_error(name + ": particle_index.npy is not one per particle");
  std::vector<long long> length(n);
  for (size_t p = 0; p < n; ++p) {
    length[p] = (p + 1 < n ? start.as<int32_t>()[p + 1] : static_cast<long long>(index.count())) -
                start.as<int32_t>()[p];
    if (length[p] < 0) throw std::runtime_error(name + ": nbr_start.npy is not ascending");
  }
  const long long longest = n ? *std::max_element(length.begin(), length.end()) : 0;
  const double mean = n ? static_cast<double>(index.count()) / static_cast<double>(n) : 0;
  std::vector<size_t> given(n), in_cells(n);
  for (size_t p = 0; p < n; ++p) {
    given[p] = p;
    in_cells[p] = static_cast<size_t>(cells.as<int32_t>()[p]);
    if (in_cells[p] >= n) throw std::runtime_error(name + ": particle_index.npy is out of range");
  }
  // At most 100 bars, each of 1, 2 or 5 times a power of ten lengths.
  const long long width = round_step(longest + 1, 100);
  BarChart chart;
  chart.left = 70;
  chart.top = 92;
  chart.width = 640;
  chart.height = 260;
  chart.values.assign(static_cast<size_t>(longest / width + 1), 0);
  for (long long l : length) ++chart.values[static_cast<size_t>(l / width)];
  chart.log_scale = log_scale;
  chart.label_every =
      static_cast<size_t>(round_step(static_cast<long long>(chart.values.size()), 10));
  chart.x_label = [width](size_t k) { return std::to_string(static_cast<long long>(k) * width); };
  chart.x_title = width == 1 ? "neighbours in the list"
                             : "neighbours in the list (bars of " + std::to_string(width) + ")";
  chart.y_title = log_scale ? "particles (log)" : "particles";

  Canvas c(static_cast<int>(chart.left + chart.width + 30),
           static_cast<int>(chart.top + chart.height + 56));
  c.text(12, 22, "particle-grid, dataset " + name + ": neighbour-list lengths (nbr_start's steps)",
         15);
  c.text(12, 42,
         std::to_string(n) + " particles, " + std::to_string(index.count()) + " neighbours: mean " +
             decimal_text(mean, 1) + " (red), longest " + std::to_string(longest),
         12, Anchor::start, kGrey);
  c.text(12, 60,
         "one thread per list: a warp's 32 lanes busy " +
             decimal_text(100 * lane_use(length, given), 0) + "% of its time in particle order, " +
             decimal_text(100 * lane_use(length, in_cells), 0) + "% in cell order",
         12, Anchor::start, kGrey);
  draw(c, chart);
  // Bar k holds the lengths k·width … k·width + width − 1.
  const double mx = chart.x((mean + 0.5) / static_cast<double>(width));
  c.line(mx, chart.top, mx, chart.top + chart.height, kRed, 1.5);
  return {"list-lengths-" + name, c};
}

std::vector<Figure> particle_grid_figures(const LabConfig& lab, const std::filesystem::path& work) {
  const GeneratedDataset gradient = generate_public_dataset(lab, "gradient", work);
  const GeneratedDataset cluster = generate_public_dataset(lab, "dense-cluster", work);
  return {cell_counts("gradient", gradient), list_lengths("gradient", gradient, false),
          list_lengths("dense-cluster", cluster, true)};
}

}  // namespace

GPULAB_FIGURES("particle-grid", particle_grid_figures);

}  // namespace gpulab
