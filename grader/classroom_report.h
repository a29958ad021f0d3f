// The result GitHub Classroom's autograding reporter reads (the format of its command grader's
// `result` output, before base64), written from the internal report (report.h).
#pragma once

#include <nlohmann/json.hpp>

#include "report.h"

namespace gpulab {

nlohmann::json classroom_result(const Report& report);

}  // namespace gpulab
