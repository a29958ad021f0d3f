#include "files/content_hash.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace gpulab {

namespace fs = std::filesystem;

namespace {

class Fnv1a64 {
 public:
  void add(const char* data, size_t n) {
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ static_cast<unsigned char>(data[i])) * kPrime;
  }
  // A field with its length first, so ("ab", "c") and ("a", "bc") differ.
  void add_field(const std::string& s) {
    const uint64_t n = s.size();
    add(reinterpret_cast<const char*>(&n), sizeof n);
    add(s.data(), s.size());
  }
  void add_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) add(buf, static_cast<size_t>(in.gcount()));
  }
  std::string hex() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  static constexpr uint64_t kPrime = 1099511628211ull;
  uint64_t h_ = 14695981039346656037ull;
};

}  // namespace

std::string content_hash_of_bytes(std::string_view bytes) {
  Fnv1a64 h;
  h.add_field("file");
  h.add(bytes.data(), bytes.size());
  return h.hex();
}

std::string content_hash(const fs::path& path) {
  Fnv1a64 h;
  const fs::file_status top = fs::symlink_status(path);
  if (!fs::exists(top))
    throw std::runtime_error("the submission " + path.string() + " does not exist");
  if (!fs::is_directory(top)) {
    h.add_field("file");
    h.add_file(path);
    return h.hex();
  }
  std::vector<fs::path> entries;
  for (auto it = fs::recursive_directory_iterator(path); it != fs::recursive_directory_iterator();
       ++it)
    entries.push_back(it->path());
  std::sort(entries.begin(), entries.end());
  for (const auto& e : entries) {
    h.add_field(fs::relative(e, path).generic_string());
    const fs::file_status s = fs::symlink_status(e);
    if (fs::is_symlink(s)) {
      h.add_field("link");
      h.add_field(fs::read_symlink(e).string());
    } else if (fs::is_directory(s)) {
      h.add_field("dir");
    } else if (fs::is_regular_file(s)) {
      h.add_field("file");
      h.add_file(e);
    } else {
      h.add_field("other");
    }
  }
  return h.hex();
}

}  // namespace gpulab
