// gpulab cache: what the dataset cache (Paths::cache_dir(): build/cache, or GPULAB_CACHE_DIR)
// holds, per lab and dataset with sizes, and clearing it, whole or one lab's. Clearing removes
// only what gpulab puts there (datasets/, bench/, builds/), and refuses a folder holding anything
// else: GPULAB_CACHE_DIR pointed at a home folder by mistake must not be emptied.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace gpulab {

// What the cache holds: datasets/<lab>/<group>/<dataset>/ (entries, one per identity: a
// generator version, a secret), bench/<lab>/ (gpulab bench's outputs) and builds/<lab>/ (the
// student runners kept by content, build_cache.h).
struct CacheListing {
  struct Dataset {
    std::string group, name;
    uint64_t bytes = 0;
    int entries = 0;
  };
  struct Lab {
    std::string id;
    uint64_t bytes = 0;  // its datasets, bench outputs and kept builds
    std::vector<Dataset> datasets;
    int builds = 0;  // runners kept by content (build_cache.h)
    uint64_t builds_bytes = 0;
  };
  std::filesystem::path dir;
  uint64_t bytes = 0;
  std::vector<Lab> labs;  // by id
};

// The names gpulab puts directly in its cache folder.
const std::vector<std::string>& cache_top_names();

// "" when `dir` looks like gpulab's cache (missing, or holding only cache_top_names(), each a
// folder); else why not, naming what is there that gpulab does not put there.
std::string not_a_cache(const std::filesystem::path& dir);

CacheListing list_cache(const std::filesystem::path& dir);
void print_cache(const CacheListing& listing, std::ostream& out);

// Removes the cache's contents (the folder itself stays), or only lab `lab`'s; returns the
// bytes freed. Throws std::runtime_error, removing nothing, where not_a_cache(dir) says why, or
// `lab` is not a plain name or not in the cache (naming the labs that are).
uint64_t clear_cache(const std::filesystem::path& dir, const std::string& lab);

// gpulab cache [--clear [--lab L]].
int cache_command(bool clear, const std::string& lab, std::ostream& out);

}  // namespace gpulab
