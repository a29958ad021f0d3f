// How much disk a folder takes, in words people read: the dataset progress line and the
// dataset cache's listing (gpulab datasets, gpulab cache).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace gpulab {

// The bytes of the regular files under `path` (or of `path` itself), links not followed.
// Never throws: a folder changing or vanishing while it is counted (a dataset being made, a
// temporary removed) counts what was there; a missing path is 0.
uint64_t tree_bytes(const std::filesystem::path& path);

// "812 B", "4.2 kB", "12.3 MB", "1.1 GB" (powers of 1000, one decimal from kB up).
std::string human_bytes(uint64_t bytes);

}  // namespace gpulab
