#include "class/class_job.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>

#include "class/class_table.h"
#include "class/roster.h"
#include "class/roster_csv.h"
#include "files/atomic_file.h"
#include "files/content_hash.h"
#include "files/secret.h"
#include "os/exit_status.h"
#include "os/process.h"
#include "os/stop_signals.h"
#include "report/report_formats.h"
#include "report/report_json.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace class_files;

namespace {

// A submission gpulab cannot read through is still graded (the grader reports what is wrong
// with it), every time: its fingerprint never matches a record.
std::string submission_hash(const fs::path& submission) {
  try {
    return content_hash(submission);
  } catch (const std::exception& e) {
    return std::string("unreadable, graded every time: ") + e.what() + " " + now_iso8601();
  }
}

// Roster folders the roster CSV does not name, and its rows without a folder, each said once.
void compare_with_roster_csv(const GradeAllOptions& o, const Roster& roster, std::ostream& out) {
  if (o.roster_csv.empty()) return;
  const std::vector<RosterPerson> people = read_roster_csv(o.roster_csv);
  for (const auto& e : roster.entries)
    if (std::none_of(people.begin(), people.end(),
                     [&](const RosterPerson& p) { return p.folder == e.student; }))
      out << "warning: " << e.student << " has no row in " << o.roster_csv.string()
          << ": graded, without an id or email in the exports\n";
  for (const auto& p : people)
    if (std::none_of(roster.entries.begin(), roster.entries.end(),
                     [&](const RosterEntry& e) { return e.student == p.folder; }))
      out << "warning: " << p.id << " (" << o.roster_csv.string() << ") has no entry " << p.folder
          << " in the roster: listed as missing, with zeros\n";
}

// The record written last, after the reports it describes.
void write_record(const ClassJob& j, json record) {
  record["key"] = j.key;
  record["student"] = j.student;
  record["submission"] = j.submission.string();
  record["finished"] = now_iso8601();
  write_file_atomically(j.dir / kRecord, record.dump(2) + "\n");
}

// Gradescope's results.json beside the report, from it, only where it has a score: Gradescope's
// format cannot say "no score" (without one it adds up the tests, a grade), and no results.json
// is Gradescope's own failure state. One left by an earlier grading goes.
void write_gradescope_results(const fs::path& dir, const Report& report) {
  if (report.scored())
    write_report(dir / kResults, report, ReportFormat::kGradescope);
  else
    fs::remove(dir / kResults);
}

}  // namespace

std::vector<ClassJob> list_class_jobs(const GradeAllOptions& o,
                                      const std::optional<std::string>& seed,
                                      std::ostream& warnings) {
  std::vector<ClassJob> jobs;
  for (const auto& lab : o.labs) {
    const Roster roster = read_roster(o.roster, lab);
    if (lab == o.labs.front()) {
      for (const auto& ignored : roster.ignored)
        warnings << "warning: " << ignored.string()
                 << " is neither a directory nor an archive (.zip, .tar.gz): not a student\n";
      compare_with_roster_csv(o, roster, warnings);
    }
    for (const auto& e : roster.entries) {
      ClassJob j{lab, e.student, e.submission, class_job_dir(o.out, lab, e.student), {}};
      j.key = {{"lab", lab},
               {"backend", backend_name(o.backend)},
               {"hidden_seed", seed_fingerprint(seed)},
               {"gpulab_version", GPULAB_VERSION},
               {"performance", o.performance},
               {"require_gpu", o.require_gpu},
               {"submission", submission_hash(e.submission)}};
      jobs.push_back(std::move(j));
    }
  }
  return jobs;
}

fs::path class_job_dir(const fs::path& out, const std::string& lab, const std::string& student) {
  return out / lab / student;
}

