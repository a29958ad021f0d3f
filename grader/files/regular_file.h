// A file read on a budget: a regular file (a link to one is followed) of at most `limit` bytes,
// read whole; nothing else is opened, so a device, a FIFO or a file under /proc named by what a
// sandboxed process left is never read by the grader, and never without end.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace gpulab {

// nullopt where `path` is not a regular file, holds more than `limit` bytes, or cannot be read
// whole.
std::optional<std::string> read_regular_file(const std::filesystem::path& path,
                                             std::uintmax_t limit);

}  // namespace gpulab
