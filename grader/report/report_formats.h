// The formats a report is written in, one list: each a writer of the one internal Report
// (report.h), so every platform gets the same grade. Every string a writer puts out passes
// through safe_text (safe_text.h), whatever a submission made the report quote.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/report.h"

namespace gpulab {

#define GPULAB_REPORT_FORMATS(X)                                                              \
  X(kGradescope, "gradescope", "Gradescope's results.json, per its autograder specification") \
  X(kPrairieLearn, "prairielearn", "PrairieLearn's external grader results.json")             \
  X(kGithubClassroom, "github-classroom",                                                     \
    "the result GitHub Classroom's autograding reporter reads")                               \
  X(kGpulab, "gpulab", "gpulab's own report, every field: what grade-all keeps and reads back")

enum class ReportFormat {
#define GPULAB_REPORT_FORMAT_ENUM(id, name, what) id,
  GPULAB_REPORT_FORMATS(GPULAB_REPORT_FORMAT_ENUM)
#undef GPULAB_REPORT_FORMAT_ENUM
};

const char* format_name(ReportFormat format);
std::vector<std::string> format_names();
// The format named `name`; nullopt for a name that is none.
std::optional<ReportFormat> format_named(const std::string& name);
// "gradescope: ...\nprairielearn: ..." for --help.
std::string formats_help();

// The report in `format`, every string (keys too) safe text.
nlohmann::json report_json(const Report& report, ReportFormat format);
// The same as the file holds it.
std::string report_text(const Report& report, ReportFormat format = ReportFormat::kGradescope);
// Writes report_text through a temporary file and a rename, so a reader never sees half of it.
void write_report(const std::filesystem::path& path, const Report& report,
                  ReportFormat format = ReportFormat::kGradescope);

// Where a command writes its report, and in what format (--out, --format).
struct ReportOut {
  std::filesystem::path path;  // empty: no report file
  ReportFormat format = ReportFormat::kGradescope;
  void write(const Report& report) const { write_report(path, report, format); }
};

// A file kept beside a report (the write-up, writeup.h; the error maps, error_map_files.h):
// named by the report's name up to its first dot and `name` (results.json and "REPORT.md":
// results.REPORT.md; grade-all's report.json.partial: report.REPORT.md).
std::filesystem::path beside_report(const std::filesystem::path& report, const std::string& name);

}  // namespace gpulab
