// A plain-text table for the terminal, its columns as wide as their widest cell, so a long
// part or dataset name widens its column instead of shifting the ones after it.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

struct TextColumn {
  std::string heading;
  bool right = false;  // numbers: aligned right
};

// The heading line and a line per row (each as many cells as columns), every line indented by
// two spaces, cells two spaces apart; cells are made safe for the terminal (safe_text.h).
std::string text_table(const std::vector<TextColumn>& columns,
                       const std::vector<std::vector<std::string>>& rows);

}  // namespace gpulab
