// gpulab run's words under its table: for each visible test worth points that did not pass, its
// message where the student looks (the compiler's errors, the first wrong element with expected,
// got and bound, the CPU backend's findings with file and line), as the report's test output
// says it, shortened for a terminal:
//  - of a test's per-dataset lines ("PASS d: ..." / "FAIL d: ..."), the first failing dataset's
//    in full and the other failing datasets by name, with where a map of the error is
//    (error_map_files.h); passing ones are left out;
//  - a line that only repeats one shown before (a runner echoing the message it failed with)
//    is left out;
//  - at most kFailureLinesShown lines per message, each cut at kFailureLineBytes;
//  - tests with the same message (every part of code that does not build) share one block.
// Everything quoted is safe text (safe_text.h): the messages carry what a submission printed.
#pragma once

#include <cstddef>
#include <string>

#include "core/report.h"
#include "text/terminal_style.h"

namespace gpulab {

constexpr size_t kFailureLinesShown = 30;
constexpr size_t kFailureLineBytes = 600;

// The blocks, each headed by its tests' names; empty when every test worth points passed.
std::string failure_messages(const Report& report, const TerminalStyle& style);

// One test output shortened as above, one line each, without indentation.
std::vector<std::string> shortened_message(const std::string& output);

}  // namespace gpulab
