// The dynamic loader's cache, /etc/ld.so.cache (written by ldconfig): for each library name,
// the path the loader opens for it once the directories a program names itself have failed
// (ld.so(8)). library_closure.h looks libraries up in it as the loader does.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace gpulab {

constexpr const char* kLdSoCache = "/etc/ld.so.cache";

// The cache's entries, (library name, path), in the cache's order: glibc's format
// ("glibc-ld.so.cache1.1"), alone or after the old one ("ld.so-1.7.0"). Only the ELF entries a
// glibc loader may take; which of them fit a program's machine is the caller's to check.
// Empty where the file is missing or in a format not read here: the loader then searches the
// system's directories, and so does the caller.
std::vector<std::pair<std::string, std::filesystem::path>> read_ld_so_cache(
    const std::filesystem::path& file = kLdSoCache);

}  // namespace gpulab
