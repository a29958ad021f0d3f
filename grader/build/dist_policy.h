// What leaves an instructor's checkout: the student kit (gpulab dist) and the Gradescope
// autograder (gpulab package gradescope) are each a selection of the files git tracks, made by
// the one policy in dist_policy.cpp, and written with the work tree's content of each file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "files/archive_writer.h"

namespace gpulab {

enum class Bundle { student_kit, gradescope };

struct BundleFile {
  std::string source;  // the tracked path, relative to the source tree
  std::string path;    // where it goes in the bundle
};

// The files git tracks in `source` and its work tree still has, '/'-separated, sorted. Throws
// std::runtime_error when `source` is not a git checkout (the bundles ship only tracked files,
// never build trees or a stray file lying in the work tree).
std::vector<std::string> tracked_files(const std::filesystem::path& source);

// The files of `bundle` among `tracked`, in order. Never: reference/, tests/, docs/, CI.
std::vector<BundleFile> select_files(Bundle bundle, const std::vector<std::string>& tracked);

// The selected files read from `source`, under `prefix` in the archive ("gpulab/"); a file
// keeps its executable bit.
std::vector<ArchiveFile> read_bundle(const std::filesystem::path& source,
                                     const std::vector<BundleFile>& files,
                                     const std::string& prefix);

// `text` with each "@NAME@" of `values` replaced; throws std::runtime_error naming `what` when
// a placeholder is left (a template and its filler out of step).
std::string fill_template(std::string text,
                          const std::vector<std::pair<std::string, std::string>>& values,
                          const std::string& what);

}  // namespace gpulab
