// The lab's write-up (lab.json's "writeup"): a Markdown report students hand in beside their
// code, graded by the instructor. gpulab grade keeps the one a submission holds beside its
// report and says what it found in a test worth nothing. It quotes none of its text (no report,
// page or log carries it), compiles none of it, and no build or run of the student's code sees
// it: the intake reads it apart from the student files (intake.h).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include "core/report.h"
#include "grade/intake.h"
#include "lab/lab_config.h"

namespace gpulab {

// The test's name in every report.
inline constexpr const char* kWriteupTest = "write-up (graded by your instructor)";

// Where the write-up is kept: beside the report, named by the report's name up to its first dot
// and the write-up's own name (results.json: results.REPORT.md; grade-all's
// report.json.partial: report.REPORT.md).
std::filesystem::path writeup_copy(const std::filesystem::path& report, const std::string& file);

// Keeps the write-up `intake` found at writeup_copy(report, ...), or removes a copy an earlier
// grading left there, so that none of another submission stays beside this report; says what
// it did on `log`, for the instructor; returns the report's test, 0 of 0: passed where a
// written write-up was kept, else a line of information saying what to do.
Test keep_writeup(const LabConfig& lab, const IntakeSpec& spec, const Intake& intake,
                  const std::filesystem::path& report, std::ostream& log);

}  // namespace gpulab
