// What a run of a runner sees of the system (sandbox.h, SystemView::libraries): in place of /usr
// and the top-level /lib, /lib64, ..., exactly the files the loader opens to start the runner
// (library_closure.h) and, for a GPU part, the NVIDIA driver's user-space libraries, each file
// bound at its real path and at the path the loader opens. So student code can dlopen() nothing
// else: neither the CUDA toolkit's libraries (cuSPARSE, cuBLAS, NVRTC, which would do the lab's
// work for it) nor the system's. Builds see the whole system (compilers need it), and so do runs
// under compute-sanitizer (runner_client.h's RunWrapper), which are never scored by their
// outputs or their time.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "files/paths.h"
#include "sandbox/library_closure.h"

namespace gpulab {

// One file a run sees: the real file `file` at `at` (its own path, or a link's the loader opens).
struct SystemFile {
  std::filesystem::path file, at;
};

struct RunLibraries {
  std::vector<SystemFile> runner;  // the loader and the runner's library closure
  // libcuda.so.1 and the libnvidia-*.so files beside it, with their closures: for GPU parts on
  // the cuda backend. None where no driver is installed.
  std::vector<SystemFile> driver;
  std::filesystem::path read_from;   // the runner the closure was read from
  std::vector<std::string> missing;  // libraries it needs that the loader finds nowhere
};

// The files of the loader's closure (library_closure.h): each at its real path and at the path
// the loader opens, once each.
std::vector<SystemFile> system_files(const std::vector<LoadedFile>& files);

// The driver's user-space libraries as the runner `runner` finds them: where the loader finds
// libcuda.so.1 for it (the CUDA runtime, linked statically into every runner, dlopen()s it), every
// libcuda.so* and libnvidia-*.so* in that directory, which libcuda loads in turn (its PTX JIT
// compiler, its GPU compiler, ...), each also where the loader finds its name, and their
// closures. Empty where the loader finds no libcuda.so.1.
std::vector<SystemFile> driver_files(const std::filesystem::path& runner,
                                     const LibrarySearch& search);

// What the runs of a grading see, read once per grading (grade.cpp) from a runner of the lab's
// recipe for `backend` (runner_recipe.h): the stub runner CMake built from the lab's own files
// where there is one, else `student_runner` (the student kit builds no stub runner; there
// `gpulab run` grades the student's code on their own machine). Why not the student's runner
// wherever it could be: it is linked by the same recipe, so it needs no other library, and
// reading gpulab's own runner means that nothing the student's objects could add to its dynamic
// section (a linker that honours a dependent-libraries section, say) widens what its runs see.
// The driver's files only for the cuda backend.
RunLibraries run_libraries(const Paths& paths, const std::string& lab, Backend backend,
                           const std::filesystem::path& student_runner,
                           const LibrarySearch& search = LibrarySearch::current());

}  // namespace gpulab
