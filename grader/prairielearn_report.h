// PrairieLearn's external grader results.json, written from the internal report (report.h):
// the score as a fraction, `gradable` false where the submission could not be graded (not
// accepted, did not build, the grader failed or was stopped), the tests with their points.
#pragma once

#include <nlohmann/json.hpp>

#include "report.h"

namespace gpulab {

nlohmann::json prairielearn_results(const Report& report);

}  // namespace gpulab
