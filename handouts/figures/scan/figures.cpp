// scan.md's figure: the Brent–Kung exclusive scan of the 8-element example, traced level by
// level (families/scan/figures/: the trace and its drawing, which segmented-scan shares).
#include "figures/figures.h"

#include "scan/figures/trace_figure.h"

namespace gpulab {

namespace {

std::vector<Figure> scan_figures(const LabConfig&, const std::filesystem::path&) {
  return {{"brent-kung", draw_trace(brent_kung_trace(kTraceExample),
                                    "Brent-Kung exclusive scan of 3 1 4 1 5 9 2 6: up-sweep "
                                    "(orange), root cleared, down-sweep (blue)",
                                    false)}};
}

}  // namespace

GPULAB_FIGURES("scan", scan_figures);

}  // namespace gpulab
