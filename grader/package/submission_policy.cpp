#include "package/submission_policy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/score_lines.h"
#include "files/paths.h"
#include "lab/lab_config.h"

namespace gpulab {

namespace {

using nlohmann::json;

// Days since 1970-01-01 of a date in the proleptic Gregorian calendar.
long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

// `n` digits of `s` at `at` as a number; -1 where they are not digits.
int digits(const std::string& s, size_t at, size_t n) {
  if (at + n > s.size()) return -1;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", std::round(fraction * 1e4) / 1e2);
  return buf;
}

class MetadataReader {
 public:
  explicit MetadataReader(std::string file) : file_(std::move(file)) {}
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw SubmissionMetadataError(file_ + ": " + key + ": " + why);
  }
  const json& field(const json& obj, const std::string& key, const std::string& where) const {
    const std::string path = where.empty() ? key : where + "." + key;
    if (!obj.is_object()) fail(where.empty() ? "(top level)" : where, "must be an object");
    if (!obj.contains(key)) fail(path, "missing");
    return obj[key];
  }
  SubmissionMetadata::Time time(const json& v, const std::string& key) const {
    if (!v.is_string()) fail(key, "must be a time (ISO 8601 with an offset)");
    const auto s = iso8601_seconds(v.get<std::string>());
    if (!s) fail(key, "\"" + v.get<std::string>() + "\" is not a time (ISO 8601 with an offset)");
    return {*s, v.get<std::string>()};
  }
  // A score: a number, or a string that holds one (Gradescope writes some numbers as strings).
  double score(const json& v, const std::string& key) const {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(d)) return d;
    }
    fail(key, "must be a number");
  }

 private:
  std::string file_;
};

}  // namespace

std::optional<double> iso8601_seconds(const std::string& t) {
  // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM|+HHMM|-HHMM)
  const int y = digits(t, 0, 4), mo = digits(t, 5, 2), d = digits(t, 8, 2);
  const int h = digits(t, 11, 2), mi = digits(t, 14, 2), s = digits(t, 17, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
      s < 0 || s > 60 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') ||
      t[13] != ':' || t[16] != ':')
    return std::nullopt;
  size_t at = 19;
  double fraction = 0;
  if (at < t.size() && t[at] == '.') {
    double scale = 0.1;
    ++at;
    const size_t start = at;
    for (; at < t.size() && t[at] >= '0' && t[at] <= '9'; ++at, scale /= 10)
      fraction += (t[at] - '0') * scale;
    if (at == start) return std::nullopt;
  }
  int offset_s = 0;
  if (at < t.size() && t[at] == 'Z') {
    ++at;
  } else if (at < t.size() && (t[at] == '+' || t[at] == '-')) {
    const int sign = t[at] == '-' ? -1 : 1;
    const int oh = digits(t, at + 1, 2);
    const bool colon = at + 3 < t.size() && t[at + 3] == ':';
    const int om = digits(t, at + (colon ? 4 : 3), 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset_s = sign * (oh * 3600 + om * 60);
    at += colon ? 6 : 5;
  } else {
    return std::nullopt;  // a time without an offset could be anyone's local time
  }
  if (at != t.size()) return std::nullopt;
  return static_cast<double>(days_from_civil(y, mo, d)) * 86400 + h * 3600 + mi * 60 + s +
         fraction - offset_s;
}

SubmissionMetadata SubmissionMetadata::parse(const std::string& text, const std::string& file,
                                             const GradescopePolicy& policy) {
  const MetadataReader r(file);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception&) {
    r.fail("(whole file)", "not valid JSON");
  }
  SubmissionMetadata m;
  if (policy.late_penalty) {
    m.created_at = r.time(r.field(j, "created_at", ""), "created_at");
    const json& due = r.field(r.field(j, "assignment", ""), "due_date", "assignment");
    if (!due.is_null()) m.due_date = r.time(due, "assignment.due_date");
  }
  if (policy.submission_limit) {
    const json& prev = r.field(j, "previous_submissions", "");
    if (!prev.is_array()) r.fail("previous_submissions", "must be an array");
    for (size_t i = 0; i < prev.size(); ++i) {
      const std::string where = "previous_submissions[" + std::to_string(i) + "]";
      Previous p;
      p.submitted = r.time(r.field(prev[i], "submission_time", where), where + ".submission_time");
      if (prev[i].contains("score") && !prev[i]["score"].is_null())
        p.score = r.score(prev[i]["score"], where + ".score");
      m.previous.push_back(p);
    }
    // The latest earlier submission's score is the one a submission past the limit keeps.
    const auto latest = std::max_element(
        m.previous.begin(), m.previous.end(),
        [](const Previous& a, const Previous& b) { return a.submitted.s < b.submitted.s; });
    if (latest != m.previous.end() && !latest->score &&
        static_cast<int>(m.previous.size()) >= *policy.submission_limit)
      r.fail("previous_submissions[" + std::to_string(latest - m.previous.begin()) + "].score",
             "missing: the latest previous submission has no score to keep");
  }
  return m;
}

