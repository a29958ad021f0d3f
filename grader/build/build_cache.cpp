#include "build/build_cache.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/grade_phases.h"
#include "files/file_lock.h"
#include "files/regular_file.h"
#include "files/remove_tree.h"
#include "files/secret.h"
#include "files/temporaries.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The entry's format: a change to what a key covers or an entry holds starts afresh.
constexpr int kFormat = 1;
// Stand-ins, in a kept entry, for the folders that change from one grading to the next.
constexpr const char* kSrcMark = "<submission>";
constexpr const char* kWorkMark = "<build>";

// The most a file a key or an entry covers may hold: far above any header or student file (CUB's
// largest header is about 100 kB), far below what would hold a grading up. The compiler's list
// names what the student's code made it read, as the sandbox showed it: anything but a regular
// file there (a FIFO, a device, /proc) is not read here, and the build is not kept.
constexpr std::uintmax_t kHashedFileLimit = std::uintmax_t{64} << 20;

std::optional<std::string> file_sha256(const fs::path& path) {
  const std::optional<std::string> bytes = read_regular_file(path, kHashedFileLimit);
  if (!bytes) return std::nullopt;
  return to_hex(sha256(*bytes));
}

// A file gpulab's build or the toolkit made: its size and modification time, which a rebuild or
// an upgrade changes (hashing nvcc's 30 MB on every grading would cost more than it tells).
json stamp(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return nullptr;
  const auto when = fs::last_write_time(path, ec);
  if (ec) return nullptr;
  return {{"path", path.string()},
          {"size", size},
          {"mtime", static_cast<long long>(when.time_since_epoch().count())}};
}

// `text` with every `from` (a folder's path, or its stand-in) written as `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

struct Folders {
  std::string src, work;
  std::string kept(std::string s) const {
    return replaced(replaced(std::move(s), work, kWorkMark), src, kSrcMark);
  }
  std::string here(std::string s) const {
    return replaced(replaced(std::move(s), kWorkMark, work), kSrcMark, src);
  }
};

// The key's text: everything but the headers. nullopt where a file it covers cannot be read
// (the build then says what is missing).
std::optional<std::string> build_key(const RunnerRecipe& recipe, const LabConfig& lab,
                                     const fs::path& src_dir) {
  json k = {{"format", kFormat}, {"lab", lab.id}, {"backend", backend_name(recipe.backend)}};
  const std::optional<std::string> lab_json = file_sha256(lab.dir / "lab.json");
  if (!lab_json) return std::nullopt;
  k["lab.json"] = *lab_json;
  k["compiler"] = stamp(recipe.compiler);
  k["cxx_standard"] = recipe.cxx_standard;
  k["arch_flags"] = recipe.arch_flags;
  k["nvcc_flags"] = recipe.nvcc_flags;
  json includes = json::array();
  for (const fs::path& d : recipe.include_dirs) includes.push_back(d.string());
  k["include_dirs"] = includes;
  json archives = json::array();
  for (const LinkedArchive& a : recipe.link_whole) archives.push_back({a.role, stamp(a.path)});
  k["link_whole"] = archives;
  json files = json::object();
  for (const std::string& f : lab.student_files) {
    const std::optional<std::string> h = file_sha256(src_dir / f);
    if (!h) return std::nullopt;
    files[f] = *h;
  }
  k["files"] = files;
  return to_hex(sha256(k.dump()));
}

// Where `header`, as the compiler printed it, is on this side of the sandbox (the same paths:
// build_sandbox mounts each folder at its own place), relative ones from the build's folder.
fs::path header_path(const std::string& header, const fs::path& work_dir) {
  const fs::path p(header);
  return p.is_absolute() ? p : work_dir / p;
}

