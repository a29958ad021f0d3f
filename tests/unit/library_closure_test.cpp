// grader/sandbox/library_closure.h and run_libraries.h: the files the loader opens to start a
// program, on the runners the build made (checked against what the loader itself lists), on
// programs and libraries compiled here that ask for their libraries every way the loader knows, and
// the NVIDIA driver's files, laid out here as a driver installs them (this machine has none).
#include "sandbox/library_closure.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "files/paths.h"
#include "sandbox/elf_dynamic.h"
#include "sandbox/run_libraries.h"
#include "test_util.h"
#include "tool_output.h"

namespace {

namespace fs = std::filesystem;
using gpulab::LibraryClosure;
using gpulab::LibrarySearch;
using gpulab::LoadedFile;

// What the loader itself says it opens for `program` (ld.so --list, which runs none of it): each
// library's name and path, and the interpreter's path under its own name.
std::map<std::string, fs::path> listed_by_loader(const fs::path& program) {
  const std::string interpreter = gpulab::read_elf_dynamic(program).interpreter;
  std::map<std::string, fs::path> found;
  std::istringstream lines(test::tool_output({interpreter, "--list", program.string()}));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, arrow, path;
    words >> name >> arrow >> path;
    if (arrow == "=>") found[name] = path;
    if (name == interpreter) found[name] = name;
  }
  return found;
}

// Whether `files` binds a library whose name starts with `prefix` (a soname without the version
// a distribution gives it).
bool binds(const std::vector<gpulab::SystemFile>& files, const std::string& prefix) {
  return std::any_of(files.begin(), files.end(), [&](const gpulab::SystemFile& f) {
    return f.at.filename().string().rfind(prefix, 0) == 0;
  });
}

const LoadedFile* named(const LibraryClosure& c, const std::string& name) {
  const auto it = std::find_if(c.files.begin(), c.files.end(),
                               [&](const LoadedFile& f) { return f.name == name; });
  return it == c.files.end() ? nullptr : &*it;
}

// A shared library or program compiled here from an empty source, with `flags` (its soname,
// libraries, search paths).
void compile(const fs::path& out, bool shared, std::vector<std::string> flags) {
  const fs::path src = out.parent_path() / ".src" / (out.filename().string() + ".cpp");
  test::write_file(src, shared ? "int unused_symbol() { return 0; }\n" : "int main() {}\n");
  std::vector<std::string> argv = {"c++", src.string(), "-o", out.string()};
  if (shared) argv.insert(argv.end(), {"-shared", "-fPIC"});
  argv.push_back("-Wl,--no-as-needed");  // every library named is needed, used or not
  argv.insert(argv.end(), flags.begin(), flags.end());
  test::tool_output(argv);
}

// A search with no LD_LIBRARY_PATH and no cache: only what a test gives it, then the system.
LibrarySearch bare_search() {
  LibrarySearch s = LibrarySearch::current();
  s.library_path.clear();
  s.cache.clear();
  return s;
}

// The libraries of the synthetic cases, under `d`: libleaf.so.1, a link to libleaf.so.1.0 as
// ldconfig makes them, in leaf/; libmid.so in mid/, which needs libleaf.so.1 and finds it through
// its DT_RUNPATH $ORIGIN/../leaf; a second libmid.so in other/.
struct Libraries {
  explicit Libraries(const test::TempDir& d) : dir(d.path()) {
    fs::create_directories(dir / "leaf");
    fs::create_directories(dir / "mid");
    fs::create_directories(dir / "other");
    compile(dir / "leaf" / "libleaf.so.1.0", true, {"-Wl,-soname,libleaf.so.1"});
    fs::create_symlink("libleaf.so.1.0", dir / "leaf" / "libleaf.so.1");
    for (const char* at : {"mid", "other"})
      compile(dir / at / "libmid.so", true,
              {"-Wl,-soname,libmid.so", "-L" + (dir / "leaf").string(), "-l:libleaf.so.1",
               "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../leaf"});
  }
  fs::path dir;
};

}  // namespace

