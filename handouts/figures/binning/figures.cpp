// binning.md's figures: how full the bins of a public dataset are against their capacity, and
// a slice of the neighbour offset set. The bin grid is the handout's: faces at multiples of B
// from the lattice's origin, starting at -ceil(rc/B)·B, covering the lattice's box widened by rc.
#include "figures/figures.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "neighbour_offsets.h"
#include "npy.h"
#include "plot/colour_map.h"

namespace gpulab {

namespace {

constexpr Rgb kBar{90, 130, 190}, kOver{200, 60, 50}, kListed{120, 190, 120},
    kBoxOnly{225, 225, 225};

struct BinParams {
  int n[3];
  double h, cutoff, bin;
  int capacity;
};

BinParams bin_params(const nlohmann::json& p) {
  return {{p.at("nx").get<int>(), p.at("ny").get<int>(), p.at("nz").get<int>()},
          p.at("h").get<double>(),
          p.at("cutoff").get<double>(),
          p.at("bin_size").get<double>(),
          p.at("bin_capacity").get<int>()};
}

// Atoms per bin over the whole grid (empty bins included); atoms outside the grid are dropped.
std::vector<int> bin_counts(const BinParams& p, const NpyArray& atoms) {
  const double origin = -std::ceil(p.cutoff / p.bin) * p.bin;
  int nb[3];
  for (int a = 0; a < 3; ++a)
    nb[a] = static_cast<int>(std::floor(((p.n[a] - 1) * p.h + p.cutoff - origin) / p.bin)) + 1;
  std::vector<int> counts(static_cast<size_t>(nb[0]) * nb[1] * nb[2], 0);
  const float* xyzq = atoms.as<float>();
  for (size_t i = 0; i < atoms.shape.at(0); ++i) {
    long long idx = 0;
    bool inside = true;
    for (int a = 2; a >= 0; --a) {
      const int b = static_cast<int>(std::floor((xyzq[4 * i + a] - origin) / p.bin));
      inside &= b >= 0 && b < nb[a];
      idx = idx * nb[a] + b;
    }
    if (inside) ++counts[idx];
  }
  return counts;
}

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

Figure occupancy(const LabConfig& lab, const std::string& name, const std::filesystem::path& work) {
  const GeneratedDataset ds = generate_public_dataset(lab, name, work);
  const BinParams p = bin_params(ds.spec->params);
  const std::vector<int> counts = bin_counts(p, read_npy(ds.input / "atoms.npy", DType::f32));
  const int most = *std::max_element(counts.begin(), counts.end());
  std::vector<int> bins_with(most + 1, 0);
  long long overflow_atoms = 0, overflow_bins = 0, binned = 0;
  for (int c : counts) {
    ++bins_with[c];
    binned += c;
    if (c > p.capacity) {
      overflow_atoms += c - p.capacity;
      ++overflow_bins;
    }
  }
  const int tallest = *std::max_element(bins_with.begin(), bins_with.end());

  const double left = 70, top = 56, pw = 560, ph = 260;
  const std::string title = "binning, dataset " + name + ": atoms per bin (bins of " +
                            fixed(p.bin, 1) + " A, capacity " + std::to_string(p.capacity) + ")";
  const std::string note = std::to_string(counts.size()) + " bins, " + std::to_string(binned) +
                           " atoms binned; overflow: " + std::to_string(overflow_atoms) +
                           " atoms from " + std::to_string(overflow_bins) + " bins (red)";
  Canvas c(fitting_width(left + pw + 30, {{title, 15}, {note, 12}}),
           static_cast<int>(top + ph + 70));
  c.text(12, 22, title, 15);
  c.text(12, 42, note, 12, Anchor::start, kGrey);
  const double bw = pw / (most + 1);
  for (int k = 0; k <= most; ++k) {
    const double bh = ph * bins_with[k] / tallest;
    c.rect(left + k * bw, top + ph - bh, std::max(1.0, bw - 1), bh, k > p.capacity ? kOver : kBar);
  }
  c.line(left, top + ph, left + pw, top + ph, kBlack);
  c.line(left, top, left, top + ph, kBlack);
  const double cap_x = left + (p.capacity + 1) * bw;
  c.line(cap_x, top - 4, cap_x, top + ph, kOver, 2);
  c.text(cap_x + 4, top + 10, "capacity " + std::to_string(p.capacity), 12, Anchor::start, kOver);
  const int step = std::max(1, (most + 10) / 10);
  for (int k = 0; k <= most; k += step) {
    c.line(left + (k + 0.5) * bw, top + ph, left + (k + 0.5) * bw, top + ph + 4, kBlack);
    c.text(left + (k + 0.5) * bw, top + ph + 18, std::to_string(k), 11, Anchor::middle);
  }
  c.text(left + pw / 2, top + ph + 40, "atoms in the bin", 12, Anchor::middle);
  c.text(left - 8, top + 8, std::to_string(tallest), 11, Anchor::end);
  c.text(left - 8, top + ph, "0", 11, Anchor::end);
  c.text(left - 8, top + ph / 2, "bins", 12, Anchor::end);
  return {"occupancy-" + name, c};
}

// The z = 0 slice of the offset set for the dataset's bins and cutoff, for a tile of B/h
// points a side aligned with its base bin (a = 0, extent (B/h - 1)·h: the `water` case of
// binning.md's table).
Figure offsets(const LabConfig& lab, const std::string& name) {
  const DatasetSpec* spec = nullptr;
  for (const auto& g : lab.groups)
    for (const auto& ds : g.datasets)
      if (!g.hidden && ds.name == name) spec = &ds;
  if (!spec) throw std::runtime_error(lab.id + " has no public dataset \"" + name + "\"");
  const BinParams p = bin_params(spec->params);
  const double a = 0, extent = (std::round(p.bin / p.h) - 1) * p.h, rc2 = p.cutoff * p.cutoff;
  const OffsetRange r = offset_range(p.cutoff, p.bin, a, extent);
  auto listed = [&](int dx, int dy, int dz) {
    const double gx = offset_gap(dx, p.bin, a, extent), gy = offset_gap(dy, p.bin, a, extent),
                 gz = offset_gap(dz, p.bin, a, extent);
    return gx * gx + gy * gy + gz * gz < rc2;
  };
  int in_box = 0, in_list = 0, slice_list = 0;
  for (int dz = r.lo; dz <= r.hi; ++dz)
    for (int dy = r.lo; dy <= r.hi; ++dy)
      for (int dx = r.lo; dx <= r.hi; ++dx) {
        ++in_box;
        in_list += listed(dx, dy, dz);
        slice_list += dz == 0 && listed(dx, dy, dz);
      }

  const int shown_lo = r.lo - 1, shown_hi = r.hi + 1, cells = shown_hi - shown_lo + 1;
  const double cell = 40, left = 60, top = 64, scale = cell / p.bin;
  const std::string title = "binning, dataset " + name +
                            ": neighbour offsets (dx, dy) at dz = 0, rc = " + fixed(p.cutoff, 1) +
                            " A, B = " + fixed(p.bin, 1) + " A";
  const std::string note = std::to_string(slice_list) + " listed in this slice (green); " +
                           std::to_string(in_list) + " of the " + std::to_string(in_box) +
                           " offsets in the box (grey) in all";
  Canvas c(fitting_width(left + cells * cell + 40, {{title, 15}, {note, 12}}),
           static_cast<int>(top + cells * cell + 50));
  c.text(12, 22, title, 15);
  c.text(12, 42, note, 12, Anchor::start, kGrey);
  // y grows upwards in the figure: row 0 is the highest dy.
  auto px = [&](double x) { return left + (x - shown_lo * p.bin) * scale; };
  auto py = [&](double y) { return top + (shown_hi * p.bin + p.bin - y) * scale; };
  for (int dy = shown_lo; dy <= shown_hi; ++dy)
    for (int dx = shown_lo; dx <= shown_hi; ++dx) {
      const bool box = dx >= r.lo && dx <= r.hi && dy >= r.lo && dy <= r.hi;
      const Rgb fill = box && listed(dx, dy, 0) ? kListed : box ? kBoxOnly : kWhite;
      c.rect(px(dx * p.bin), py((dy + 1) * p.bin), cell, cell, fill, Rgb{150, 150, 150});
    }
  for (int d = shown_lo; d <= shown_hi; ++d) {
    c.text(px((d + 0.5) * p.bin), py(shown_lo * p.bin) + 16, std::to_string(d), 11, Anchor::middle);
    c.text(px(shown_lo * p.bin) - 6, py((d + 0.5) * p.bin) + 4, std::to_string(d), 11, Anchor::end);
  }
  c.text(px((shown_lo + shown_hi + 1) * p.bin / 2), py(shown_lo * p.bin) + 34, "dx", 12,
         Anchor::middle);
  c.text(18, py((shown_lo + shown_hi + 1) * p.bin / 2), "dy", 12, Anchor::middle);
  // The tile's points, and the edge of what lies within rc of them: its sides pushed out by rc,
  // joined by quarter circles.
  c.rect(px(a), py(a + extent), extent * scale, extent * scale, kOver);
  const double lo = a, hi = a + extent, rc = p.cutoff;
  const int steps = 24;
  const double corners[4][3] = {{hi, hi, 0}, {lo, hi, 1}, {lo, lo, 2}, {hi, lo, 3}};
  double prev_x = px(hi + rc), prev_y = py(lo);
  for (const auto& k : corners) {
    for (int s = 0; s <= steps; ++s) {
      const double t = (k[2] + static_cast<double>(s) / steps) * 1.5707963267948966;
      const double x = px(k[0] + rc * std::cos(t)), y = py(k[1] + rc * std::sin(t));
      c.line(prev_x, prev_y, x, y, kOver, 1.5);
      prev_x = x;
      prev_y = y;
    }
  }
  c.line(prev_x, prev_y, px(hi + rc), py(lo), kOver, 1.5);
  return {"offsets-" + name, c};
}

std::vector<Figure> binning_figures(const LabConfig& lab, const std::filesystem::path& work) {
  return {occupancy(lab, "water", work), occupancy(lab, "clustered", work), offsets(lab, "water")};
}

}  // namespace

GPULAB_FIGURES("binning", binning_figures);

}  // namespace gpulab
