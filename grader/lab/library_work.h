// The kinds of work CUB and Thrust do (library_work.def, the one table): each kind's name in
// lab.json, the headers that do it and the names its device-wide entry points leave in an
// object. The build's checks (library_rule.h) read them; lab.json's "library" section
// (library_policy.h) names kinds from them.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

struct LibraryWork {
  std::string name;  // lab.json's: "scan"
  std::string what;  // for a student: "a scan (a prefix sum, by key too)"
  // Paths as library_header gives them; `*` stands for any part of one file or folder name.
  std::vector<std::string> headers;
  std::vector<std::string> entities;  // whole names, in any namespace: "DeviceScan"
};

// library_work.def's rows, in its order.
const std::vector<LibraryWork>& library_work();

// The kind named `name`; nullptr for none.
const LibraryWork* library_work_named(const std::string& name);

std::vector<std::string> library_work_names();

// The path of a header the compiler opened as the table names it, below the toolkit's include
// folders ("cub/block/block_scan.cuh" for "/usr/local/cuda/include/cccl/cub/../cub/block/
// block_scan.cuh"): the rest of the path, made lexically normal, from its last folder named
// cub, thrust or cooperative_groups; "" where it has none.
std::string library_header(const std::string& path);

// The kinds whose headers include `header` (a path as library_header gives it), in the table's
// order.
std::vector<const LibraryWork*> work_of_header(const std::string& header);

// Whether `pattern` (a table header, with `*`s) matches `path`.
bool header_pattern_matches(const std::string& pattern, const std::string& path);

}  // namespace gpulab