TEST_CASE("a runner's closure is what the loader itself opens for it") {
  const gpulab::Paths paths = gpulab::Paths::current();
  int read = 0;
  for (const gpulab::Backend backend : {gpulab::Backend::sim, gpulab::Backend::cuda}) {
    const fs::path runner = paths.stub_runner("scan", backend);
    if (!fs::exists(runner)) continue;  // a build without that backend
    INFO(runner);
    ++read;
    const LibraryClosure c = gpulab::library_closure(runner, LibrarySearch::current());
    CHECK(c.missing.empty());
    const auto listed = listed_by_loader(runner);
    REQUIRE(!listed.empty());
    for (const auto& [name, path] : listed) {
      const LoadedFile* f = named(c, name);
      CHECK_MESSAGE(f, name << " is not in the closure");
      if (!f) continue;
      CHECK(f->opened == path);
      CHECK(f->file == fs::canonical(path));
    }
    // Nothing more than the loader opens (the loader's soname, which a cuda runner names too,
    // is the interpreter already loaded).
    for (const LoadedFile& f : c.files) CHECK_MESSAGE(listed.count(f.name) == 1, f.name);
    CHECK(c.files.front().name == gpulab::read_elf_dynamic(runner).interpreter);
    CHECK(named(c, "libc.so.6"));
    CHECK(named(c, "libstdc++.so.6"));
    if (backend == gpulab::Backend::sim)
      CHECK(binds(gpulab::system_files(c.files), "libboost_context.so"));
  }
  CHECK(read > 0);
}

TEST_CASE("each file is bound at its real path and at the path the loader opens, once") {
  const LibraryClosure c = gpulab::library_closure("/bin/sh", LibrarySearch::current());
  const auto files = gpulab::system_files(c.files);
  for (const LoadedFile& f : c.files) {
    CHECK(f.file == fs::canonical(f.file));
    for (const fs::path& at : {f.file, f.opened})
      CHECK_MESSAGE(std::count_if(files.begin(), files.end(),
                                  [&](const gpulab::SystemFile& s) {
                                    return s.at == at && s.file == f.file;
                                  }) == 1,
                    at);
  }
  CHECK(files.size() <= 2 * c.files.size());
}

TEST_CASE("libraries are looked for where the loader looks, in its order") {
  test::TempDir d;
  const Libraries libs(d);
  // DT_RUNPATH: the program's to find libmid.so, libmid's ($ORIGIN) to find libleaf.so.1, the
  // path opened being the link and the file its target.
  compile(d / "runpath", false,
          {"-L" + (d / "mid").string(), "-l:libmid.so",
           "-Wl,--enable-new-dtags,-rpath," + (d / "mid").string()});
  LibrarySearch search = bare_search();
  LibraryClosure c = gpulab::library_closure(d / "runpath", search);
  CHECK(c.missing.empty());
  REQUIRE(named(c, "libmid.so"));
  CHECK(named(c, "libmid.so")->opened == d / "mid" / "libmid.so");
  REQUIRE(named(c, "libleaf.so.1"));
  CHECK(named(c, "libleaf.so.1")->opened == d / "leaf" / "libleaf.so.1");
  CHECK(named(c, "libleaf.so.1")->file == fs::canonical(d / "leaf" / "libleaf.so.1.0"));
  CHECK(named(c, "libc.so.6"));

  // LD_LIBRARY_PATH comes before DT_RUNPATH...
  search.library_path = {d / "other"};
  c = gpulab::library_closure(d / "runpath", search);
  CHECK(named(c, "libmid.so")->opened == d / "other" / "libmid.so");
  // ...and after DT_RPATH, which the old tags give.
  compile(d / "rpath", false,
          {"-L" + (d / "mid").string(), "-l:libmid.so",
           "-Wl,--disable-new-dtags,-rpath," + (d / "mid").string()});
  REQUIRE(gpulab::read_elf_dynamic(d / "rpath").rpath.size() == 1);
  c = gpulab::library_closure(d / "rpath", search);
  CHECK(named(c, "libmid.so")->opened == d / "mid" / "libmid.so");

  // Without a path of its own, the cache; its entries that are not a library of the program's
  // machine are passed over. Every build the cache lists is kept.
  compile(d / "cached", false, {"-L" + (d / "mid").string(), "-l:libmid.so"});
  search.library_path.clear();
  c = gpulab::library_closure(d / "cached", search);
  CHECK(c.missing == std::vector<std::string>{"libmid.so"});
  test::write_file(d / "text" / "libmid.so", "not a library\n");
  search.cache = {{"libmid.so", d / "text" / "libmid.so"},
                  {"libmid.so", d / "other" / "libmid.so"},
                  {"libmid.so", d / "mid" / "libmid.so"}};
  c = gpulab::library_closure(d / "cached", search);
  CHECK(c.missing.empty());
  std::vector<fs::path> opened;
  for (const LoadedFile& f : c.files)
    if (f.name == "libmid.so") opened.push_back(f.opened);
  CHECK(opened == std::vector<fs::path>{d / "other" / "libmid.so", d / "mid" / "libmid.so"});
}

