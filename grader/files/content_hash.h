// A fingerprint of a submission's content, so a resumed class grading can tell an unchanged
// submission from one that was replaced since its report was written.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gpulab {

// "fnv1a64:<16 hex digits>" over a directory tree (each entry's relative path, kind, and
// content or link target, in sorted order; links are not followed) or over a file's bytes. It
// detects changes; it is not meant to resist a forger. Throws std::runtime_error when the path
// does not exist or cannot be read.
std::string content_hash(const std::filesystem::path& path);

// content_hash of a file holding `bytes`, taken from memory (a write-up the intake read, say).
std::string content_hash_of_bytes(std::string_view bytes);

}  // namespace gpulab
