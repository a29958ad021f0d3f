// The handouts' figures, drawn from gpulab's own code and data: each lab's own drawings
// (handouts/figures/<lab>/figures.cpp, registered below), from public datasets it generates as
// a grading does and from traces of the handouts' loops, and each lab's bench plots from their
// records (bench_record.h). `gpulab figures` (figures_command.h) writes each as SVG and PNG.
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

// A lab's own figures: each lab's handouts/figures/<lab>/figures.cpp (code a family's labs
// share in families/<family>/figures/) registers its drawer with GPULAB_FIGURES, as a lab's
// generator registers with GPULAB_DATASETS, so that nothing in grader/ names a lab. `work` is
// an empty folder the datasets are generated into.
using FigureDrawer = std::vector<Figure> (*)(const LabConfig& lab,
                                             const std::filesystem::path& work);
bool register_figures(const std::string& lab, FigureDrawer draw);
// The lab's drawer, or nullptr where it draws none of its own.
FigureDrawer find_figures(const std::string& lab);

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

}  // namespace gpulab

// Registers FUNCTION as LAB's figures when the program starts (handouts/figures/<lab>/figures.cpp).
#define GPULAB_FIGURES(LAB, FUNCTION) \
  static const bool gpulab_registered_figures_ = ::gpulab::register_figures(LAB, FUNCTION)
