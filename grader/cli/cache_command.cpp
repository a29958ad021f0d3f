#include "cli/cache_command.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

#include "files/disk_usage.h"
#include "files/paths.h"
#include "os/exit_status.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDatasets = "datasets";
constexpr const char* kBench = "bench";
constexpr const char* kBuilds = "builds";

// A dataset entry's name: the SHA-256 of its identity, in hex (dataset_store.h).
bool is_entry_key(const std::string& name) {
  return name.size() == 64 &&
         std::all_of(name.begin(), name.end(), [](char c) { return std::isxdigit(c) != 0; });
}

std::vector<fs::path> subfolders(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec) && !it->is_symlink(type_ec) &&
        it->path().filename().string()[0] != '.')  // .locks: no data
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

CacheListing::Lab& lab_of(std::map<std::string, CacheListing::Lab>& labs, const std::string& id) {
  auto& lab = labs[id];
  lab.id = id;
  return lab;
}

}  // namespace

const std::vector<std::string>& cache_top_names() {
  static const std::vector<std::string> names = {kDatasets, kBench, kBuilds};
  return names;
}

std::string not_a_cache(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(dir, ec);
  if (!fs::exists(st)) return "";
  if (!fs::is_directory(st)) return dir.string() + " is not a folder";
  const auto& names = cache_top_names();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    const bool known = std::find(names.begin(), names.end(), name) != names.end();
    if (!known || !it->is_directory(type_ec) || it->is_symlink(type_ec))
      return dir.string() + " holds \"" + name +
             "\", which gpulab's cache never does (it holds only datasets/, bench/ and builds/): "
             "is GPULAB_CACHE_DIR right?";
  }
  if (ec) return "cannot read " + dir.string() + ": " + ec.message();
  return "";
}

CacheListing list_cache(const fs::path& dir) {
  CacheListing l;
  l.dir = dir;
  std::map<std::string, CacheListing::Lab> labs;
  for (const auto& lab_dir : subfolders(dir / kDatasets)) {
    CacheListing::Lab& lab = lab_of(labs, lab_dir.filename().string());
    for (const auto& group : subfolders(lab_dir))
      for (const auto& dataset : subfolders(group)) {
        CacheListing::Dataset d{group.filename().string(), dataset.filename().string(),
                                tree_bytes(dataset), 0};
        for (const auto& entry : subfolders(dataset))
          d.entries += is_entry_key(entry.filename().string());
        lab.datasets.push_back(d);
      }
    lab.bytes += tree_bytes(lab_dir);
  }
  for (const auto& lab_dir : subfolders(dir / kBench))
    lab_of(labs, lab_dir.filename().string()).bytes += tree_bytes(lab_dir);
  for (const auto& lab_dir : subfolders(dir / kBuilds)) {
    CacheListing::Lab& lab = lab_of(labs, lab_dir.filename().string());
    lab.builds_bytes = tree_bytes(lab_dir);
    lab.bytes += lab.builds_bytes;
    for (const auto& entry : subfolders(lab_dir))
      lab.builds += is_entry_key(entry.filename().string());
  }
  for (auto& [id, lab] : labs) {
    l.bytes += lab.bytes;
    l.labs.push_back(std::move(lab));
  }
  return l;
}

void print_cache(const CacheListing& l, std::ostream& out) {
  out << "dataset cache: " << l.dir.string() << " (GPULAB_CACHE_DIR moves it)\n";
  if (l.labs.empty()) {
    out << "empty: gpulab run, grade and bench make the datasets they need here, and keep "
           "the runners they build\n";
    return;
  }
  out << "total " << human_bytes(l.bytes) << "\n";
  size_t width = 0;
  for (const auto& lab : l.labs)
    for (const auto& d : lab.datasets) width = std::max(width, d.group.size() + d.name.size() + 1);
  for (const auto& lab : l.labs) {
    out << lab.id << ": " << human_bytes(lab.bytes) << "\n";
    for (const auto& d : lab.datasets) {
      const std::string name = d.group + "/" + d.name;
      out << "  " << name << std::string(width - name.size() + 2, ' ') << human_bytes(d.bytes);
      // Each generator version and each hidden seed keeps its own entry.
      if (d.entries > 1) out << " (" << d.entries << " entries)";
      out << "\n";
    }
    if (lab.builds)
      out << "  " << lab.builds << " runner build" << (lab.builds == 1 ? "" : "s")
          << " kept by content (build_cache.h): " << human_bytes(lab.builds_bytes) << "\n";
  }
  out << "clear it with: gpulab cache --clear [--lab LAB] (while no grading runs)\n";
}

uint64_t clear_cache(const fs::path& dir, const std::string& lab) {
  if (const std::string why = not_a_cache(dir); !why.empty())
    throw std::runtime_error("not clearing " + dir.string() + ": " + why);
  if (!lab.empty() && (lab == "." || lab == ".." || lab.find('/') != std::string::npos))
    throw std::runtime_error("\"" + lab + "\" is not a lab id");
  if (!lab.empty() && !fs::exists(dir / kDatasets / lab) && !fs::exists(dir / kBench / lab) &&
      !fs::exists(dir / kBuilds / lab)) {
    std::vector<std::string> cached;
    for (const auto& l : list_cache(dir).labs) cached.push_back(l.id);
    if (cached.empty()) throw std::runtime_error("the dataset cache " + dir.string() + " is empty");
    throw std::runtime_error(unknown_name("cached lab", lab, cached));
  }
  uint64_t freed = 0;
  for (const auto& top : cache_top_names()) {
    const fs::path target = lab.empty() ? dir / top : dir / top / lab;
    freed += tree_bytes(target);
    fs::remove_all(target);
  }
  return freed;
}

int cache_command(bool clear, const std::string& lab, std::ostream& out) {
  const fs::path dir = Paths::current().cache_dir();
  if (!clear) {
    if (!lab.empty()) throw std::runtime_error("--lab goes with --clear");
    print_cache(list_cache(dir), out);
    return kExitOk;
  }
  const uint64_t freed = clear_cache(dir, lab);
  out << "cleared "
      << (lab.empty() ? "the dataset cache " : "lab " + lab + " from the dataset cache ")
      << dir.string() << ": " << human_bytes(freed) << " freed\n";
  return kExitOk;
}

}  // namespace gpulab
