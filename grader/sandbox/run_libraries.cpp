#include "sandbox/run_libraries.h"

#include <set>

#include "sandbox/elf_dynamic.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// The driver's library the CUDA runtime opens (by this name, as its static archive has it).
constexpr const char* kDriverLibrary = "libcuda.so.1";

bool is_driver_library(const std::string& name) {
  return (name.rfind("libcuda.so", 0) == 0 || name.rfind("libnvidia-", 0) == 0) &&
         name.find(".so") != std::string::npos;
}

void append_files(std::vector<SystemFile>& to, const std::vector<SystemFile>& files) {
  to.insert(to.end(), files.begin(), files.end());
}

// `files` once per path inside, the first kept.
std::vector<SystemFile> unique(const std::vector<SystemFile>& files) {
  std::vector<SystemFile> out;
  std::set<fs::path> at;
  for (const SystemFile& f : files)
    if (at.insert(f.at).second) out.push_back(f);
  return out;
}

}  // namespace

std::vector<SystemFile> system_files(const std::vector<LoadedFile>& files) {
  std::vector<SystemFile> out;
  for (const LoadedFile& f : files) {
    out.push_back({f.file, f.file});
    out.push_back({f.file, f.opened});
  }
  return unique(out);
}

std::vector<SystemFile> driver_files(const fs::path& runner, const LibrarySearch& search) {
  std::vector<LoadedFile> driver;
  for (const LoadedFile& cuda : find_library(kDriverLibrary, runner, search)) {
    driver.push_back(cuda);
    const fs::path dir = cuda.opened.parent_path();
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (!is_driver_library(name) || !elf64_machine(e.path())) continue;
      driver.push_back({name, e.path(), fs::canonical(e.path())});
      // libcuda opens them by name: the loader may find that name elsewhere first.
      for (const LoadedFile& f : find_library(name, cuda.file, search)) driver.push_back(f);
    }
  }
  std::vector<SystemFile> out = system_files(driver);
  for (const LoadedFile& f : driver)
    append_files(out, system_files(library_closure(f.file, search).files));
  return unique(out);
}

RunLibraries run_libraries(const Paths& paths, const std::string& lab, Backend backend,
                           const fs::path& student_runner, const LibrarySearch& search) {
  RunLibraries r;
  const fs::path stub = paths.stub_runner(lab, backend);
  std::error_code ec;
  r.read_from = fs::is_regular_file(stub, ec) ? stub : student_runner;
  const LibraryClosure closure = library_closure(r.read_from, search);
  r.runner = system_files(closure.files);
  r.missing = closure.missing;
  if (backend != Backend::sim) r.driver = driver_files(r.read_from, search);
  return r;
}

}  // namespace gpulab