TEST_CASE("the driver's files: libcuda.so.1 where the loader finds it, the libnvidia-* beside it") {
  test::TempDir d;
  const Libraries libs(d);
  // A driver as its installer lays it out: versioned files, links by soname.
  const fs::path drv = d / "driver";
  fs::create_directories(drv);
  for (const char* lib : {"libcuda.so.580.1", "libnvidia-ptxjitcompiler.so.580.1"})
    compile(drv / lib, true,
            {"-L" + (d / "leaf").string(), "-l:libleaf.so.1",
             "-Wl,--enable-new-dtags,-rpath," + (d / "leaf").string()});
  fs::create_symlink("libcuda.so.580.1", drv / "libcuda.so.1");
  fs::create_symlink("libnvidia-ptxjitcompiler.so.580.1", drv / "libnvidia-ptxjitcompiler.so.1");
  compile(drv / "libcusparse.so.12", true, {});  // beside it, but no driver's
  compile(d / "runner", false, {});
  LibrarySearch search = bare_search();

  // No driver where the loader looks: nothing. The system's own directories are left out, since a
  // machine with a GPU has its real libcuda.so.1 there.
  LibrarySearch nowhere = search;
  nowhere.system_dirs.clear();
  CHECK(gpulab::driver_files(d / "runner", nowhere).empty());
  search.library_path = {drv};
  const auto files = gpulab::driver_files(d / "runner", search);
  const auto bound = [&](const fs::path& file, const fs::path& at) {
    return std::count_if(files.begin(), files.end(), [&](const gpulab::SystemFile& f) {
             return f.file == fs::canonical(file) && f.at == at;
           }) == 1;
  };
  CHECK(bound(drv / "libcuda.so.580.1", drv / "libcuda.so.1"));
  CHECK(bound(drv / "libcuda.so.580.1", fs::canonical(drv / "libcuda.so.580.1")));
  CHECK(bound(drv / "libnvidia-ptxjitcompiler.so.580.1", drv / "libnvidia-ptxjitcompiler.so.1"));
  // Their own closures: libleaf through their DT_RUNPATH, and the C library.
  CHECK(bound(d / "leaf" / "libleaf.so.1.0", d / "leaf" / "libleaf.so.1"));
  CHECK(binds(files, "libc.so.6"));
  for (const auto& f : files) CHECK_MESSAGE(f.file.filename() != "libcusparse.so.12", f.at);
}

TEST_CASE("a run's libraries are read from the lab's stub runner where the build made one") {
  const gpulab::Paths paths = gpulab::Paths::current();
  const fs::path stub = paths.stub_runner("scan", gpulab::Backend::sim);
  if (!fs::exists(stub)) return;  // a build without the CPU backend
  test::TempDir d;
  compile(d / "student-runner", false, {});
  const gpulab::RunLibraries sim =
      gpulab::run_libraries(paths, "scan", gpulab::Backend::sim, d / "student-runner");
  CHECK(sim.read_from == stub);
  CHECK(sim.missing.empty());
  CHECK(sim.driver.empty());
  CHECK(binds(sim.runner, "libboost_context.so"));
  // Where there is none (the student kit builds none), the student's own runner.
  const gpulab::RunLibraries kit =
      gpulab::run_libraries(paths, "no-such-lab", gpulab::Backend::sim, d / "student-runner");
  CHECK(kit.read_from == d / "student-runner");
  CHECK(binds(kit.runner, "libc.so.6"));
  CHECK_FALSE(binds(kit.runner, "libboost_context.so"));
}
