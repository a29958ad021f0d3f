// What a signal does to a grading the command line started (run, grade).
#pragma once

#include "grade/grade.h"
#include "report/report_formats.h"

namespace gpulab {

// From here a SIGTERM or SIGINT stops the grading with a report that says so (stop_signals.h);
// should the grader not come back in time, the report is the lab and the signal alone.
void stop_grading_on_signals(const GradeOptions& o, const ReportOut& out);

}  // namespace gpulab
