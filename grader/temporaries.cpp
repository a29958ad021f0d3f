#include "temporaries.h"

#include <mutex>
#include <set>
#include <thread>

#include "remove_tree.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

std::mutex registry_mutex;
std::set<fs::path>& registry() {
  static std::set<fs::path> paths;
  return paths;
}

// A writer in another thread may still create files in the folder while it is removed (the
// removal then leaves a folder not empty): it cannot once the folder itself is gone.
bool remove_now(const fs::path& path) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    remove_tree(path);  // never throws, nor follows a link (remove_tree.h)
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

Temporary::Temporary(fs::path path) : path_(std::move(path)) {
  const std::lock_guard<std::mutex> lock(registry_mutex);
  registry().insert(path_);
}

Temporary::~Temporary() {
  const std::lock_guard<std::mutex> lock(registry_mutex);
  registry().erase(path_);
  if (!released_) remove_now(path_);
}

void Temporary::rename_to(const fs::path& to) {
  fs::rename(path_, to);  // throws, and the destructor removes it, when it cannot
  released_ = true;
}

int remove_temporaries() {
  const std::lock_guard<std::mutex> lock(registry_mutex);
  int removed = 0;
  for (const auto& path : registry()) {
    std::error_code ec;
    const bool was_there = fs::exists(fs::symlink_status(path, ec));
    if (remove_now(path) && was_there) ++removed;
  }
  registry().clear();
  return removed;
}

}  // namespace gpulab
