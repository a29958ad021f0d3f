#include "grade/grade.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "build/build_cache.h"
#include "core/grade_phases.h"
#include "core/report_builder.h"
#include "files/file_lock.h"
#include "files/remove_tree.h"
#include "files/secret.h"
#include "files/temp_folder.h"
#include "grade/correctness_tests.h"
#include "grade/error_map_files.h"
#include "grade/grade_context.h"
#include "grade/intake.h"
#include "grade/part_budgets.h"
#include "grade/review_scan.h"
#include "grade/runner_builds.h"
#include "grade/sanitizer_runs.h"
#include "grade/timed_tests.h"
#include "grade/writeup.h"
#include "os/process.h"
#include "os/stop_signals.h"
#include "sandbox/run_libraries.h"
#include "sandbox/sandbox.h"
#include "text/joined_words.h"
#include "text/nearest_name.h"
#include "text/shown_paths.h"

namespace gpulab {

namespace {

constexpr const char* kDefaultHiddenSeed = "20261122";

std::string compiler_version(const std::vector<std::string>& cmd) {
  const ProcessResult r = run_process({cmd, {}, 30, 4096, 0, 0, {}});
  std::string out = r.output;
  // nvcc prints its release on the last-but-one line; keep the line that names the release.
  size_t at = out.find("release");
  if (at == std::string::npos) return out.substr(0, out.find('\n'));
  const size_t start = out.rfind('\n', at);
  const size_t end = out.find('\n', at);
  return out.substr(start == std::string::npos ? 0 : start + 1,
                    end == std::string::npos ? std::string::npos : end - start - 1);
}

// One grading, as its steps: load the lab and look at the machine (device, sandbox), take in
// and build the submission, then grade each selected part: its correctness tests
// (correctness_tests.h), then its timed tests (timed_tests.h) or a note saying why there are
// none. Every test reaches the report through the report builder (report_builder.h).
class Grading {
 public:
  Grading(const GradeOptions& o, std::ostream& log) : c_(o, log), runners_(c_) {}

  void run(Report& report) {
    const auto t0 = std::chrono::steady_clock::now();
    c_.paths = Paths::current();
    c_.lab = LabConfig::load_id(c_.paths.source, c_.o.lab);
    if (c_.sim() && !std::filesystem::exists(c_.paths.sim_cc()))
      throw std::runtime_error(
          "this gpulab was built without the CPU backend (" + c_.paths.sim_cc().string() +
          " is missing): run scripts/setup.sh, which installs what it needs, and rebuild");
    std::vector<std::string> parts;
    for (const auto& p : c_.lab.parts) parts.push_back(p.name);
    for (const auto& p : c_.o.parts)
      if (!c_.lab.part(p))
        throw std::runtime_error("lab " + c_.lab.id + ": " + unknown_name("part", p, parts));
    c_.device = device_preflight();
    c_.scope = scope();
    if (c_.o.require_gpu && !c_.sim() && !c_.device.usable)
      throw std::runtime_error(not_graded_without_gpu("--require-gpu asks for one."));
    // A dataset that nothing graded here runs would grade nothing: 0 of 0, and a student left
    // wondering.
    if (!c_.scope.dataset.empty()) {
      const std::vector<std::string> names = dataset_names(c_.lab, c_.scope);
      if (std::find(names.begin(), names.end(), c_.scope.dataset) == names.end())
        throw std::runtime_error("lab " + c_.lab.id + " on the " + backend_name(c_.o.backend) +
                                 " backend: " + unknown_name("dataset", c_.scope.dataset, names));
    }
    c_.steps.planned(correctness_runs(c_.lab, c_.scope));
    c_.hidden_seed = hidden_seed();
    report.environment = environment();
    c_.sandbox = Sandbox::detect(c_.paths, !c_.sim() && c_.device.usable);
    report.environment["sandbox"] = c_.sandbox.to_json();
    refuse_unless_sandboxed(report);
    keep_secrets_unsandboxed(report);
    prepare_work_dir();
    c_.sandbox.stage_runs_in(c_.work);

    remove_error_maps(c_.lab, c_.o);  // an earlier grading's, of another submission perhaps
    ReportBuilder out(report, c_.lab, c_.scope);
    const auto src = c_.work / "submission";
    IntakeSpec intake_spec = IntakeSpec::of(c_.lab);
    const bool writeup = c_.lab.writeup && !c_.o.writeup_beside.empty();
    if (writeup) intake_spec.writeup_file = c_.lab.writeup->file;
    const Intake intake = take_in_submission(c_.o.submission, intake_spec, src);
    // Read as handed in, before anything of the submission is built or run.
    std::vector<ReviewFlagSite> to_review;
    if (intake.accepted && c_.o.review_flags)
      to_review = review_submission(src, c_.lab.student_files);
    std::optional<Test> writeup_test;
    if (writeup)
      writeup_test = keep_writeup(c_.lab, intake_spec, intake, c_.o.writeup_beside, c_.log);
    std::optional<TimeBudget> budget;
    if (c_.o.time_budget_s) budget.emplace(*c_.o.time_budget_s, t0);
    PartBudgets budgets(budget, report, out, c_.lab, c_.scope, c_.log);
    grade_submission(report, out, budgets, intake_spec, intake, src, t0);
    out.to_review(std::move(to_review));
    // Last, whatever became of the code: the write-up is graded by the instructor either way.
    if (writeup_test) out.add(std::move(*writeup_test));
  }

