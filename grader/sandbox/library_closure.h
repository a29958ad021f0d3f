// A program's shared libraries as the dynamic loader finds them (ld.so(8)): its interpreter, then
// every library in the closure of its DT_NEEDED entries, each looked for where the loader looks
// (the requesting objects' DT_RPATH, LD_LIBRARY_PATH, the requester's DT_RUNPATH, the loader's
// cache, the system's directories), and the path the loader opens told from the real file it
// leads to (libstdc++.so.6, a link, and libstdc++.so.6.0.30). run_libraries.h binds exactly these
// into a run's sandbox. Nothing is run: the files are read (elf_dynamic.h, ld_so_cache.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpulab {

// Where the loader looks for a library by name, beyond the directories the objects name.
struct LibrarySearch {
  std::vector<std::filesystem::path> library_path;                   // LD_LIBRARY_PATH's
  std::vector<std::pair<std::string, std::filesystem::path>> cache;  // ld_so_cache.h's
  std::vector<std::filesystem::path> system_dirs;                    // the loader's own, last

  // This machine's: LD_LIBRARY_PATH as gpulab has it (a sandboxed child keeps it:
  // sandbox_keeps_env), /etc/ld.so.cache, and glibc's system directories for this architecture
  // (Debian's multiarch ones, then /lib64 and /usr/lib64 as other distributions have them).
  static LibrarySearch current();
};

// One file the loader opens.
struct LoadedFile {
  std::string name;              // as asked for: a DT_NEEDED entry, the interpreter, a dlopen's
  std::filesystem::path opened;  // the path it opens (often a symbolic link)
  std::filesystem::path file;    // the real file that path leads to
};

struct LibraryClosure {
  // The interpreter first (for a program), then each library in the order the loader loads
  // them. A name the cache lists for several builds (glibc-hwcaps subdirectories) has each:
  // which one the loader takes depends on the processor.
  std::vector<LoadedFile> files;
  std::vector<std::string> missing;  // names found nowhere: the program would not start anyway
};

// What the loader opens to start `object` (a program, or a library a program dlopen()s). Its
// $ORIGIN is the directory `object` is read from (a runner's closure is read from the lab's stub
// runner: runners name no $ORIGIN). Throws std::runtime_error where one of the files is not an
// ELF file elf_dynamic.h reads.
LibraryClosure library_closure(const std::filesystem::path& object, const LibrarySearch& search);

// Where the loader finds `name` when `requester` (a program, read as above) dlopen()s it: the CUDA
// runtime linked into a runner opens libcuda.so.1 so. Each of the cache's builds of it, as above;
// empty where it finds none.
std::vector<LoadedFile> find_library(const std::string& name,
                                     const std::filesystem::path& requester,
                                     const LibrarySearch& search);

}  // namespace gpulab
