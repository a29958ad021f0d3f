#include "sandbox/library_closure.h"

#include <cstdlib>
#include <deque>
#include <set>

#include "sandbox/elf_dynamic.h"
#include "sandbox/ld_so_cache.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// Debian's multiarch directory names (the loader's own system directories come first there).
#if defined(__x86_64__)
constexpr const char* kMultiarch = "x86_64-linux-gnu";
#elif defined(__aarch64__)
constexpr const char* kMultiarch = "aarch64-linux-gnu";
#elif defined(__powerpc64__)
constexpr const char* kMultiarch = "powerpc64le-linux-gnu";
#else
constexpr const char* kMultiarch = "";
#endif

// One object the loader has loaded.
struct Object {
  fs::path origin;  // $ORIGIN: the directory it was opened from
  ElfDynamic dyn;
  int loader = -1;  // the object whose DT_NEEDED brought it in; -1 for the first
};

// An object's DT_RPATH or DT_RUNPATH as the loader reads it: $ORIGIN substituted. A directory
// that is not absolute (the loader would take it from the current directory, which is the run's
// output folder) or that names another token ($LIB, $PLATFORM) is left out: nothing is bound for
// it, so a library found only there fails to load in the sandbox rather than being guessed at.
std::vector<fs::path> expand(const std::vector<std::string>& dirs, const fs::path& origin) {
  std::vector<fs::path> out;
  for (std::string d : dirs) {
    for (const char* token : {"${ORIGIN}", "$ORIGIN"})
      for (size_t at; (at = d.find(token)) != std::string::npos;)
        d.replace(at, std::char_traits<char>::length(token), origin.string());
    if (d.find('$') == std::string::npos && fs::path(d).is_absolute()) out.emplace_back(d);
  }
  return out;
}

class Loader {
 public:
  Loader(const LibrarySearch& search, uint16_t machine) : search_(search), machine_(machine) {}

  // Reads the object opened at `opened`, loaded for object `loader`; its index.
  int add(const fs::path& opened, int loader) {
    objects_.push_back({opened.parent_path(), read_elf_dynamic(opened), loader});
    return static_cast<int>(objects_.size()) - 1;
  }
  const Object& operator[](int i) const { return objects_[static_cast<size_t>(i)]; }

  // The paths the loader may open for `name`, asked for by object `requester` (ld.so(8), and
  // glibc's _dl_map_object): one, or each of the cache's builds; empty where none is found.
  std::vector<fs::path> find(const std::string& name, int requester) const {
    if (name.find('/') != std::string::npos) {
      if (fs::path(name).is_absolute() && fits(name)) return {fs::path(name).lexically_normal()};
      return {};
    }
    const Object& r = (*this)[requester];
    // DT_RPATH of the requester, then of each object that brought it in, where it has no
    // DT_RUNPATH; LD_LIBRARY_PATH; its own DT_RUNPATH.
    if (r.dyn.runpath.empty())
      for (int l = requester; l >= 0; l = (*this)[l].loader)
        if (auto p = in_dirs(name, expand((*this)[l].dyn.rpath, (*this)[l].origin))) return {*p};
    if (auto p = in_dirs(name, search_.library_path)) return {*p};
    if (auto p = in_dirs(name, expand(r.dyn.runpath, r.origin))) return {*p};
    if (r.dyn.no_default_lib) return {};
    std::vector<fs::path> cached;
    for (const auto& [entry, path] : search_.cache)
      if (entry == name && fits(path)) cached.push_back(path);
    if (!cached.empty()) return cached;
    if (auto p = in_dirs(name, search_.system_dirs)) return {*p};
    return {};
  }

 private:
  bool fits(const fs::path& p) const { return elf64_machine(p) == machine_; }
  std::optional<fs::path> in_dirs(const std::string& name,
                                  const std::vector<fs::path>& dirs) const {
    for (const fs::path& d : dirs)
      if (fits(d / name)) return (d / name).lexically_normal();
    return std::nullopt;
  }

  const LibrarySearch& search_;
  uint16_t machine_;
  std::deque<Object> objects_;
};

LoadedFile loaded(const std::string& name, const fs::path& opened) {
  return {name, opened, fs::canonical(opened)};
}

}  // namespace

LibrarySearch LibrarySearch::current() {
  LibrarySearch s;
  // glibc splits LD_LIBRARY_PATH at ':' and ';'; an empty entry would be the current directory.
  if (const char* env = std::getenv("LD_LIBRARY_PATH")) {
    std::string dir;
    for (const char* c = env;; ++c) {
      if (*c == ':' || *c == ';' || *c == '\0') {
        if (fs::path(dir).is_absolute() && dir.find('$') == std::string::npos)
          s.library_path.emplace_back(dir);
        dir.clear();
        if (*c == '\0') break;
      } else {
        dir += *c;
      }
    }
  }
  s.cache = read_ld_so_cache();
  if (*kMultiarch) {
    s.system_dirs.push_back(fs::path("/lib") / kMultiarch);
    s.system_dirs.push_back(fs::path("/usr/lib") / kMultiarch);
  }
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) s.system_dirs.emplace_back(d);
  return s;
}

LibraryClosure library_closure(const fs::path& object, const LibrarySearch& search) {
  LibraryClosure out;
  const fs::path program = fs::canonical(object);
  Loader loader(search, elf64_machine(program).value_or(0));
  std::deque<int> queue = {loader.add(program, -1)};  // throws where it is no ELF file
  const ElfDynamic& root = loader[queue.front()].dyn;
  // Loaded already: the loader reuses an object asked for by its file's name or its soname.
  std::set<std::string> names = {root.soname};
  std::set<fs::path> files = {program};
  if (!root.interpreter.empty()) {
    out.files.push_back(loaded(root.interpreter, root.interpreter));
    files.insert(out.files.back().file);
    // The loader is loaded first, under its soname and its file's name.
    names.insert(fs::path(root.interpreter).filename().string());
    names.insert(read_elf_dynamic(root.interpreter).soname);
  }
  // Breadth first, as the loader loads a program's dependencies.
  while (!queue.empty()) {
    const int at = queue.front();
    queue.pop_front();
    for (const std::string& name : loader[at].dyn.needed) {
      if (!names.insert(name).second) continue;
      const std::vector<fs::path> found = loader.find(name, at);
      if (found.empty()) out.missing.push_back(name);
      for (const fs::path& opened : found) {
        out.files.push_back(loaded(name, opened));
        if (!files.insert(out.files.back().file).second) continue;
        queue.push_back(loader.add(opened, at));
        names.insert(loader[queue.back()].dyn.soname);
      }
    }
  }
  return out;
}

std::vector<LoadedFile> find_library(const std::string& name, const fs::path& requester,
                                     const LibrarySearch& search) {
  Loader loader(search, elf64_machine(requester).value_or(0));
  std::vector<LoadedFile> out;
  for (const fs::path& opened : loader.find(name, loader.add(fs::canonical(requester), -1)))
    out.push_back(loaded(name, opened));
  return out;
}

}  // namespace gpulab