// The kept entry `dir` as a build in `work_dir`, or nullopt where it is missing, unreadable or
// no longer valid (a header changed).
std::optional<BuildResult> kept_build(const fs::path& dir, const Folders& folders,
                                      const fs::path& work_dir) {
  const std::optional<std::string> text = read_regular_file(dir / "entry.json", kHashedFileLimit);
  if (!text) return std::nullopt;
  const json entry = json::parse(*text, nullptr, false);
  if (!entry.is_object() || entry.value("format", 0) != kFormat) return std::nullopt;
  const auto headers = entry.find("headers");
  const auto commands = entry.find("commands");
  if (headers == entry.end() || !headers->is_array() || commands == entry.end() ||
      !commands->is_array())
    return std::nullopt;
  for (const json& h : *headers) {
    if (!h.is_array() || h.size() != 2 || !h[0].is_string() || !h[1].is_string())
      return std::nullopt;
    const std::optional<std::string> now =
        file_sha256(header_path(folders.here(h[0].get<std::string>()), work_dir));
    if (!now || *now != h[1].get<std::string>()) return std::nullopt;
  }
  BuildResult b;
  for (const json& c : *commands) {
    if (!c.is_array()) return std::nullopt;
    std::vector<std::string> cmd;
    for (const json& arg : c) {
      if (!arg.is_string()) return std::nullopt;
      cmd.push_back(folders.here(arg.get<std::string>()));
    }
    b.commands.push_back(std::move(cmd));
  }
  remove_tree_or_throw(work_dir);
  fs::create_directories(work_dir);
  b.runner = work_dir / "runner";
  std::error_code ec;
  fs::copy_file(dir / "runner", b.runner, ec);
  if (ec) return std::nullopt;
  fs::permissions(b.runner,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                      fs::perms::others_read | fs::perms::others_exec,
                  ec);
  b.ok = true;
  b.kept = true;
  // Its last use, for the least-recently-used pruning.
  fs::last_write_time(dir, fs::file_time_type::clock::now(), ec);
  return b;
}

// Keeps the lab's newest kKeptBuildsPerLab entries (by last use), removing the rest.
void prune(const fs::path& lab_dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  std::error_code ec;
  for (fs::directory_iterator it(lab_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name.empty() || name[0] == '.' || !it->is_directory(type_ec)) continue;
    entries.push_back({fs::last_write_time(it->path(), type_ec), it->path()});
  }
  if (entries.size() <= static_cast<size_t>(kKeptBuildsPerLab)) return;
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a > b; });
  for (size_t i = kKeptBuildsPerLab; i < entries.size(); ++i) remove_tree(entries[i].second);
}

// Keeps `b` (built in `work_dir` from `src_dir`) as `dir`. What cannot be kept is not: the
// grading goes on with the build it has.
void keep_build(const BuildResult& b, const std::vector<std::string>& headers,
                const Folders& folders, const fs::path& dir, const fs::path& work_dir) {
  json listed = json::array();
  for (const std::string& h : headers) {
    const std::optional<std::string> sha = file_sha256(header_path(h, work_dir));
    if (!sha) return;  // a header that cannot be read again cannot vouch for the entry
    listed.push_back({folders.kept(h), *sha});
  }
  json commands = json::array();
  for (const auto& cmd : b.commands) {
    json c = json::array();
    for (const std::string& arg : cmd) c.push_back(folders.kept(arg));
    commands.push_back(c);
  }
  const json entry = {{"format", kFormat}, {"headers", listed}, {"commands", commands}};
  const FileLock lock(dir.parent_path() / ".locks" / (dir.filename().string() + ".lock"));
  Temporary tmp(dir.parent_path() /
                ("." + dir.filename().string() + ".tmp" + std::to_string(getpid())));
  remove_tree(tmp.path());
  fs::create_directories(tmp.path());
  fs::copy_file(b.runner, tmp.path() / "runner");
  std::ofstream(tmp.path() / "entry.json") << entry.dump(1) << "\n";
  remove_tree_or_throw(dir);  // one entry per key: a header changed since the last one
  tmp.rename_to(dir);
  prune(dir.parent_path());
}

}  // namespace

BuildResult build_runner_kept(const LabConfig& lab, const Paths& paths, const fs::path& src_dir,
                              const fs::path& work_dir, Backend backend, const Sandbox& sandbox,
                              double timeout_s) {
  const RunnerRecipe recipe = load_recipe(paths, lab, backend);
  const Folders folders{fs::absolute(src_dir).lexically_normal().string(),
                        fs::absolute(work_dir).lexically_normal().string()};
  const std::optional<std::string> key = build_key(recipe, lab, src_dir);
  const fs::path dir = paths.cache_dir() / "builds" / lab.id / key.value_or("");
  if (key) {
    const ScopedPhase phase(GradePhase::kBuild);
    try {
      if (std::optional<BuildResult> b = kept_build(dir, folders, work_dir)) return *b;
    } catch (const std::exception&) {
      // An entry another grading is replacing, say: built afresh below.
    }
  }
  BuildResult b =
      build_runner(recipe, lab, paths, src_dir, work_dir, sandbox, RecipeUse::student, timeout_s);
  if (!b.ok || !key) return b;
  const ScopedPhase phase(GradePhase::kBuild);
  try {
    if (const auto headers =
            headers_read(recipe, lab, paths, src_dir, work_dir, sandbox, timeout_s))
      keep_build(b, *headers, folders, dir, work_dir);
  } catch (const std::exception&) {
    // Not kept (a full disk, a cache folder not writable): the next grading builds again.
  }
  return b;
}

}  // namespace gpulab
