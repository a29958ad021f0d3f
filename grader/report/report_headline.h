// What every report format says to the student above the tests, one text for all of them (the
// writers, report_formats.h's registry of which includes them, include only this).
#pragma once

#include <string>

#include "core/report.h"

namespace gpulab {

// Why there is no score, where there is none (stopped, the grader failed), then the report's
// output.
std::string report_headline(const Report& report);

}  // namespace gpulab