std::optional<json> read_json_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::optional<Report> read_report(const fs::path& file) {
  const auto j = read_json_file(file);
  if (!j) return std::nullopt;
  try {
    return report_from_gpulab_json(*j);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

bool already_graded(const ClassJob& j) {
  const auto record = read_json_file(j.dir / kRecord);
  return record && record->is_object() && record->value("key", json()) == j.key &&
         record->value("outcome", "") == kOutcomeGraded &&
         read_report(j.dir / kReport).has_value() && fs::exists(j.dir / kResults);
}

std::string seed_fingerprint(const std::optional<std::string>& seed) {
  return seed ? secret_fingerprint(*seed, "gpulab grade-all record") : "default";
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

GradedSubmission grade_class_job(const ClassJob& j, const GradeAllOptions& o,
                                 const std::optional<std::string>& seed, const std::string& gpu) {
  fs::create_directories(j.dir);
  fs::remove(j.dir / kRecord);  // from here until the new record, this one is ungraded
  fs::remove(j.dir / kPartial);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> argv = {fs::read_symlink("/proc/self/exe").string(),
                                   "grade",
                                   j.lab,
                                   "--submission",
                                   j.submission.string(),
                                   "--out",
                                   (j.dir / kPartial).string(),
                                   "--format",
                                   format_name(ReportFormat::kGpulab),
                                   "--grade-all-parent",
                                   std::to_string(getpid())};
  // The class's policy, with the seed grade-all settled on (check_class_options).
  std::vector<std::string> env;
  pass_policy(o, seed, argv, env);
  if (!gpu.empty()) {
    argv.insert(
        argv.end(),
        {"--gpu-lock", (fs::temp_directory_path() / ("gpulab-gpu-" + gpu + ".lock")).string()});
    env.push_back("CUDA_VISIBLE_DEVICES=" + gpu);
  }
  ProcessOptions po;
  po.argv = argv;
  po.cwd = j.dir;
  po.timeout_s = o.submission_timeout_s;
  po.output_limit = size_t{1} << 20;
  po.env = env;
  po.stop_grace_s = kStopGraceS + 1;  // time to end its own children and write its report
  const ProcessResult p = run_process(po);
  write_file_atomically(j.dir / kLog,
                        p.output + "\n[gpulab grade-all: gpulab grade " + p.describe() + "]\n");

  // The grader's own report, when it finished and wrote one (kExitFailed: a report that says
  // the grader failed; kExitStopped: that it was stopped, by a signal not grade-all's);
  // anything else is a grader that crashed, hung or was killed.
  std::optional<Report> report;
  if (p.start_error.empty() && !p.timed_out && p.signal == 0 &&
      (p.exit_code == kExitOk || p.exit_code == kExitFailed || p.exit_code == kExitStopped))
    report = read_report(j.dir / kPartial);
  if (report) {
    fs::rename(j.dir / kPartial, j.dir / kReport);
  } else {
    report.emplace();
    report->grader_error = "gpulab grade " + p.describe() +
                           " while grading this submission, and left no report; its output "
                           "is in grade.log beside this report (for instructors).";
    report->environment = {
        {"version", GPULAB_VERSION}, {"lab", j.lab}, {"backend", backend_name(o.backend)}};
    write_report(j.dir / kReport, *report, ReportFormat::kGpulab);
    fs::remove(j.dir / kPartial);
  }
  write_gradescope_results(j.dir, *report);
  const bool ok = report->scored();
  const double max = report->max_score();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  json record = {
      {"outcome", ok ? kOutcomeGraded : kOutcomeFailed}, {"max_score", max}, {"seconds", seconds}};
  if (ok) record["score"] = report->final_score();
  if (!gpu.empty()) record["gpu"] = gpu;
  write_record(j, record);
  return {ok, j.lab + "/" + j.student + ": " +
                  (ok ? format_points(report->final_score()) + " / " + format_points(max)
                      : std::string("the grader failed (see grade.log)")) +
                  " (" + std::to_string(static_cast<int>(seconds + 0.5)) + " s)"};
}

Report stopped_by_scheduler_report(const std::string& lab, Backend backend, int signal) {
  Report r;
  r.stopped_by = signal;
  r.grader_error = "stopped by the scheduler (" + signal_name(signal) +
                   ": scancel, or the job's time limit) before this submission's grading "
                   "finished, so no score is given; graded again when grade-all runs again.";
  r.environment = {{"version", GPULAB_VERSION}, {"lab", lab}, {"backend", backend_name(backend)}};
  return r;
}

void record_stopped_by_scheduler(const ClassJob& j, Backend backend, int signal) {
  fs::create_directories(j.dir);
  const Report r = stopped_by_scheduler_report(j.lab, backend, signal);
  write_report(j.dir / kReport, r, ReportFormat::kGpulab);
  write_gradescope_results(j.dir, r);
  write_record(j, {{"outcome", kOutcomeStopped}, {"max_score", r.max_score()}});
}

}  // namespace gpulab
