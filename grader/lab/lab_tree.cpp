#include "lab/lab_tree.h"

namespace gpulab {

namespace fs = std::filesystem;

std::optional<fs::path> lab_folder_above(const fs::path& cwd, const std::string& lab) {
  if (lab.empty() || lab.find('/') != std::string::npos || lab == "." || lab == "..")
    return std::nullopt;
  std::error_code ec;
  fs::path dir = fs::absolute(cwd, ec).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "/a/b/" names /a/b
  if (ec) return std::nullopt;
  for (;; dir = dir.parent_path()) {
    const fs::path folder = dir / "labs" / lab;
    std::error_code unreadable;  // a folder closed to this user holds no tree: look further up
    if (fs::is_regular_file(folder / "lab.json", unreadable)) return folder;
    if (!dir.has_relative_path()) return std::nullopt;  // the root
  }
}

StudentLabFolder student_lab_folder(const fs::path& cwd, const std::string& lab,
                                    const fs::path& fallback) {
  if (auto found = lab_folder_above(cwd, lab)) return {*found, true};
  return {fallback, false};
}

}  // namespace gpulab
