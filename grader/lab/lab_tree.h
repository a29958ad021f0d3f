// Where `gpulab run` takes the student's files from when no --submission is given: the lab's
// folder in the gpulab tree the student stands in (a kit unpacked anywhere, a clone of their
// own), not the tree gpulab was built from. Only the student files are taken from there;
// lab.json, the interface header and everything else stay the grader's own.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gpulab {

// <tree>/labs/<lab> of the nearest folder <tree>, at `cwd` or above it, that holds
// labs/<lab>/lab.json (so labs/<lab> itself, or any folder under the tree, finds it); none:
// nullopt. `lab` must be a lab id (no '/' or ".."): anything else finds nothing.
std::optional<std::filesystem::path> lab_folder_above(const std::filesystem::path& cwd,
                                                      const std::string& lab);

struct StudentLabFolder {
  std::filesystem::path dir;
  bool from_cwd_tree = false;  // found above the working directory; else the fallback
};

// lab_folder_above(cwd, lab), else `fallback` (the build's own source tree's labs/<lab>).
StudentLabFolder student_lab_folder(const std::filesystem::path& cwd, const std::string& lab,
                                    const std::filesystem::path& fallback);

}  // namespace gpulab
