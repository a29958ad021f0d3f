// gpulab run's terminal: while it grades, one counter line redrawn in place on a terminal
// ("[12/48] exclusive on int-1"), nothing per step in a log (a line each with --verbose); then the
// per-dataset table, each failing test's message under it (failure_messages.h) and the summary, in
// colour on a terminal (terminal_style.h). Its exit status says whether every test passed.
#pragma once

#include <string>

#include "grade/grade.h"
#include "report/report_formats.h"

namespace gpulab {

// Grades with `options` (run's), writes the report to `out` where given, shows the results on
// stdout and returns the exit status: kExitTestsFailed when a test worth points failed,
// otherwise what gpulab grade would return (exit_status.h). `verbose`: a line per step, as
// gpulab grade logs them, in place of the counter (run --verbose).
int run_and_show(GradeOptions options, const ReportOut& out, bool verbose);

}  // namespace gpulab
