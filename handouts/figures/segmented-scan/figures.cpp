// segmented-scan.md's figure: the segmented Brent–Kung scan of the 8-element example with heads
// at 0, 3 and 7, traced level by level (families/scan/figures/, shared with scan's figure).
#include "figures/figures.h"

#include "scan/figures/trace_figure.h"

namespace gpulab {

namespace {

std::vector<Figure> segmented_scan_figures(const LabConfig&, const std::filesystem::path&) {
  return {
      {"segmented-brent-kung",
       draw_trace(segmented_brent_kung_trace(kTraceExample, kTraceHeads),
                  "Segmented Brent-Kung scan, heads at 0, 3, 7 (red corner: flag f set)", true)}};
}

}  // namespace

GPULAB_FIGURES("segmented-scan", segmented_scan_figures);

}  // namespace gpulab
