// The CPU backend's findings of a run (sim_report.h reads them) as grading uses them: whether
// one fails the dataset, and the few lines that tell the student what was found.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

// Whether a finding fails the dataset: by its kind, from the grader's own copy of the table
// (sim_finding_kinds.h), never from the record's other fields.
bool fails_dataset(const nlohmann::json& f);

// The findings in words for the student, at most a few, each with its count: those that fail
// the dataset first, labelled "error" (whatever stopped the kernel or not), the others
// "warning"; findings that read the same (kind, place and words, addresses aside) folded into
// one, their counts added. Paths are cut to what the student knows: dcs.cu:13,
// harness/device_buffer.h:18.
// `strip`: the path prefixes cut from each message.
std::string describe_sim_findings(const std::vector<nlohmann::json>& found,
                                  const std::vector<std::string>& strip);

}  // namespace gpulab