  // Whatever the runs and the build left in the work folder, removing it cannot throw or stop
  // the grade (remove_tree.h); what stays is said.
  ~Grading() {
    if (!remove_work_) return;
    if (const std::string left = remove_tree(c_.work); !left.empty())
      c_.log << "warning (instructor): " << left << "\n";
  }

 private:
  // The submission taken in: built, and each selected part graded.
  void grade_submission(Report& report, ReportBuilder& out, PartBudgets& budgets,
                        const IntakeSpec& intake_spec, const Intake& intake,
                        const std::filesystem::path& src,
                        std::chrono::steady_clock::time_point t0) {
    if (!intake.accepted) {
      report.outcome = SubmissionOutcome::kNotAccepted;
      out.parts_not_run("submission not accepted", intake.rejection);
      return;
    }
    if (!intake.note(intake_spec).empty()) report.output += intake.note(intake_spec) + "\n";
    // From the build on, no child runs past the time budget's end (time_budget.h): the build
    // has all of it, each part its share (PartBudgets).
    std::optional<ChildDeadline> budget_end;
    if (const auto end = budgets.end()) budget_end.emplace(*end);
    FileLock gpu_lock;
    try {
      if (!build_and_prepare(report, out, src, gpu_lock)) return;
    } catch (const OutOfTime& stop) {
      budgets.build_stopped(stop);
      budgets.finish();
      return;
    }
    if (c_.o.measure) return c_.o.measure(c_, runners_, out);
    TimedTests timed(c_, runners_, out);
    // Parts that run here share the budget; a GPU part without a GPU takes none of it.
    const auto runs_here = [&](const PartSpec& part) {
      return c_.scope.part_selected(part.name) && !(part.gpu && !c_.scope.gpu_parts_run);
    };
    int parts_left =
        static_cast<int>(std::count_if(c_.lab.parts.begin(), c_.lab.parts.end(), runs_here));
    for (const auto& part : c_.lab.parts) {
      if (runs_here(part))
        budgets.grade(part, parts_left--, [&] { grade_part(part, out, timed); });
      else if (c_.scope.part_selected(part.name))
        grade_part(part, out, timed);
    }
    budgets.finish();
    if (c_.sim())
      report.output +=
          "Graded on gpulab's CPU backend (sim), which runs your kernels on the CPU and checks "
          "them for bugs; it measures no speed, so performance points are left out of the "
          "maximum.";
    else if (!c_.device.usable && !c_.o.require_gpu)
      report.output += "This machine has no usable CUDA GPU (" + c_.device.problem +
                       "), so GPU parts were not graded and are left out of the maximum.";
    report.execution_time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // The student's runner built, and what its runs need made ready (what they see of the
  // system, compute-sanitizer, the GPU's lock); false where it did not build, the report saying
  // so.
  bool build_and_prepare(Report& report, ReportBuilder& out, const std::filesystem::path& src,
                         FileLock& gpu_lock) {
    c_.steps.note("building " + c_.o.submission.string());
    c_.student = build_runner_kept(c_.lab, c_.paths, src, c_.work / "student-build", c_.o.backend,
                                   c_.sandbox);
    if (c_.student.kept) c_.steps.note("the same files' runner, kept from an earlier build");
    if (!c_.student.ok) {
      report.outcome = SubmissionOutcome::kNotBuilt;
      // The compiler's words name the work folder's copy: the student's own files instead.
      out.parts_not_run(
          "does not build",
          "Your code did not build, so every part scores zero.\n" +
              with_student_paths(
                  c_.student.message, src,
                  shown_submission_prefix(c_.o.submission, std::filesystem::current_path())));
      return false;
    }
    refuse_without_gpu();
    if (c_.sandbox.enabled()) show_runs_libraries();
    c_.sanitizer = SanitizerRuns::for_grading(c_, out);
    if (!c_.o.gpu_lock.empty()) {
      c_.steps.note("waiting for the GPU (lock " + c_.o.gpu_lock.string() + ")");
      gpu_lock = FileLock(c_.o.gpu_lock);
    }
    return true;
  }

  // A grade of record covers every part it selects: where a selected GPU part cannot run (the
  // cuda backend, no usable GPU), code that built is not graded, rather than scored on the
  // other parts alone (grade.h, of_record).
  void refuse_without_gpu() const {
    if (!c_.o.of_record || c_.scope.gpu_parts_run) return;
    std::vector<std::string> gpu_parts;
    for (const auto& part : c_.lab.parts)
      if (part.gpu && c_.scope.part_selected(part.name)) gpu_parts.push_back(part.name);
    if (gpu_parts.empty()) return;
    throw std::runtime_error(not_graded_without_gpu(
        (gpu_parts.size() == 1 ? "the part " : "the parts ") + joined(gpu_parts) +
        (gpu_parts.size() == 1 ? " needs" : " need") +
        " one, so no score is given. Grade on a machine with a GPU, or with --backend sim (every "
        "part on gpulab's CPU backend, without performance points)."));
  }

  // Why a grading on the cuda backend refuses here: the machine's problem, then `because`.
  std::string not_graded_without_gpu(const std::string& because) const {
    return "Not graded: this machine has no usable CUDA GPU (" + c_.device.problem + "), and " +
           because;
  }

  // What every run of this grading sees of the system (run_libraries.h), read once.
  void show_runs_libraries() {
    RunLibraries libs = run_libraries(c_.paths, c_.lab.id, c_.o.backend, c_.student.runner);
    for (const auto& name : libs.missing)
      c_.log << "warning (instructor): the lab's runners need " << name << " (read from "
             << libs.read_from.string() << "), which this machine's loader finds nowhere\n";
    c_.sandbox.show_runs(std::move(libs));
  }

  // What this grading covers (grade_scope.h), once the machine is known.
  GradeScope scope() const {
    GradeScope s;
    s.backend = c_.o.backend;
    s.parts = c_.o.parts;
    s.dataset = c_.o.dataset;
    s.include_hidden = c_.o.include_hidden;
    s.performance = c_.o.performance;
    s.gpu_parts_run = c_.sim() || c_.device.usable;  // GPU parts run on a GPU, or on sim
    s.gpu_parts_count = c_.o.of_record;
    s.reference = runners_.reference_available();
    return s;
  }

  std::string hidden_seed() {
    const std::optional<std::string> given = c_.o.hidden_seed_file.empty()
                                                 ? c_.o.hidden_seed
                                                 : read_hidden_seed_file(c_.o.hidden_seed_file);
    if (const auto secret = hidden_secret(given, c_.log)) return *secret;
    if (c_.o.include_hidden)
      c_.log << "warning (instructor): no hidden seed given (--hidden-seed or GPULAB_HIDDEN_SEED); "
                "hidden datasets use gpulab's default seed, which students can reproduce\n";
    return kDefaultHiddenSeed;
  }

  nlohmann::json environment() const {
    nlohmann::json e = {
        {"version", GPULAB_VERSION},
        {"lab", c_.lab.id},
        {"backend", backend_name(c_.o.backend)},
        {"device", c_.device.to_json()},
        {"compiler",
         compiler_version({c_.sim() ? std::string("c++") : c_.paths.nvcc.string(), "--version"})},
        {"host_compiler", compiler_version({"c++", "--version"})}};
    return e;
  }

  void prepare_work_dir() {
    if (!c_.o.work_dir.empty()) {
      c_.work = c_.o.work_dir;
      std::filesystem::create_directories(c_.work);
      return;
    }
    c_.work = make_temp_folder("gpulab", "the grading's work");
    remove_work_ = true;
    // The sandbox's user reaches the folders bound for it through this one (as does a user of
    // a run's own outside the sandbox, the files staged for it); it cannot list it.
    if (c_.sandbox.enabled() || c_.sandbox.own_users())
      std::filesystem::permissions(c_.work, std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add);
  }

  // Student code runs in the sandbox, or not at all unless unsandboxed runs were allowed (grade
  // --allow-unsandboxed; gpulab run, which runs the student's own code, allows them).
  void refuse_unless_sandboxed(Report& report) {
    if (c_.sandbox.enabled()) return;
    const std::string why =
        "student code cannot be sandboxed on this machine: " + c_.sandbox.problem();
    if (!c_.o.allow_unsandboxed) {
      c_.log << "error (instructor): " << why
             << "\n  Not grading. Install bubblewrap (scripts/setup.sh) on a machine with user "
                "namespaces, or pass --allow-unsandboxed to grade without the sandbox "
                "(docs/GRADING.md, \"The sandbox and the threat model\").\n";
      throw std::runtime_error(
          "Grading refused: " + why +
          " Without the sandbox, student code could read expected outputs and reference "
          "sources, or write the report. Install bubblewrap, or pass --allow-unsandboxed.");
    }
    report.environment["sandbox"]["unsandboxed_allowed"] = true;
    c_.log << "WARNING: " << why
           << "\n  The code runs WITHOUT the sandbox. (Allowed: gpulab run, or "
           << "grade --allow-unsandboxed.)\n";
  }

  // Outside the sandbox, a grading with hidden datasets still keeps its secrets from student
  // code where the grader is root (a course platform's container): each child runs as a user of
  // its own (Sandbox::run_unsandboxed_as_own_users), which cannot read the dataset cache (closed
  // to other users here, so the expected outputs are the grader's alone; runs get their inputs
  // through stand-ins, run_staging.h) nor the hidden seed's file (refused unless closed to
  // them), nor the grader's environment or memory; the seed is off its command line
  // (hide_secret_arguments, secret.h). A grader that is not root runs the code as itself: it
  // can read and write whatever that user can (docs/GRADING.md, "Where bubblewrap cannot run").
  void keep_secrets_unsandboxed(Report& report) {
    if (c_.sandbox.enabled()) return;
    if (!c_.o.include_hidden || !c_.sandbox.run_unsandboxed_as_own_users()) {
      c_.log << "  It runs as this user, and can read and write whatever this user can.\n";
      return;
    }
    report.environment["sandbox"]["own_user"] = true;
    if (!c_.o.hidden_seed_file.empty())
      if (const std::string why = readable_by_other_users(c_.o.hidden_seed_file); !why.empty())
        throw std::runtime_error(
            "the hidden seed's file " + why +
            ", and student code runs unsandboxed here: chmod 600 it (gpulab's course packages "
            "do), or grade where bubblewrap runs");
    const std::filesystem::path cache = c_.paths.cache_dir();
    std::filesystem::create_directories(cache);
    using P = std::filesystem::perms;
    if ((std::filesystem::status(cache).permissions() & (P::group_all | P::others_all)) !=
        P::none) {
      std::filesystem::permissions(cache, P::group_all | P::others_all,
                                   std::filesystem::perm_options::remove);
      c_.log << "  Closed the dataset cache " << cache.string()
             << " to other users: its expected outputs are the grader's alone.\n";
    }
    c_.log << "  It runs as a user of its own, which cannot read the hidden seed, the dataset "
              "cache or this grader's memory; it can read what every user can.\n";
  }

  void grade_part(const PartSpec& part, ReportBuilder& out, TimedTests& timed) {
    const PartRubric& rubric = c_.lab.rubric.at(part.name);
    if (part.gpu && !c_.scope.gpu_parts_run) {
      out.part_not_run(
          part, "not graded (no GPU)",
          "This part needs a CUDA GPU and the grading machine has none: " + c_.device.problem +
              "." +
              (std::filesystem::exists(c_.paths.sim_cc())
                   ? " To check it without a GPU, run it on the CPU backend: "
                     "--backend sim."
                   : " To check it without a GPU, build gpulab with its CPU backend "
                     "(scripts/setup.sh installs what it needs; README, \"Student install\")."));
      return;
    }
    const bool public_ok = CorrectnessTests(c_, runners_, out).grade(part);
    if (!(rubric.timed_points() > 0)) return;
    if (c_.sim())
      out.info(part.name + ": performance not measured (sim backend)",
               "The CPU backend says nothing about speed on a GPU, so these points are left out "
               "here; grading on a GPU awards them.",
               {part.name, "performance"});
    else if (c_.o.performance)
      while_doing("its performance test's timed runs", [&] {
        // Nothing beside a timed run: the grading's runs under the tools have ended (a part
        // that ran out of time before it waited for them leaves them to this wait).
        if (c_.sanitizer) c_.sanitizer->grading_verdict();
        timed.grade(part, public_ok);
      });
    else
      out.info(part.name + ": performance not measured (--no-time)",
               "Timing was switched off for this run.", {part.name, "performance"});
  }

  GradeContext c_;
  RunnerBuilds runners_;
  bool remove_work_ = false;
};

}  // namespace

Report grade(const GradeOptions& options, std::ostream& log) {
  Report report;
  const PhaseClock clock;
  try {
    Grading g(options, log);
    g.run(report);
  } catch (const std::exception& e) {
    report.grader_error = e.what();
  } catch (const Stopped& s) {  // the tests finished before it stay
    report.stopped_by = s.signal;
  } catch (const OutOfTime& o) {  // each part and the build take their own: never expected here
    report.grader_error = "the time budget ran out outside any part of the grading" +
                          (o.during.empty() ? std::string() : " (during " + o.during + ")");
  }
  report.phase_seconds = clock.seconds();
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  report.peak_memory_mib = static_cast<double>(self.ru_maxrss) / 1024;  // ru_maxrss: KiB
  return report;
}

Report stopped_report(const GradeOptions& options, int signal) {
  Report report;
  report.stopped_by = signal;
  report.environment = {{"version", GPULAB_VERSION},
                        {"lab", options.lab},
                        {"backend", backend_name(options.backend)}};
  return report;
}

}  // namespace gpulab
