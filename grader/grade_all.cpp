#include "grade_all.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "atomic_file.h"
#include "class_table.h"
#include "content_hash.h"
#include "device.h"
#include "exit_status.h"
#include "grade.h"
#include "gradebook.h"
#include "lab_config.h"
#include "paths.h"
#include "process.h"
#include "progress.h"
#include "report_formats.h"
#include "report_json.h"
#include "roster.h"
#include "roster_csv.h"
#include "secret.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The grade, in gpulab's own format: what every export is made from.
constexpr const char* kReport = "report.json";
constexpr const char* kPartial = "report.json.partial";  // what the grader writes, checked
constexpr const char* kResults = "results.json";         // Gradescope's, from the report
constexpr const char* kRecord = "grading.json";
constexpr const char* kLog = "grade.log";

struct Job {
  std::string lab, student;
  fs::path submission, dir;
  json key;  // the configuration this grading is for
};

std::optional<json> read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// The gpulab report `file` holds; none where it is missing or is not one.
std::optional<Report> read_report(const fs::path& file) {
  const auto j = read_json(file);
  if (!j) return std::nullopt;
  try {
    return report_from_gpulab_json(*j);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

// "LAB=ID" options as a map; throws for one that is not, or names a lab not graded.
std::map<std::string, std::string> canvas_ids(const GradeAllOptions& o) {
  std::map<std::string, std::string> ids;
  for (const auto& a : o.canvas_assignments) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
      throw std::runtime_error("grade-all: --canvas-assignment " + a + ": give LAB=ID");
    const std::string lab = a.substr(0, eq);
    if (std::find(o.labs.begin(), o.labs.end(), lab) == o.labs.end())
      throw std::runtime_error("grade-all: --canvas-assignment " + a + ": lab " + lab +
                               " is not among --labs");
    ids[lab] = a.substr(eq + 1);
  }
  return ids;
}

// The seed as the record keeps it: an HMAC under it (secret.h), which tells seeds apart and
// gives none back, so grading.json may be seen by anyone.
std::string seed_fingerprint(const std::optional<std::string>& seed) {
  return seed ? secret_fingerprint(*seed, "gpulab grade-all record") : "default";
}

// The UUIDs of the GPUs this process sees; none on the sim backend or without a GPU.
std::vector<std::string> visible_gpus(const std::string& backend) {
  std::vector<std::string> ids;
  if (backend != "cuda") return ids;
  const DeviceInfo first = device_preflight(0);
  for (int i = 0; first.usable && i < first.count; ++i) {
    const DeviceInfo d = device_preflight(i);
    if (d.usable) ids.push_back(d.uuid);
  }
  return ids;
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// A submission gpulab cannot read through is still graded (the grader reports what is wrong
// with it), every time: its fingerprint never matches a record.
std::string submission_hash(const fs::path& submission) {
  try {
    return content_hash(submission);
  } catch (const std::exception& e) {
    return std::string("unreadable, graded every time: ") + e.what() + " " + now_iso8601();
  }
}

class ClassGrading {
 public:
  ClassGrading(const GradeAllOptions& o, std::ostream& out) : o_(o), out_(out) {}

  int run(std::ostream& progress_out, bool tty) {
    const Paths paths = Paths::current();
    for (const auto& lab : o_.labs) LabConfig::load_id(paths.source, lab);
    canvas_ids_ = canvas_ids(o_);
    if (!o_.roster_csv.empty()) people_ = read_roster_csv(o_.roster_csv);
    seed_ = hidden_secret(o_.hidden_seed, out_);
    if (!seed_)
      out_ << "warning (instructor): no hidden seed given (--hidden-seed or GPULAB_HIDDEN_SEED); "
              "hidden datasets use gpulab's default seed, which students can reproduce\n";
    std::vector<Job> jobs = list_jobs();
    std::vector<const Job*> todo;
    for (const auto& j : jobs)
      if (!already_graded(j)) todo.push_back(&j);
    gpus_ = visible_gpus(o_.backend);
    gpu_load_.assign(gpus_.size(), 0);
    const unsigned workers = std::max(
        1u,
        std::min<unsigned>(o_.jobs ? o_.jobs : std::max(1u, std::thread::hardware_concurrency()),
                           static_cast<unsigned>(todo.size())));
    out_ << "grading " << todo.size() << " of " << jobs.size() << " submissions (" << o_.backend
         << " backend, " << workers << " at a time";
    if (!gpus_.empty()) out_ << ", " << gpus_.size() << " GPU(s), one grader at a time on each";
    out_ << ")\n" << std::flush;

    Progress progress(progress_out, tty, jobs.size(), jobs.size() - todo.size(),
                      tty ? Progress::terminal_width(2) : 80);
    progress_ = &progress;
    todo_ = &todo;
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < workers; ++i) threads.emplace_back([this] { work(); });
    for (auto& t : threads) t.join();
    progress.close();
    if (const int signal = stop_signal()) {
      out_ << "stopped by " << signal_name(signal) << ": graded " << graded_ << " now; the "
           << "submissions not finished are graded when the same command runs again\n";
      return kExitStopped;
    }

    write_class_files(jobs);
    out_ << "graded " << todo.size() << " now, " << jobs.size() - todo.size()
         << " already graded; the grader failed on " << failures_ << "\n"
         << "reports: " << (o_.out / "<lab>" / "<student>" / kReport).string() << " (gpulab), "
         << kResults << " (Gradescope)\n"
         << "class:   " << (o_.out / "class.csv").string() << ", "
         << (o_.out / "class.html").string() << "; gradebooks: canvas.csv, gradescope-<lab>.csv\n";
    return failures_ ? kExitFailed : kExitOk;
  }

 private:
  // The class table of every report, and what it renders: class.csv, class.html, and the
  // gradebook uploads (gradebook.h).
  void write_class_files(const std::vector<Job>& jobs) const {
    ClassTable table(o_.labs);
    for (const auto& p : people_) table.add_student(p);
    for (const auto& j : jobs)
      if (auto report = read_report(j.dir / kReport)) table.add(j.student, j.lab, *report);
    write_file_atomically(o_.out / "class.csv", class_csv(table));
    write_file_atomically(o_.out / "class.html", class_html(table, "gpulab: class results"));
    write_file_atomically(o_.out / "canvas.csv", canvas_gradebook_csv(table, canvas_ids_));
    for (const auto& lab : o_.labs)
      write_file_atomically(o_.out / ("gradescope-" + lab + ".csv"),
                            gradescope_scores_csv(table, lab));
  }

  // Roster folders the roster CSV does not name, and its rows without a folder, each said once.
  void compare_with_roster_csv(const Roster& roster) const {
    if (o_.roster_csv.empty()) return;
    for (const auto& e : roster.entries)
      if (std::none_of(people_.begin(), people_.end(),
                       [&](const RosterPerson& p) { return p.folder == e.student; }))
        out_ << "warning: " << e.student << " has no row in " << o_.roster_csv.string()
             << ": graded, without an id or email in the exports\n";
    for (const auto& p : people_)
      if (std::none_of(roster.entries.begin(), roster.entries.end(),
                       [&](const RosterEntry& e) { return e.student == p.folder; }))
        out_ << "warning: " << p.id << " (" << o_.roster_csv.string() << ") has no entry "
             << p.folder << " in the roster: listed as missing, with zeros\n";
  }

  std::vector<Job> list_jobs() {
    std::vector<Job> jobs;
    for (const auto& lab : o_.labs) {
      const Roster roster = read_roster(o_.roster, lab);
      if (lab == o_.labs.front()) {
        for (const auto& ignored : roster.ignored)
          out_ << "warning: " << ignored.string()
               << " is neither a directory nor an archive (.zip, .tar.gz): not a student\n";
        compare_with_roster_csv(roster);
      }
      for (const auto& e : roster.entries) {
        Job j{lab, e.student, e.submission, o_.out / lab / e.student, {}};
        j.key = {{"lab", lab},
                 {"backend", o_.backend},
                 {"hidden_seed", seed_fingerprint(seed_)},
                 {"gpulab_version", GPULAB_VERSION},
                 {"performance", o_.performance},
                 {"require_gpu", o_.require_gpu},
                 {"submission", submission_hash(e.submission)}};
        jobs.push_back(std::move(j));
      }
    }
    return jobs;
  }

  static bool already_graded(const Job& j) {
    const auto record = read_json(j.dir / kRecord);
    return record && record->is_object() && record->value("key", json()) == j.key &&
           record->value("outcome", "") == "graded" && read_report(j.dir / kReport).has_value() &&
           fs::exists(j.dir / kResults);
  }

  void work() {
    for (;;) {
      const Job* job;
      int gpu = -1;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (next_ >= todo_->size() || stop_signal()) return;
        job = (*todo_)[next_++];
        if (!gpus_.empty()) {
          gpu = static_cast<int>(std::min_element(gpu_load_.begin(), gpu_load_.end()) -
                                 gpu_load_.begin());
          ++gpu_load_[gpu];
        }
      }
      progress_->started();
      std::string line;
      try {
        line = grade(*job, gpu);
      } catch (const Stopped& s) {  // no record: graded again on the next run
        line = job->lab + "/" + job->student + ": stopped (" + signal_name(s.signal) +
               "), graded again on the next run";
      } catch (const std::exception& e) {  // the output directory itself failed us
        std::lock_guard<std::mutex> lock(mutex_);
        ++failures_;
        line = job->lab + "/" + job->student + ": not graded: " + e.what();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (gpu >= 0) --gpu_load_[gpu];
      }
      progress_->finished(line);
    }
  }

  // Grades one submission in a child `gpulab grade`; returns the progress line.
  std::string grade(const Job& j, int gpu) {
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
                                     "--backend",
                                     o_.backend,
                                     "--grade-all-parent",
                                     std::to_string(getpid())};
    if (!o_.performance) argv.push_back("--no-time");
    if (o_.require_gpu) argv.push_back("--require-gpu");
    if (o_.allow_unsandboxed) argv.push_back("--allow-unsandboxed");
    // The secret in the grader's environment, which other users cannot read, not on its
    // command line, which they can (ps).
    std::vector<std::string> env;
    if (seed_) env.push_back("GPULAB_HIDDEN_SEED=" + *seed_);
    if (gpu >= 0) {
      argv.insert(argv.end(),
                  {"--gpu-lock",
                   (fs::temp_directory_path() / ("gpulab-gpu-" + gpus_[gpu] + ".lock")).string()});
      env.push_back("CUDA_VISIBLE_DEVICES=" + gpus_[gpu]);
    }
    ProcessOptions po;
    po.argv = argv;
    po.cwd = j.dir;
    po.timeout_s = o_.submission_timeout_s;
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
      report->environment = {{"version", GPULAB_VERSION}, {"lab", j.lab}, {"backend", o_.backend}};
      write_report(j.dir / kReport, *report, ReportFormat::kGpulab);
      fs::remove(j.dir / kPartial);
    }
    // Gradescope's results.json, from the same report.
    write_report(j.dir / kResults, *report, ReportFormat::kGradescope);
    const bool ok = report->scored();
    const double max = report->max_score();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    json record = {{"key", j.key},
                   {"outcome", ok ? "graded" : "grader failed"},
                   {"student", j.student},
                   {"submission", j.submission.string()},
                   {"max_score", max},
                   {"seconds", seconds},
                   {"finished", now_iso8601()}};
    if (ok) record["score"] = report->final_score();
    if (gpu >= 0) record["gpu"] = gpus_[gpu];
    write_file_atomically(j.dir / kRecord, record.dump(2) + "\n");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++(ok ? graded_ : failures_);
    }
    return j.lab + "/" + j.student + ": " +
           (ok ? format_points(report->final_score()) + " / " + format_points(max)
               : std::string("the grader failed (see grade.log)")) +
           " (" + std::to_string(static_cast<int>(seconds + 0.5)) + " s)";
  }

  const GradeAllOptions& o_;
  std::ostream& out_;
  std::optional<std::string> seed_;
  std::vector<RosterPerson> people_;  // the roster CSV's
  std::map<std::string, std::string> canvas_ids_;
  std::vector<std::string> gpus_;
  std::vector<int> gpu_load_;  // graders given each GPU, running now
  Progress* progress_ = nullptr;
  const std::vector<const Job*>* todo_ = nullptr;
  std::mutex mutex_;
  size_t next_ = 0;
  int failures_ = 0;
  int graded_ = 0;  // in this run, with a score
};

}  // namespace

int grade_all(const GradeAllOptions& options, std::ostream& out, std::ostream& progress,
              bool progress_is_tty) {
  if (options.labs.empty()) throw std::runtime_error("grade-all: no labs given (--labs a,b)");
  // Absolute paths: each grader runs in its student's output directory.
  GradeAllOptions o = options;
  o.roster = fs::absolute(o.roster);
  o.out = fs::absolute(o.out);
  fs::create_directories(o.out);
  ClassGrading g(o, out);
  return g.run(progress, progress_is_tty);
}

void die_with_parent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1);  // grade-all died before the line above
}

}  // namespace gpulab
