#include "build/linked_libraries.h"

#include <map>
#include <memory>
#include <mutex>

#include "os/process.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// nm's listing of a large library (libcudart_static.a, libstdc++) is a few hundred KB.
constexpr size_t kLibraryListingLimit = size_t{64} << 20;

// Where the host compiler finds a library by file name, as its link would: nvcc and
// gpulab-sim-cc both link with g++. Empty when it finds none (g++ then prints the bare name).
fs::path host_library(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, fs::path> found;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = found.find(name); it != found.end()) return it->second;
  ProcessOptions po;
  po.argv = {"g++", "-print-file-name=" + name};
  po.timeout_s = 60;
  const ProcessResult r = run_process(po);
  std::string path = r.ok() ? r.output : "";
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
  std::error_code ec;
  fs::path result;
  if (fs::path(path).is_absolute() && fs::exists(path, ec)) result = fs::weakly_canonical(path, ec);
  return found[name] = result;
}

// The CUDA toolkit's library directory: beside nvcc's bin/ (lib64, or targets/<arch>/lib), or
// wherever g++ finds the static runtime (a distribution's toolkit under /usr).
fs::path cuda_library_dir(const fs::path& nvcc) {
  std::error_code ec;
  const fs::path root = nvcc.parent_path().parent_path();
  std::vector<fs::path> candidates = {root / "lib64"};
  if (fs::is_directory(root / "targets", ec))
    for (const auto& target : fs::directory_iterator(root / "targets", ec))
      candidates.push_back(target.path() / "lib");
  for (const auto& dir : candidates)
    if (fs::exists(dir / "libcudart_static.a", ec)) return dir;
  const fs::path found = host_library("libcudart_static.a");
  return found.empty() ? fs::path() : found.parent_path();
}

bool is_shared_library(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.find(".so") != std::string::npos;
}

}  // namespace

std::vector<LibraryFile> runner_libraries(const RunnerRecipe& recipe, std::string& missing) {
  std::vector<LibraryFile> libs;
  for (const LinkedArchive& a : recipe.link_whole)
    libs.push_back({linked_archive_description(a.role), a.path, true});
  const Backend backend = recipe.backend;
  const auto add = [&](const std::string& description, const fs::path& path, bool required,
                       const std::string& name) {
    std::error_code ec;
    if (!path.empty() && fs::exists(path, ec))
      libs.push_back({description, path, false});
    else if (required)
      missing += (missing.empty() ? "" : ", ") + name;
  };
  if (backend != Backend::sim) {
    const fs::path cuda = cuda_library_dir(recipe.compiler);
    add("the CUDA runtime", cuda.empty() ? cuda : cuda / "libcudart_static.a", true,
        "libcudart_static.a");
    add("the CUDA runtime", cuda.empty() ? cuda : cuda / "libcudart.so", false, "libcudart.so");
    // The driver API: the toolkit's stub, and the driver's own library where one is installed.
    add("the CUDA driver API", cuda.empty() ? cuda : cuda / "stubs" / "libcuda.so", false,
        "libcuda.so");
    add("the CUDA driver API", host_library("libcuda.so.1"), false, "libcuda.so.1");
  }
  // By file name, as the compiler's link finds them (libc.so itself is a linker script).
  const struct {
    const char* description;
    const char* name;
    bool required;
  } system[] = {{"the C library", "libc.so.6", true},
                {"the C math library", "libm.so.6", true},
                {"the POSIX threads library", "libpthread.so.0", false},
                {"the dynamic loading library", "libdl.so.2", false},
                {"the POSIX real-time library", "librt.so.1", false},
                {"the C++ standard library", "libstdc++.so", true},
                {"the GCC runtime library", "libgcc_s.so.1", true},
                {"the GCC runtime library", "libgcc.a", false}};
  for (const auto& s : system) add(s.description, host_library(s.name), s.required, s.name);
  return libs;
}

std::optional<LinkedLibrary> read_library(const LibraryFile& file, std::string& error) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const std::vector<NmSymbol>>> cache;
  std::error_code ec;
  const auto stamp = fs::last_write_time(file.path, ec).time_since_epoch().count();
  const std::string key = file.path.string() + "|" + std::to_string(stamp);
  std::shared_ptr<const std::vector<NmSymbol>> symbols;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) symbols = it->second;
  }
  if (!symbols) {
    ProcessOptions po;
    // A shared library's dynamic symbols are the ones a program's own definitions replace.
    po.argv = is_shared_library(file.path)
                  ? std::vector<std::string>{"nm", "-P", "-D", file.path.string()}
                  : std::vector<std::string>{"nm", "-P", file.path.string()};
    po.timeout_s = 120;
    po.output_limit = kLibraryListingLimit;
    const ProcessResult r = run_process(po);
    if (!r.ok() || r.output_truncated) {
      error = "nm could not list the symbols of " + file.path.string() + " (it " +
              (r.output_truncated ? "printed too much" : r.describe()) +
              "; nm is in Debian's binutils package):\n" + r.output.substr(0, 2000);
      return std::nullopt;
    }
    symbols = std::make_shared<const std::vector<NmSymbol>>(parse_nm(r.output));
    const std::lock_guard<std::mutex> lock(mutex);
    cache[key] = symbols;
  }
  return LinkedLibrary{file.description, file.linked_first, *symbols};
}

}  // namespace gpulab
