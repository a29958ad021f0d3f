#include "plot/error_map.h"

#include <algorithm>
#include <cmath>

#include "compare.h"
#include "plot/bar_chart.h"
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

std::string counted(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Every element once: the counts, and the plane to draw (each plane's worst and its values
// over the bound decide).
struct Tally {
  size_t over = 0, not_finite = 0, unwritten = 0;
  size_t best = 0;             // the plane drawn
  Cell worst;                  // its worst element
  size_t best_plane_over = 0;  // its values over the bound
};

Tally tally(const ErrorMapInput& in, size_t nz, size_t per_plane) {
  Tally t;
  std::vector<Cell> plane_worst(nz);
  std::vector<size_t> plane_over(nz, 0);
  for (size_t k = 0; k < nz; ++k) {
    for (size_t p = 0; p < per_plane; ++p) {
      const Cell c = cell_at(in, k * per_plane + p);
      if (c.kind == Cell::not_finite)
        ++t.not_finite;
      else if (c.kind == Cell::unwritten)
        ++t.unwritten;
      else if (c.ratio > 1)
        ++t.over;
      plane_over[k] += over_bound(c);
      if (p == 0 || worse(c, plane_worst[k])) plane_worst[k] = c;
    }
    const bool better =
        worse(plane_worst[k], plane_worst[t.best]) ||
        (!worse(plane_worst[t.best], plane_worst[k]) && plane_over[k] > plane_over[t.best]);
    if (better) t.best = k;
  }
  t.worst = plane_worst[t.best];
  t.best_plane_over = plane_over[t.best];
  return t;
}

// The plane in squares of block × block elements, each its block's worst.
struct Blocks {
  size_t block = 1, cx = 0, cy = 0;
  std::vector<Cell> cells;  // row by row, cx a row
  double top = 0;           // the colour bar's top
};

Blocks blocks_of(const ErrorMapInput& in, size_t plane, size_t nx, size_t ny) {
  Blocks b;
  b.block = std::max<size_t>(1, (std::max(nx, ny) + kMaxCells - 1) / kMaxCells);
  b.cx = (nx + b.block - 1) / b.block;
  b.cy = (ny + b.block - 1) / b.block;
  b.cells.resize(b.cx * b.cy);
  std::vector<bool> seen(b.cx * b.cy, false);
  double worst_finite = 0;  // over the bound, in the plane: the colour bar's top
  for (size_t j = 0; j < ny; ++j)
    for (size_t i = 0; i < nx; ++i) {
      const Cell c = cell_at(in, plane * nx * ny + j * nx + i);
      if (c.kind == Cell::number) worst_finite = std::max(worst_finite, c.ratio);
      const size_t at = (j / b.block) * b.cx + i / b.block;
      if (!seen[at] || worse(c, b.cells[at])) b.cells[at] = c;
      seen[at] = true;
    }
  b.top = top_ratio(worst_finite);
  return b;
}

// The map's three lines of words: the title, the counts and the outlined element.
struct MapWords {
  std::string plane, title, counts, outlined;
};

MapWords words_of(const ErrorMapInput& in, const Tally& t, const Blocks& b, size_t nx, size_t ny,
                  size_t nz) {
  const size_t rank = in.shape.size();
  MapWords w;
  w.plane = rank == 3 ? "plane k = " + std::to_string(t.best) + " of " + std::to_string(nz) : "";
  w.title = in.title + ": error over its bound" + (rank == 3 ? ", " + w.plane : "") + " (" +
            std::to_string(nx) + " x " + std::to_string(ny) + " values)";
  w.counts =
      std::to_string(t.over) + " of " + std::to_string(nx * ny * nz) + " values over the bound";
  if (t.not_finite) w.counts += ", " + counted(t.not_finite, "NaN or infinity", "NaN or infinite");
  if (t.unwritten) w.counts += ", " + std::to_string(t.unwritten) + " never written";
  w.counts += " (" + std::to_string(t.best_plane_over) + " of these in this plane)";
  w.outlined = "outlined: the worst, at " + index_string(t.worst.index, in.shape) + ": " +
               (t.worst.kind == Cell::not_finite ? std::string("NaN or infinite")
                : t.worst.kind == Cell::unwritten
                    ? std::string("never written")
                    : printf_text("%.3g", t.worst.ratio) + " times its bound") +
               (b.block > 1 ? "; each square the worst of " + std::to_string(b.block) + " x " +
                                  std::to_string(b.block) + " values"
                            : "");
  return w;
}

// The squares, row j = 0 at the bottom as y grows upwards; the worst element's square outlined.
void draw_squares(Canvas& c, const Blocks& b, size_t worst_in_plane, size_t nx, MapPlace at) {
  const double cell = at.cell;
  for (size_t j = 0; j < b.cy; ++j)
    for (size_t i = 0; i < b.cx; ++i)
      c.rect(at.left + i * cell, at.top + (b.cy - 1 - j) * cell, cell, cell,
             colour_of(b.cells[j * b.cx + i], b.top));
  const double wx = at.left + static_cast<double>(worst_in_plane % nx / b.block) * cell,
               wy = at.top + static_cast<double>(b.cy - 1 - worst_in_plane / nx / b.block) * cell;
  const double o = 2;  // the outline stands just outside the square
  c.line(wx - o, wy - o, wx + cell + o, wy - o, kBlack, 1.5);
  c.line(wx - o, wy + cell + o, wx + cell + o, wy + cell + o, kBlack, 1.5);
  c.line(wx - o, wy - o, wx - o, wy + cell + o, kBlack, 1.5);
  c.line(wx + cell + o, wy - o, wx + cell + o, wy + cell + o, kBlack, 1.5);
}

// The indices an axis of n elements, `length` pixels long, is ticked at: 0 and every round step
// after it, at most 8 and at least `gap` pixels apart (so a map one square high has one tick).
std::vector<size_t> ticks_of(size_t n, double length, double gap) {
  const long long parts = std::clamp(static_cast<long long>(length / gap), 1LL, 8LL);
  const size_t step = static_cast<size_t>(round_step(static_cast<long long>(n), parts));
  std::vector<size_t> out;
  for (size_t v = 0; v < n; v += step) out.push_back(v);
  return out;
}

// The least distance between ticks: a number's width (i) or height (j) and some room.
constexpr double kTickGapX = 40, kTickGapY = 16;

constexpr double kTickSize = 10;

// The widest of j's tick labels: the room the map leaves on its left.
double y_ticks_width(size_t ny, double length) {
  double w = 0;
  for (size_t v : ticks_of(ny, length, kTickGapY))
    w = std::max(w, text_width(std::to_string(v), kTickSize));
  return w;
}

// The axes: a tick at the middle of the square of each round index, with its number, i below
// the map and j to its left, the axes' names beside them and a line of words under it all.
void draw_axes(Canvas& c, const Blocks& b, size_t nx, size_t ny, MapPlace at) {
  const double bottom = at.top + static_cast<double>(b.cy) * at.cell;
  for (size_t v : ticks_of(nx, static_cast<double>(b.cx) * at.cell, kTickGapX)) {
    const double x = at.left + (static_cast<double>(v / b.block) + 0.5) * at.cell;
    c.line(x, bottom, x, bottom + 4, kBlack);
    c.text(x, bottom + 15, std::to_string(v), kTickSize, Anchor::middle);
  }
  for (size_t v : ticks_of(ny, static_cast<double>(b.cy) * at.cell, kTickGapY)) {
    const double y = at.top + (static_cast<double>(b.cy - 1 - v / b.block) + 0.5) * at.cell;
    c.line(at.left - 4, y, at.left, y, kBlack);
    c.text(at.left - 6, y + 3.5, std::to_string(v), kTickSize, Anchor::end);
  }
  const double map_width = static_cast<double>(b.cx) * at.cell;
  c.text(at.left + map_width / 2, bottom + 31, "i", 12, Anchor::middle);
  c.text(12, at.top + static_cast<double>(b.cy) * at.cell / 2 + 4, "j", 12);
  c.text(12, bottom + 49,
         "i = 0 .. " + std::to_string(nx - 1) + " left to right, j = 0 .. " +
             std::to_string(ny - 1) + " bottom to top",
         11, Anchor::start, kGrey);
}

// The colour bar's words, top to bottom (the last two beside the colours of no number).
std::vector<std::string> colour_bar_words(double ratio_top) {
  return {"error / bound",   printf_text("%.3g", ratio_top) + " times the bound",
          "1: the bound",    "0.001 or less",
          "NaN or infinite", "never written"};
}

// The colour bar at (bx, top), `bh` high, under its name: within the bound below its middle
// line, over it above (up to `ratio_top` times the bound); the two colours of no number below
// it.
void draw_colour_bar(Canvas& c, double bx, double top, double bh, double ratio_top) {
  constexpr int kSteps = 48;
  const double half = bh / 2, step = half / kSteps;
  for (int s = 0; s < kSteps; ++s) {
    const double t = (s + 0.5) / kSteps;
    c.rect(bx, top + s * step, 16, step + 0.5,
           alarm_colour(1 - t));  // top: the largest ratio
    c.rect(bx, top + half + s * step, 16, step + 0.5, sequential_colour(1 - t));
  }
  const std::vector<std::string> words = colour_bar_words(ratio_top);
  c.text(bx, top - 8, words[0], 11);
  c.line(bx - 4, top + half, bx + 20, top + half, kBlack, 2);
  c.text(bx + 22, top + 10, words[1], 11);
  c.text(bx + 22, top + half + 4, words[2], 11);
  c.text(bx + 22, top + bh, words[3], 11);
  const double sy = top + bh + 16;
  c.rect(bx, sy, 16, 16, kNotFinite);
  c.text(bx + 22, sy + 12, words[4], 11);
  c.rect(bx, sy + 24, 16, 16, kUnwritten);
  c.text(bx + 22, sy + 36, words[5], 11);
}

}  // namespace

std::optional<ErrorMap> draw_error_map(const ErrorMapInput& in) {
  const size_t rank = in.shape.size();
  if ((rank != 2 && rank != 3) || in.got_shape != in.shape) return std::nullopt;
  const size_t nx = in.shape[rank - 1], ny = in.shape[rank - 2];
  const size_t nz = rank == 3 ? in.shape[0] : 1;
  const size_t per_plane = nx * ny;
  if (per_plane < 2 || nz == 0) return std::nullopt;
  const Tally t = tally(in, nz, per_plane);
  if (t.over + t.not_finite + t.unwritten == 0) return std::nullopt;
  // Nothing written at all is one fact, which the check's message says: a map of one colour
  // would add nothing to it.
  if (t.unwritten == nz * per_plane) return std::nullopt;
  const Blocks b = blocks_of(in, t.best, nx, ny);
  const MapWords w = words_of(in, t, b, nx, ny, nz);

  const double cell =
      std::clamp(std::floor(512.0 / static_cast<double>(std::max(b.cx, b.cy))), 2.0, 24.0);
  // Left of the map: j's name, then its tick labels and ticks.
  const MapPlace at{12 + text_width("j", 12) + 8 + y_ticks_width(ny, b.cy * cell) + 10, 84, cell};
  const double mw = b.cx * cell, mh = b.cy * cell;
  const double bx = at.left + mw + 28, bh = std::max(mh, 200.0);
  double bar_words = 0;
  for (const std::string& s : colour_bar_words(b.top))
    bar_words = std::max(bar_words, text_width(s, 11));
  // Wide enough for the colour bar's words and the three lines above the map.
  const int width = fitting_width(std::max(bx + 22 + bar_words + 12, 640.0),
                                  {{w.title, 15}, {w.counts, 12}, {w.outlined, 12}});
  const int height = static_cast<int>(std::max(at.top + mh + 60, at.top + bh + 84));
  ErrorMap m{Canvas(width, height)};
  m.plane = t.best;
  m.planes = nz;
  m.count = nx * ny * nz;
  m.over_bound = t.over;
  m.not_finite = t.not_finite;
  m.unwritten = t.unwritten;
  m.worst_index = t.worst.index;
  m.plane_words = w.plane;
  m.place = at;
  m.words = w.title + ". " + w.counts + "; " + w.outlined + ".";
  Canvas& c = m.canvas;
  c.text(12, 22, w.title, 15);
  c.text(12, 42, w.counts, 12, Anchor::start, kGrey);
  c.text(12, 60, w.outlined, 12, Anchor::start, kGrey);
  draw_squares(c, b, t.worst.index % per_plane, nx, at);
  draw_axes(c, b, nx, ny, at);
  draw_colour_bar(c, bx, at.top, bh, b.top);
  return m;
}

}  // namespace gpulab
