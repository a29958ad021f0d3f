#include "plot/error_map.h"

#include <algorithm>
#include <cmath>

#include "compare.h"
#include "plot/colour_map.h"
#include "poison.h"
#include "text/number_text.h"

namespace gpulab {

namespace {

// One element (or the worst of a block): its error over its bound, or a value that is no number.
struct Cell {
  enum Kind { number, unwritten, not_finite } kind = number;  // worse further on
  double ratio = 0;
  size_t index = 0;  // flat, into the whole output
};

bool worse(const Cell& a, const Cell& b) {
  return a.kind != b.kind ? a.kind > b.kind : a.ratio > b.ratio;
}

bool over_bound(const Cell& c) {
  return c.kind != Cell::number || c.ratio > 1;
}

Cell cell_at(const ErrorMapInput& in, size_t i) {
  const float g = in.got[i];
  if (is_poison(g)) return {Cell::unwritten, INFINITY, i};
  if (!std::isfinite(g)) return {Cell::not_finite, INFINITY, i};
  const double err = std::fabs(static_cast<double>(g) - in.expected[i]);
  return {Cell::number, error_over_bound(err, in.bound[i]), i};
}

constexpr Rgb kNotFinite{220, 0, 220};
constexpr Rgb kUnwritten{160, 160, 160};
constexpr double kLowest = 1e-3;  // ratios below share the colour of no error

// The colour bar's top: the worst finite ratio over the bound in the plane, up to a power of
// ten, at least 10.
double top_ratio(double worst_finite) {
  return std::pow(10.0, std::max(1.0, std::ceil(std::log10(std::max(worst_finite, 10.0)))));
}

Rgb colour_of(const Cell& c, double top) {
  if (c.kind == Cell::not_finite) return kNotFinite;
  if (c.kind == Cell::unwritten) return kUnwritten;
  if (c.ratio <= 1)  // log10(0) is -inf: clamped to the bottom
    return sequential_colour((std::log10(c.ratio) - std::log10(kLowest)) / -std::log10(kLowest));
  return alarm_colour(std::log10(c.ratio) / std::log10(top));
}

// About how wide a line of sans-serif text of this size is, in pixels: an average letter is
// a little over half the size.
double text_width(const std::string& s, double size) {
  return 0.56 * size * static_cast<double>(s.size());
}

std::string count_text(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::optional<ErrorMap> draw_error_map(const ErrorMapInput& in) {
  const size_t rank = in.shape.size();
  if ((rank != 2 && rank != 3) || in.got_shape != in.shape) return std::nullopt;
  const size_t nx = in.shape[rank - 1], ny = in.shape[rank - 2];
  const size_t nz = rank == 3 ? in.shape[0] : 1;
  const size_t per_plane = nx * ny;
  if (per_plane < 2 || nz == 0) return std::nullopt;

  // Every element once: the counts, and each plane's worst and its values over the bound.
  size_t over = 0, not_finite = 0, unwritten = 0, best = 0;
  std::vector<Cell> plane_worst(nz);
  std::vector<size_t> plane_over(nz, 0);
  for (size_t k = 0; k < nz; ++k) {
    for (size_t p = 0; p < per_plane; ++p) {
      const Cell c = cell_at(in, k * per_plane + p);
      if (c.kind == Cell::not_finite)
        ++not_finite;
      else if (c.kind == Cell::unwritten)
        ++unwritten;
      else if (c.ratio > 1)
        ++over;
      plane_over[k] += over_bound(c);
      if (p == 0 || worse(c, plane_worst[k])) plane_worst[k] = c;
    }
    const bool better =
        worse(plane_worst[k], plane_worst[best]) ||
        (!worse(plane_worst[best], plane_worst[k]) && plane_over[k] > plane_over[best]);
    if (better) best = k;
  }
  if (over + not_finite + unwritten == 0) return std::nullopt;
  // Nothing written at all is one fact, which the check's message says: a map of one colour
  // would add nothing to it.
  if (unwritten == nz * per_plane) return std::nullopt;

  // The plane in squares of block × block elements, each its block's worst.
  const size_t block = std::max<size_t>(1, (std::max(nx, ny) + kMaxCells - 1) / kMaxCells);
  const size_t cx = (nx + block - 1) / block, cy = (ny + block - 1) / block;
  std::vector<Cell> cells(cx * cy);
  std::vector<bool> seen(cx * cy, false);
  double worst_finite = 0;  // over the bound, in the plane: the colour bar's top
  for (size_t j = 0; j < ny; ++j)
    for (size_t i = 0; i < nx; ++i) {
      const Cell c = cell_at(in, best * per_plane + j * nx + i);
      if (c.kind == Cell::number) worst_finite = std::max(worst_finite, c.ratio);
      const size_t at = (j / block) * cx + i / block;
      if (!seen[at] || worse(c, cells[at])) cells[at] = c;
      seen[at] = true;
    }
  const double top = top_ratio(worst_finite);

  const std::string plane_words =
      rank == 3 ? "plane k = " + std::to_string(best) + " of " + std::to_string(nz) : "";
  const std::string title = in.title + ": error over its bound" +
                            (rank == 3 ? ", " + plane_words : "") + " (" + std::to_string(nx) +
                            " x " + std::to_string(ny) + " values)";
  std::string counts =
      std::to_string(over) + " of " + std::to_string(nx * ny * nz) + " values over the bound";
  if (not_finite) counts += ", " + count_text(not_finite, "NaN or infinity", "NaN or infinite");
  if (unwritten) counts += ", " + std::to_string(unwritten) + " never written";
  counts += " (" + std::to_string(plane_over[best]) + " of these in this plane)";
  const Cell& worst = plane_worst[best];
  const std::string outlined =
      "outlined: the worst, at " + index_string(worst.index, in.shape) + ": " +
      (worst.kind == Cell::not_finite  ? std::string("NaN or infinite")
       : worst.kind == Cell::unwritten ? std::string("never written")
                                       : printf_text("%.3g", worst.ratio) + " times its bound") +
      (block > 1 ? "; each square the worst of " + std::to_string(block) + " x " +
                       std::to_string(block) + " values"
                 : "");

  const double cell =
      std::clamp(std::floor(512.0 / static_cast<double>(std::max(cx, cy))), 2.0, 24.0);
  const double left = 20, map_top = 84, mw = cx * cell, mh = cy * cell;
  const double bx = left + mw + 28, bh = std::max(mh, 200.0);
  // Wide enough for the colour bar's words and, roughly, the title's (text_width).
  const double words_width =
      std::max({text_width(title, 15), text_width(counts, 12), text_width(outlined, 12)});
  const int width = static_cast<int>(std::max({bx + 16 + 170, 12 + words_width, 640.0}));
  const int height = static_cast<int>(std::max(map_top + mh + 48, map_top + bh + 84));
  ErrorMap m{Canvas(width, height)};
  m.plane = best;
  m.planes = nz;
  m.count = nx * ny * nz;
  m.over_bound = over;
  m.not_finite = not_finite;
  m.unwritten = unwritten;
  m.worst_index = worst.index;
  m.plane_words = plane_words;
  m.words = title + ". " + counts + "; " + outlined + ".";
  Canvas& c = m.canvas;
  c.text(12, 22, title, 15);
  c.text(12, 42, counts, 12, Anchor::start, kGrey);
  c.text(12, 60, outlined, 12, Anchor::start, kGrey);

  // Row j = 0 at the bottom, as y grows upwards.
  for (size_t j = 0; j < cy; ++j)
    for (size_t i = 0; i < cx; ++i)
      c.rect(left + i * cell, map_top + (cy - 1 - j) * cell, cell, cell,
             colour_of(cells[j * cx + i], top));
  const size_t wp = worst.index % per_plane;
  const double wx = left + static_cast<double>(wp % nx / block) * cell,
               wy = map_top + static_cast<double>(cy - 1 - wp / nx / block) * cell;
  const double o = 2;  // the outline stands just outside the square
  c.line(wx - o, wy - o, wx + cell + o, wy - o, kBlack, 1.5);
  c.line(wx - o, wy + cell + o, wx + cell + o, wy + cell + o, kBlack, 1.5);
  c.line(wx - o, wy - o, wx - o, wy + cell + o, kBlack, 1.5);
  c.line(wx + cell + o, wy - o, wx + cell + o, wy + cell + o, kBlack, 1.5);
  c.text(left, map_top + mh + 18,
         "i = 0 .. " + std::to_string(nx - 1) + " left to right, j = 0 .. " +
             std::to_string(ny - 1) + " bottom to top",
         11, Anchor::start, kGrey);

  // The colour bar: within the bound below its middle line, over it above.
  constexpr int kSteps = 48;
  const double half = bh / 2, step = half / kSteps;
  for (int s = 0; s < kSteps; ++s) {
    const double t = (s + 0.5) / kSteps;
    c.rect(bx, map_top + s * step, 16, step + 0.5,
           alarm_colour(1 - t));  // top: the largest ratio
    c.rect(bx, map_top + half + s * step, 16, step + 0.5, sequential_colour(1 - t));
  }
  c.line(bx - 4, map_top + half, bx + 20, map_top + half, kBlack, 2);
  c.text(bx + 22, map_top + 10, printf_text("%.3g", top) + " times the bound", 11);
  c.text(bx + 22, map_top + half + 4, "1: the bound", 11);
  c.text(bx + 22, map_top + bh, "0.001 or less", 11);
  const double sy = map_top + bh + 16;
  c.rect(bx, sy, 16, 16, kNotFinite);
  c.text(bx + 22, sy + 12, "NaN or infinite", 11);
  c.rect(bx, sy + 24, 16, 16, kUnwritten);
  c.text(bx + 22, sy + 36, "never written", 11);
  return m;
}

}  // namespace gpulab
