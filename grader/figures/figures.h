// The handouts' figures, drawn from gpulab's own code and data: the scan traces
// (scan_trace.h) and histogram's sort and find-starts trace (find_starts_trace.h); binning's
// occupancy and neighbour offsets from a public dataset's atoms; from the oracles' expected
// outputs, scatter-gather's potential, histogram's skewed counts, particle-grid's cell counts
// and neighbour-list lengths; and each lab's bench plots from their records (bench_record.h).
// `gpulab figures` (figures_command.h) writes each as SVG and PNG.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "files/paths.h"
#include "lab/lab_config.h"
#include "plot/figure_canvas.h"

namespace gpulab {

struct Figure {
  std::string name;  // the files' stem: <name>.svg, <name>.png
  Canvas canvas;
};

std::vector<Figure> scan_figures();
std::vector<Figure> segmented_scan_figures();
// `work` is an empty folder the datasets are generated into.
std::vector<Figure> binning_figures(const LabConfig& lab, const std::filesystem::path& work);
std::vector<Figure> histogram_figures(const LabConfig& lab, const std::filesystem::path& work);
std::vector<Figure> particle_grid_figures(const LabConfig& lab, const std::filesystem::path& work);
std::vector<Figure> scatter_gather_figures(const LabConfig& lab, const std::filesystem::path& work);
// A plot per bench sweep of the lab (lab.json's bench_sweeps), from its record in docs/bench/
// (bench_record.h). A sweep whose record is not there is not drawn, and `not_drawn` gets a line
// saying what it needs: the student kit ships no docs/ (the records are the instructor's GPU
// measurements; the handouts' plots drawn from them ship). Throws where a record is there but
// does not match the sweep.
std::vector<Figure> sweep_figures(const LabConfig& lab, const Paths& paths,
                                  std::vector<std::string>& not_drawn);

// A public dataset of the lab, its inputs and the oracle's expected outputs, generated as a
// grading does (dataset_store.h) into a cache under `work`. Throws std::runtime_error when the
// lab has no such dataset.
struct GeneratedDataset {
  const DatasetSpec* spec;
  std::filesystem::path input, expected;
};
GeneratedDataset generate_public_dataset(const LabConfig& lab, const std::string& name,
                                         const std::filesystem::path& work);

// The neighbour offsets of binning.md section 3 along one axis and in 3-D: a tile's points span
// [a, a + extent] from its base bin's low face; offset o's bin spans [o·B, (o+1)·B].
struct OffsetRange {
  int lo, hi;  // the offsets the stretch from rc below to rc above the points touches
};
OffsetRange offset_range(double cutoff, double bin, double a, double extent);
// The distance along one axis from the tile's points to the bin at offset o.
double offset_gap(int o, double bin, double a, double extent);

}  // namespace gpulab
