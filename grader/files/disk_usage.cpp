#include "files/disk_usage.h"

#include <cstdio>

namespace gpulab {

namespace fs = std::filesystem;

uint64_t tree_bytes(const fs::path& path) {
  std::error_code ec;
  const fs::file_status top = fs::symlink_status(path, ec);
  if (ec) return 0;
  if (fs::is_regular_file(top)) {
    const auto size = fs::file_size(path, ec);
    return ec ? 0 : size;
  }
  if (!fs::is_directory(top)) return 0;
  uint64_t total = 0;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (!it->is_regular_file(file_ec) || it->is_symlink(file_ec)) continue;
    const auto size = it->file_size(file_ec);
    if (!file_ec) total += size;
  }
  return total;
}

std::string human_bytes(uint64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  const char* const units[] = {"kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes) / 1000;
  size_t unit = 0;
  while (value >= 999.95 && unit + 1 < std::size(units)) {
    value /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace gpulab
