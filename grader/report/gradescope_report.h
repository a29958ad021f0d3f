// Gradescope's results.json, written from the internal report (report.h) per Gradescope's
// autograder specification.
#pragma once

#include <nlohmann/json.hpp>

#include "core/report.h"

namespace gpulab {

nlohmann::json gradescope_results(const Report& report);

}  // namespace gpulab
