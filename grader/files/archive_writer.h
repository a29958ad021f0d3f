// Writing a .zip or a .tar.gz (libarchive) from files given with their paths in the archive:
// the student kit and the Gradescope autograder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpulab {

struct ArchiveFile {
  std::string path;     // inside the archive, '/'-separated, relative
  std::string content;  // the file's bytes
  bool executable = false;
};

// The format follows the name: ".zip", or ".tar.gz" / ".tgz". Regular files only, owned by
// root, mode 0644 or 0755, and one fixed time stamp, so the same files give the same archive.
// Writes through a temporary file and a rename. Throws std::runtime_error on failure.
void write_archive(const std::filesystem::path& out, const std::vector<ArchiveFile>& files);

}  // namespace gpulab
