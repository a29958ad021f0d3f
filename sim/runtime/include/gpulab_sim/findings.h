// What the detectors found: one entry per kind and site (repeats are counted), for tests and
// tools; the same entries go to stderr and to the report as JSON lines (sim/README.md, "Settings").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "vector_types.h"

namespace gpulab_sim {

// The kinds, their names, severities and grading verdicts: finding_kinds.def.
enum class finding_kind {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) name,
#include "finding_kinds.def"
};
const char* kind_name(finding_kind k);

struct finding {
  finding_kind kind;
  bool error;
  std::string launch_file;  // the kernel's launch site (empty for host API findings)
  int launch_line;
  std::string file;  // where it happened
  int line;
  std::string function;  // the device function containing the access, when known
  dim3 block;            // the first occurrence's block and thread
  dim3 thread;
  std::string message;  // the first occurrence, in words
  std::size_t count;    // occurrences at this site
};

std::vector<finding> findings();
void clear_findings();

}  // namespace gpulab_sim
