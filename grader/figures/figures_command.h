// gpulab figures: a lab's handout figures (figures.h), each as <name>.svg and <name>.png, into
// handouts/figures/<lab>/ of the gpulab tree (where the handout links them) or --out.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace gpulab {

struct FiguresOptions {
  std::string lab;
  std::filesystem::path out;  // empty: handouts/figures/<lab>/ of the source tree
};

// The labs of the tree at `source` that have figures: drawn from data, or bench plots.
std::vector<std::string> labs_with_figures(const std::filesystem::path& source);

// Writes the figures, a line per file to `out`, then a line for each bench plot it could not
// draw for want of its record (sweep_figures: the student kit's case). Throws
// std::runtime_error for a lab without figures (naming those with), or where none could be
// drawn.
int figures_command(const FiguresOptions& o, std::ostream& out);

}  // namespace gpulab
