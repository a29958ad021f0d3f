// The grader's own copy of the sim's finding kinds (sim/runtime/include/gpulab_sim/
// finding_kinds.def, compiled in here): which findings fail a dataset is decided from the kind's
// name by this table, never from anything else in the record, since the graded program can
// write records to the report pipe as the runtime does (sim_report.h).
#pragma once

#include <string>
#include <vector>

namespace gpulab {

struct SimFindingKind {
  const char* name;    // the report's "kind"
  bool error;          // the runtime stops the kernel ("severity":"error")
  bool fails_grading;  // a dataset with such a finding fails whatever its outputs
};

// Every kind, in the table's order.
const std::vector<SimFindingKind>& sim_finding_kinds();

// Whether a finding of this kind fails its dataset. A kind the table lacks fails too: the
// runtime never sends one, so the graded program wrote it, and it counts against its writer.
bool sim_finding_fails(const std::string& kind);

// The kind of that name, or null where the table lacks it.
const SimFindingKind* sim_finding_kind(const std::string& kind);

}  // namespace gpulab
