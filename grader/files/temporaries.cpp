#include "files/temporaries.h"

#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "files/remove_tree.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

std::mutex registry_mutex;
std::set<fs::path>& registry() {
  static std::set<fs::path> paths;
  return paths;
}

// A writer in another thread may still create files in the folder while it is removed, and on
// a machine of many cores it can outpace the removal. So a folder is first renamed out of its
// path, at once and whole: the writer names its files by that path and can add none after. What
// is left is removed at leisure.
bool remove_now(const fs::path& path) {
  static std::atomic<unsigned> renames{0};
  std::error_code ec;
  fs::path target = path;
  if (fs::is_directory(fs::symlink_status(path, ec))) {
    fs::path away = path;
    away += ".removing-" + std::to_string(getpid()) + "-" + std::to_string(renames++);
    fs::rename(path, away, ec);
    if (!ec) target = away;
  }
  for (int attempt = 0; attempt < 50; ++attempt) {
    remove_tree(target);                    // never throws, nor follows a link (remove_tree.h)
    if (target != path) remove_tree(path);  // made again meanwhile
    if (!fs::exists(fs::symlink_status(target, ec)) && !fs::exists(fs::symlink_status(path, ec)))
      return true;
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
