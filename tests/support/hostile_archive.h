// Writing the archives a hostile or careless student might submit: any entry name (absolute,
// with "..", twice), symbolic and hard links, devices and pipes, and large runs of zeros that
// compress to almost nothing. gpulab's own writer (grader/files/archive_writer.h) writes regular
// files only, as it should; the intake's tests need the rest.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace test {

struct HostileEntry {
  enum class Kind { file, directory, symlink, hardlink, fifo, char_device };
  std::string path;  // stored as is
  Kind kind = Kind::file;
  std::string content;  // a file's bytes, followed by `zeros` zero bytes
  size_t zeros = 0;
  std::string target;  // a link's target

  static HostileEntry file(std::string path, std::string content, size_t zeros = 0) {
    return {std::move(path), Kind::file, std::move(content), zeros, ""};
  }
  static HostileEntry directory(std::string path) {
    return {std::move(path), Kind::directory, "", 0, ""};
  }
  static HostileEntry link(std::string path, Kind kind, std::string target) {
    return {std::move(path), kind, "", 0, std::move(target)};
  }
  static HostileEntry special(std::string path, Kind kind) {
    return {std::move(path), kind, "", 0, ""};
  }
};

// The format follows the name (.zip, .tar.gz, .tgz). Throws std::runtime_error on failure.
void write_hostile_archive(const std::filesystem::path& out,
                           const std::vector<HostileEntry>& entries);

}  // namespace test
