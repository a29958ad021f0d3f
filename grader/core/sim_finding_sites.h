// The CPU backend's findings of a run (sim_report.h) as places in the student's code: the
// structured record a report keeps of them (report.h's SimFindingSite), which the class view
// groups (class_findings.h). The findings come from the graded program's pipe, so each field is
// the adversary's: a line of source is read only from a regular file inside the submission
// named without "..", an absolute path or a link on the way, and only one line, cut short;
// every text kept is safe text (safe_text.h).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/report.h"

namespace gpulab {

// The longest line of source (or kind, or file name) kept, in bytes.
constexpr size_t kSourceLineLimit = 200;

// Appends to `sites` each place of `found` not among them yet (same kind, file and line), up
// to a few dozen places in all. `submission`: the folder of the student's files as they were
// compiled (a finding's file under it has its line read from there); `strip`: the path
// prefixes cut from every file (the submission's among them), as sim_findings_text.h cuts them
// from the messages.
void add_sim_finding_sites(std::vector<SimFindingSite>& sites,
                           const std::vector<nlohmann::json>& found,
                           const std::filesystem::path& submission,
                           const std::vector<std::string>& strip);

}  // namespace gpulab