std::optional<ScoreAdjustment> submission_adjustment(const Report& report,
                                                     const GradescopePolicy& policy,
                                                     const SubmissionMetadata& metadata) {
  if (policy.submission_limit &&
      static_cast<int>(metadata.previous.size()) >= *policy.submission_limit) {
    const auto latest = std::max_element(
        metadata.previous.begin(), metadata.previous.end(),
        [](const auto& a, const auto& b) { return a.submitted.s < b.submitted.s; });
    // No points in the reason: the kept score counts that submission's hidden tests, so only
    // the lines that may count them give it (score_lines.h).
    return ScoreAdjustment{latest->score.value_or(0),
                           "This is submission " + std::to_string(metadata.previous.size() + 1) +
                               ", past the course's limit of " +
                               std::to_string(*policy.submission_limit) +
                               ": the score given is that of your latest earlier submission (" +
                               latest->submitted.text +
                               "). The feedback below is this submission's, for your information.",
                           std::nullopt};
  }
  if (policy.late_penalty && metadata.due_date) {
    const double late_s = metadata.created_at.s - metadata.due_date->s;
    const double fraction = policy.late_penalty->fraction(late_s);
    if (fraction <= 0) return std::nullopt;
    const double days = std::ceil(late_s / 86400.0);
    // The points before and after are each line's own (score_lines.h): a student shown the
    // hidden tests later reads those of the tests shown now.
    return ScoreAdjustment{
        after_late_penalty(report.score(), fraction),
        "Submitted " + points_text(days) + (days == 1 ? " day" : " days") + " late (due " +
            metadata.due_date->text + ", submitted " + metadata.created_at.text +
            "; each day begun counts): the course takes " + percent(policy.late_penalty->per_day) +
            " off per day, at most " + percent(policy.late_penalty->max) + ", so " +
            percent(fraction) + " off",
        fraction};
  }
  return std::nullopt;
}

GradescopePolicyInputs GradescopePolicyInputs::of(const GradescopePolicy& policy,
                                                  const std::filesystem::path& metadata_file) {
  GradescopePolicyInputs in;
  in.policy = policy;
  in.metadata_file = metadata_file;
  if (metadata_file.empty() || !policy.reads_metadata()) return in;
  std::ifstream file(metadata_file, std::ios::binary);
  if (file)
    in.metadata_text =
        std::string{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return in;
}

GradescopePolicyInputs GradescopePolicyInputs::read(const std::string& lab_id,
                                                    const std::filesystem::path& metadata_file) {
  try {
    return of(LabConfig::load_id(Paths::current().source, lab_id).gradescope, metadata_file);
  } catch (const LabConfigError& e) {
    GradescopePolicyInputs in;  // grading says what is wrong with the lab; here, only the log
    in.lab_problem = e.what();
    return in;
  }
}

void apply_gradescope_policy(Report& report, const GradescopePolicyInputs& inputs,
                             std::ostream& log) {
  if (!report.scored()) return;
  if (!inputs.lab_problem.empty()) {
    log << "gpulab grade: the lab's Gradescope policy was not applied: " << inputs.lab_problem
        << "\n";
    return;
  }
  const GradescopePolicy& policy = inputs.policy;
  report.hidden_tests_visibility = policy.hidden_tests_visibility;
  if (inputs.metadata_file.empty() || !policy.reads_metadata()) return;
  const std::string file = inputs.metadata_file.string();
  try {
    if (!inputs.metadata_text) throw SubmissionMetadataError(file + ": cannot be read");
    const SubmissionMetadata m = SubmissionMetadata::parse(*inputs.metadata_text, file, policy);
    report.adjustment = submission_adjustment(report, policy, m);
  } catch (const SubmissionMetadataError& e) {
    // The tests' sum stands: the grade is sound, only the course's adjustment is missing, and
    // the instructor, told here and in the log, can apply it by hand.
    const std::string why =
        std::string(
            "The course's late penalty and submission limit were not applied, so the "
            "score is the tests' sum: ") +
        e.what() + ".";
    report.output += why + "\n";
    log << "gpulab grade: " << why << "\n";
  }
}

}  // namespace gpulab
