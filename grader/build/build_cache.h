// A student's runner kept by content (docs/GRADING.md, "Builds kept by content"): a regrade of
// the same files, `gpulab run` after `gpulab grade`, or the same code built for the other
// backend and back, do not compile again. A build that succeeded is kept in the cache folder
// (Paths::cache_dir()/builds/<lab>/<key>/), where no sandboxed build or run can see it, under
// the SHA-256 of everything it was made from:
//
//   - each student file's bytes, and lab.json's;
//   - the recipe (the backend, compiler, standard, flags, include folders, archives), and the
//     size and modification time of the compiler and of each archive linked whole (gpulab's
//     own build products and the toolkit: a rebuild or an upgrade changes them);
//
// and, beside it, every header the compiler opened for those files (headers_read: the lab's
// interface, gpulab's, the toolkit's and the system's), each with its SHA-256. A kept build is
// used only where each of those headers still has that content; else it is built again and the
// entry replaced. A build that failed is not kept: its message comes from a compile that runs
// each time. Paths inside the grading's work folder and the submission's copy are kept relative,
// so that the next grading's own folders take their place.
#pragma once

#include <filesystem>

#include "build/build.h"

namespace gpulab {

// As build_runner (build.h): the kept runner copied to work_dir/runner where one is kept for
// this content (BuildResult::kept), else built, and kept where it built.
BuildResult build_runner_kept(const LabConfig& lab, const Paths& paths,
                              const std::filesystem::path& src_dir,
                              const std::filesystem::path& work_dir, Backend backend,
                              const Sandbox& sandbox, double timeout_s = 300);

// The entries kept for one lab beyond this many are removed, the least recently used first.
constexpr int kKeptBuildsPerLab = 64;

}  // namespace gpulab
