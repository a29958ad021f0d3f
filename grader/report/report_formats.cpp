#include "report/report_formats.h"

#include "files/atomic_file.h"
#include "report/classroom_report.h"
#include "report/gradescope_report.h"
#include "report/prairielearn_report.h"
#include "report/report_json.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

struct FormatInfo {
  ReportFormat format;
  const char* name;
  const char* what;
};

constexpr FormatInfo kFormats[] = {
#define GPULAB_REPORT_FORMAT_INFO(id, name, what) {ReportFormat::id, name, what},
    GPULAB_REPORT_FORMATS(GPULAB_REPORT_FORMAT_INFO)
#undef GPULAB_REPORT_FORMAT_INFO
};

// Every string of `j`, keys too, as safe text: whatever reached the report from a submission
// (its output, its file names, what its runs wrote) is quoted safely even where no quoting
// site cut and cleaned it first.
nlohmann::json safe_json(const nlohmann::json& j) {
  if (j.is_string()) return safe_text(j.get_ref<const std::string&>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(safe_json(v));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[safe_text(key)] = safe_json(value);
    return out;
  }
  return j;
}

}  // namespace

const char* format_name(ReportFormat format) {
  for (const auto& f : kFormats)
    if (f.format == format) return f.name;
  return "?";
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const auto& f : kFormats) names.push_back(f.name);
  return names;
}

std::optional<ReportFormat> format_named(const std::string& name) {
  for (const auto& f : kFormats)
    if (name == f.name) return f.format;
  return std::nullopt;
}

std::string formats_help() {
  std::string s;
  for (const auto& f : kFormats) s += std::string(f.name) + ": " + f.what + "\n";
  return s;
}

std::filesystem::path beside_report(const std::filesystem::path& report, const std::string& name) {
  const std::string file = report.filename().string();
  const std::string stem = file.substr(0, file.find('.'));
  return report.parent_path() / ((stem.empty() ? file : stem) + "." + name);
}

nlohmann::json report_json(const Report& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::kGradescope:
      return safe_json(gradescope_results(report));
    case ReportFormat::kPrairieLearn:
      return safe_json(prairielearn_results(report));
    case ReportFormat::kGithubClassroom:
      return safe_json(classroom_result(report));
    case ReportFormat::kGpulab:
      return safe_json(gpulab_report_json(report));
  }
  return nullptr;
}

std::string report_text(const Report& report, ReportFormat format) {
  // report_json made every string safe; the replacing dump is a second line of defence should
  // one slip through, so that a report is always written.
  return report_json(report, format).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

void write_report(const std::filesystem::path& path, const Report& report, ReportFormat format) {
  write_file_atomically(path, report_text(report, format));
}

}  // namespace gpulab
