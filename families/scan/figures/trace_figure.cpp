#include "trace_figure.h"

namespace gpulab {

namespace {

constexpr double kLeft = 96, kTop = 48, kPitchX = 56, kPitchY = 58, kCellW = 44, kCellH = 26;
constexpr Rgb kUp{255, 214, 170}, kDown{190, 215, 245}, kHead{170, 30, 40};

}  // namespace

Canvas draw_trace(const std::vector<TraceLevel>& levels, const std::string& title,
                  bool with_flags) {
  const size_t m = levels.front().values.size();
  Canvas c(fitting_width(kLeft + m * kPitchX + 12, {{title, 15}}),
           static_cast<int>(kTop + levels.size() * kPitchY + 8));
  c.text(12, 22, title, 15);
  for (size_t k = 0; k < m; ++k)
    c.text(kLeft + k * kPitchX + kCellW / 2, kTop - 8, "[" + std::to_string(k) + "]", 11,
           Anchor::middle, kGrey);
  bool down = false;
  for (size_t r = 0; r < levels.size(); ++r) {
    const TraceLevel& lv = levels[r];
    if (lv.label == "clear root") down = true;
    const double y = kTop + r * kPitchY;
    c.text(12, y + 18, lv.label, 13);
    for (const auto& [from, to] : lv.reads)
      c.line(kLeft + from * kPitchX + kCellW / 2, y - kPitchY + kCellH,
             kLeft + to * kPitchX + kCellW / 2, y, kGrey, 1.5);
    for (size_t k = 0; k < m; ++k) {
      bool changed = false;
      for (int w : lv.changed) changed |= static_cast<size_t>(w) == k;
      const double x = kLeft + k * kPitchX;
      c.rect(x, y, kCellW, kCellH, changed ? (down ? kDown : kUp) : kWhite, kBlack);
      c.text(x + kCellW / 2, y + 18, std::to_string(lv.values[k]), 13, Anchor::middle);
      if (with_flags && lv.flags[k]) c.rect(x + kCellW - 9, y + 1, 8, 8, kHead);
    }
  }
  return c;
}

}  // namespace gpulab
