// histogram.md's figures: the bin counts of the skewed public dataset (the oracle's expected
// output) on a log axis against the level uniform keys would give, and a traced sort and
// find-starts on a small example (find_starts_trace.h) with its empty bins.
#include "figures/figures.h"

#include <algorithm>
#include <iterator>

#include "find_starts_trace.h"
#include "npy.h"
#include "plot/bar_chart.h"
#include "text/number_text.h"

namespace gpulab {

namespace {

constexpr Rgb kFlag{170, 30, 40};

Figure skewed_counts(const LabConfig& lab, const std::filesystem::path& work) {
  const std::string name = "skewed-100003-1024";
  const GeneratedDataset ds = generate_public_dataset(lab, name, work);
  const NpyArray counts = read_npy(ds.expected / "counts.npy", DType::i32);
  const int32_t* c = counts.as<int32_t>();
  BarChart chart;
  chart.left = 70;
  chart.top = 76;
  chart.width = static_cast<double>(counts.count());  // a pixel a bin
  chart.height = 300;
  chart.values.assign(c, c + counts.count());
  chart.log_scale = true;
  chart.label_every = 128;
  chart.x_label = [](size_t k) { return std::to_string(k); };
  chart.x_title = "bin";
  chart.y_title = "keys";
  long long n = 0;
  for (long long v : chart.values) n += v;
  const double level = static_cast<double>(n) / static_cast<double>(counts.count());
  // The bins above the uniform level, and the last eighth of the bins: the two ends.
  long long above = 0, keys_above = 0, keys_last = 0;
  const size_t last = chart.values.size() - chart.values.size() / 8;
  for (size_t b = 0; b < chart.values.size(); ++b) {
    const long long v = chart.values[b];
    above += v > level;
    keys_above += v > level ? v : 0;
    keys_last += b >= last ? v : 0;
  }
  const long long first = chart.values.front();

  Canvas canvas(static_cast<int>(chart.left + chart.width + 40),
                static_cast<int>(chart.top + chart.height + 56));
  canvas.text(12, 22,
              "histogram, dataset " + name + ": keys per bin (the oracle's counts), log scale", 15);
  canvas.text(12, 42,
              "bin 0 holds " + std::to_string(first) + " of the " + std::to_string(n) + " keys (" +
                  decimal_text(100.0 * first / n, 1) + "%): " + std::to_string(first) +
                  " atomicAdds on one counter, one after another",
              12, Anchor::start, kGrey);
  canvas.text(
      12, 58,
      std::to_string(above) + " of the " + std::to_string(chart.values.size()) +
          " bins are above the uniform level and hold " + decimal_text(100.0 * keys_above / n, 1) +
          "% of the keys; bins " + std::to_string(last) + " and up hold " +
          decimal_text(
              static_cast<double>(keys_last) / static_cast<double>(chart.values.size() - last), 1) +
          " on average",
      12, Anchor::start, kGrey);
  draw(canvas, chart);
  const double y = chart.y(level);
  canvas.line(chart.left, y, chart.left + chart.width, y, kRed, 1.5);
  canvas.text(chart.left + chart.width - 4, y - 6,
              "uniform keys: n / bins = " + decimal_text(level, 1) + " a bin", 12, Anchor::end,
              kRed);
  canvas.text(chart.x(1) + 6, chart.y(static_cast<double>(first)) + 10,
              "bin 0: " + std::to_string(first), 12, Anchor::start, kRed);
  return {"skewed-counts", canvas};
}

// 12 keys over 6 bins, bins 0, 3 and 5 empty: before the first run, between runs and after the
// last.
const std::vector<int> kKeys{4, 2, 1, 4, 4, 2, 1, 1, 4, 2, 1, 4};
constexpr int kBins = 6;

constexpr double kLeft = 150, kTop = 70, kPitch = 50, kCellW = 42, kCellH = 26, kRow = 50;
const Rgb kBinColour[] = {{255, 214, 170}, {190, 215, 245}, {200, 230, 190},
                          {235, 200, 235}, {245, 235, 160}, {215, 205, 190}};

Rgb bin_colour(int b) {
  return kBinColour[static_cast<size_t>(b) % std::size(kBinColour)];
}

Figure find_starts() {
  const FindStartsTrace t = find_starts_trace(kKeys, kBins);
  const size_t n = t.keys.size();
  const double bin_pitch = n * kPitch / (kBins + 1);
  std::string empty;
  for (int b = 0; b < kBins; ++b)
    if (t.counts[b] == 0) empty += (empty.empty() ? "" : ", ") + std::to_string(b);
  const double rows[] = {kTop, kTop + kRow, kTop + 2 * kRow, kTop + 4.2 * kRow, kTop + 5.2 * kRow};
  Canvas c(static_cast<int>(kLeft + n * kPitch + 10), static_cast<int>(rows[4] + kCellH + 46));
  c.text(12, 22,
         "Sort and find the starts: " + std::to_string(n) + " keys over " + std::to_string(kBins) +
             " bins, bins " + empty + " empty",
         15);
  c.text(12, 42,
         "red lines: boundary i (before position i) writes start[b] = i for every bin b from "
         "sorted[i-1] + 1 to sorted[i]",
         12, Anchor::start, kGrey);
  auto box = [&](double x, double y, const std::string& s, Rgb fill, Rgb outline = kBlack) {
    c.rect(x, y, kCellW, kCellH, fill, outline);
    c.text(x + kCellW / 2, y + 18, s, 13, Anchor::middle, outline == kBlack ? kBlack : outline);
  };
  const char* labels[] = {"keys", "sorted", "run starts", "start[b]", "counts[b]"};
  for (int r = 0; r < 5; ++r) c.text(12, rows[r] + 18, labels[r], 13);
  for (size_t i = 0; i < n; ++i) {
    const double x = kLeft + i * kPitch;
    c.text(x + kCellW / 2, rows[0] - 6, "[" + std::to_string(i) + "]", 11, Anchor::middle, kGrey);
    box(x, rows[0], std::to_string(t.keys[i]), bin_colour(t.keys[i]));
    box(x, rows[1], std::to_string(t.sorted[i]), bin_colour(t.sorted[i]));
    if (t.run_start[i])
      box(x, rows[2], "1", Rgb{250, 215, 215}, kFlag);
    else
      box(x, rows[2], "0", kWhite);
  }
  // The boundaries that write a start (0, each run's start, n), and what each writes.
  auto boundary_x = [&](int i) { return kLeft + i * kPitch - (kPitch - kCellW) / 2; };
  for (int b = 0; b <= kBins; ++b) {
    const double x = kLeft + b * bin_pitch, bx = boundary_x(t.start[b]);
    c.line(bx, rows[2] + kCellH + 24, x + kCellW / 2, rows[3] - 16, kFlag, 1.5);
    c.text(x + kCellW / 2, rows[3] - 4, "b = " + std::to_string(b), 11, Anchor::middle, kGrey);
    const bool empty_bin = b < kBins && t.counts[b] == 0;
    box(x, rows[3], std::to_string(t.start[b]), b == kBins || empty_bin ? kWhite : bin_colour(b),
        empty_bin ? kFlag : kBlack);
    if (b < kBins)
      box(x, rows[4], std::to_string(t.counts[b]), empty_bin ? kWhite : bin_colour(b),
          empty_bin ? kFlag : kBlack);
    if (b == kBins) c.text(x + kCellW / 2, rows[4] + 18, "(= n)", 11, Anchor::middle, kGrey);
    if (empty_bin)
      c.text(x + kCellW / 2, rows[4] + kCellH + 14, "empty", 11, Anchor::middle, kFlag);
  }
  for (int i = 0; i <= static_cast<int>(n); ++i)
    if (i == 0 || i == static_cast<int>(n) || t.run_start[i]) {
      const double x = boundary_x(i);
      c.line(x, rows[1] - 2, x, rows[2] + kCellH + 4, kFlag, 2);
      c.text(x, rows[2] + kCellH + 18, "i=" + std::to_string(i), 11, Anchor::middle, kFlag);
    }
  c.text(12, rows[4] + kCellH + 14, "= start[b+1] - start[b]", 11, Anchor::start, kGrey);
  return {"find-starts", c};
}

std::vector<Figure> histogram_figures(const LabConfig& lab, const std::filesystem::path& work) {
  return {skewed_counts(lab, work), find_starts()};
}

}  // namespace

GPULAB_FIGURES("histogram", histogram_figures);

}  // namespace gpulab
