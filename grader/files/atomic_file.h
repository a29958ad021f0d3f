// Writing a file so that a reader, or a later run after a crash, sees either the old content or
// the new, never half of it: a temporary file beside it, then a rename.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab {

// Creates the parent directory when missing. Throws std::runtime_error when writing fails.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace gpulab
