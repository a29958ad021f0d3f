#include "class/grade_all.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "class/class_job.h"
#include "class/class_table.h"
#include "class/gradebook.h"
#include "class/roster_csv.h"
#include "device.h"
#include "files/atomic_file.h"
#include "files/paths.h"
#include "files/secret.h"
#include "grade/grade.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"
#include "os/progress.h"
#include "report/report_formats.h"
#include "text/joined_words.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace class_files;

namespace {

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

class ClassGrading {
 public:
  ClassGrading(const GradeAllOptions& o, std::ostream& out) : o_(o), out_(out) {}

  int run(std::ostream& progress_out, bool tty) {
    seed_ = check_class_options(o_, out_);
    gpus_ = visible_gpus(o_.backend);
    refuse_without_gpu();
    std::vector<ClassJob> jobs = list_class_jobs(o_, seed_, out_);
    std::vector<const ClassJob*> todo;
    for (const auto& j : jobs)
      if (!already_graded(j)) todo.push_back(&j);
    gpu_load_.assign(gpus_.size(), 0);
    const unsigned workers = std::max(
        1u,
        std::min<unsigned>(o_.jobs ? o_.jobs : std::max(1u, std::thread::hardware_concurrency()),
                           static_cast<unsigned>(todo.size())));
    out_ << "grading " << todo.size() << " of " << jobs.size() << " submissions ("
         << backend_name(o_.backend) << " backend, " << workers << " at a time";
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

    write_class_files(o_, jobs);
    out_ << "graded " << todo.size() << " now, " << jobs.size() - todo.size()
         << " already graded; the grader failed on " << failures_ << "\n"
         << "reports: " << (o_.out / "<lab>" / "<student>" / kReport).string() << " (gpulab), "
         << kResults << " (Gradescope)\n"
         << class_files_line(o_.out);
    return failures_ ? kExitFailed : kExitOk;
  }

 private:
  // On the cuda backend without a usable GPU, each grader of a lab with a GPU part would end
  // without a score (grade.h, of_record), student after student: refused at once instead, with
  // nothing graded or written. --require-gpu refuses whatever the labs' parts.
  void refuse_without_gpu() const {
    if (o_.backend != Backend::cuda || !gpus_.empty()) return;
    std::vector<std::string> gpu_labs;
    const Paths paths = Paths::current();
    for (const auto& id : o_.labs) {
      const LabConfig lab = LabConfig::load_id(paths.source, id);
      if (std::any_of(lab.parts.begin(), lab.parts.end(), [](const PartSpec& p) { return p.gpu; }))
        gpu_labs.push_back(id);
    }
    if (gpu_labs.empty() && !o_.require_gpu) return;
    throw std::runtime_error(
        "grade-all: this machine has no usable CUDA GPU (" + device_preflight().problem +
        "), and " +
        (o_.require_gpu ? std::string("--require-gpu asks for one")
                        : joined(gpu_labs) + (gpu_labs.size() == 1 ? " has" : " have") +
                              " GPU parts, which no grader could score here") +
        ": nothing graded. Grade on a machine with a GPU (or --slurm, with a GPU for each "
        "task), or with --backend sim (every part on gpulab's CPU backend, without "
        "performance points).");
  }

  void work() {
    for (;;) {
      const ClassJob* job;
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
        const GradedSubmission g = grade_class_job(*job, o_, seed_, gpu >= 0 ? gpus_[gpu] : "");
        std::lock_guard<std::mutex> lock(mutex_);
        ++(g.scored ? graded_ : failures_);
        line = g.line;
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

  const GradeAllOptions& o_;
  std::ostream& out_;
  std::optional<std::string> seed_;
  std::vector<std::string> gpus_;
  std::vector<int> gpu_load_;  // graders given each GPU, running now
  Progress* progress_ = nullptr;
  const std::vector<const ClassJob*>* todo_ = nullptr;
  std::mutex mutex_;
  size_t next_ = 0;
  int failures_ = 0;
  int graded_ = 0;  // in this run, with a score
};

}  // namespace

GradeAllOptions absolute_paths(GradeAllOptions o) {
  o.roster = fs::absolute(o.roster);
  o.out = fs::absolute(o.out);
  if (!o.roster_csv.empty()) o.roster_csv = fs::absolute(o.roster_csv);
  return o;
}

std::optional<std::string> check_class_options(const GradeAllOptions& o, std::ostream& out) {
  if (o.labs.empty()) throw std::runtime_error("grade-all: no labs given (--labs a,b)");
  const Paths paths = Paths::current();
  for (const auto& lab : o.labs) LabConfig::load_id(paths.source, lab);
  canvas_ids(o);
  if (!o.roster_csv.empty()) read_roster_csv(o.roster_csv);
  const std::optional<std::string> seed = hidden_secret(o.hidden_seed, out);
  if (!seed)
    out << "warning (instructor): no hidden seed given (--hidden-seed or GPULAB_HIDDEN_SEED); "
           "hidden datasets use gpulab's default seed, which students can reproduce\n";
  return seed;
}

void write_class_files(const GradeAllOptions& o, const std::vector<ClassJob>& jobs) {
  ClassTable table(o.labs);
  if (!o.roster_csv.empty())
    for (const auto& p : read_roster_csv(o.roster_csv)) table.add_student(p);
  for (const auto& j : jobs)
    if (auto report = read_report(j.dir / kReport)) table.add(j.student, j.lab, *report);
  write_file_atomically(o.out / "class.csv", class_csv(table));
  write_file_atomically(o.out / "class.html", class_html(table, "gpulab: class results"));
  write_file_atomically(o.out / "class-findings.csv", class_findings_csv(table));
  write_file_atomically(o.out / "canvas.csv", canvas_gradebook_csv(table, canvas_ids(o)));
  for (const auto& lab : o.labs)
    write_file_atomically(o.out / ("gradescope-" + lab + ".csv"),
                          gradescope_scores_csv(table, lab));
}

std::string class_files_line(const fs::path& out) {
  return "class:   " + (out / "class.csv").string() + ", " + (out / "class.html").string() +
         " (what the class got wrong: also class-findings.csv); gradebooks: canvas.csv, "
         "gradescope-<lab>.csv\n";
}

std::vector<std::string> visible_gpus(Backend backend) {
  std::vector<std::string> ids;
  if (backend != Backend::cuda) return ids;
  const DeviceInfo first = device_preflight(0);
  for (int i = 0; first.usable && i < first.count; ++i) {
    const DeviceInfo d = device_preflight(i);
    if (d.usable) ids.push_back(d.uuid);
  }
  return ids;
}

int grade_all(const GradeAllOptions& options, std::ostream& out, std::ostream& progress,
              bool progress_is_tty) {
  const GradeAllOptions o = absolute_paths(options);
  fs::create_directories(o.out);
  ClassGrading g(o, out);
  return g.run(progress, progress_is_tty);
}

void die_with_parent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1);  // grade-all died before the line above
}

}  // namespace gpulab
