// gpulab's own report format: every field of the internal report (report.h), written and read
// back losslessly. grade-all keeps each student's grade in it, and the class exports
// (class_table.h) read it, so that every export comes from the same grade as results.json.
#pragma once

#include <nlohmann/json.hpp>

#include "core/report.h"

namespace gpulab {

// The value of the "format" key that marks the report as gpulab's own.
constexpr const char* kGpulabReportFormat = "gpulab-report";
constexpr int kGpulabReportVersion = 1;

nlohmann::json gpulab_report_json(const Report& report);

// The report `j` holds. Throws std::runtime_error naming the key for anything else (another
// format, another version, a missing or mistyped field).
Report report_from_gpulab_json(const nlohmann::json& j);

}  // namespace gpulab
