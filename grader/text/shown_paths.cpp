#include "text/shown_paths.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

bool is_archive(const fs::path& p) {
  const std::string name = p.filename().string();
  for (const char* ext : {".zip", ".tar.gz", ".tgz"}) {
    const std::string e = ext;
    if (name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      return true;
  }
  return false;
}

// `dir` relative to `cwd` where it lies inside it ("labs/scan"), else as given.
std::string shown_folder(const fs::path& dir, const fs::path& cwd) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(dir, ec);
  if (!ec && !cwd.empty()) {
    const fs::path rel = absolute.lexically_normal().lexically_relative(cwd.lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") return rel == "." ? "" : rel.string() + "/";
  }
  const std::string s = dir.string();
  return s.empty() || s.back() == '/' ? s : s + "/";
}

}  // namespace

std::string shown_submission_prefix(const fs::path& submission, const fs::path& cwd) {
  if (fs::is_directory(submission)) return shown_folder(submission, cwd);
  if (is_archive(submission)) return "";
  return submission.has_parent_path() ? shown_folder(submission.parent_path(), cwd) : "";
}

std::string with_student_paths(std::string text, const fs::path& staged, const std::string& shown) {
  std::string from = staged.lexically_normal().string();
  if (from.empty()) return text;
  if (from.back() != '/') from += '/';
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + shown.size())) {
    text.replace(at, from.size(), shown);
  }
  return text;
}

}  // namespace gpulab
