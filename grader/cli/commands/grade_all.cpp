// gpulab grade-all: a class at once, here or on a SLURM cluster (class/).
#include "class/grade_all.h"

#include <iostream>

#include "class/grade_all_status.h"
#include "class/slurm_backend.h"
#include "cli/commands/commands.h"
#include "cli/shared_options.h"
#include "os/exit_status.h"
#include "os/progress.h"
#include "os/stop_signals.h"

namespace gpulab {

namespace {

// grade-all's SLURM options: --slurm, its flag, and the options that need it.
CLI::Option* add_slurm_options(CLI::App* cmd, bool& submit, SlurmOptions& s) {
  auto* slurm = cmd->add_flag("--slurm", submit,
                              "Submit to SLURM: a job array of gradings, then a merge job");
  cmd->add_option("--partition", s.partition, "--slurm: the partition")->needs(slurm);
  cmd->add_option("--gres", s.gres, "--slurm: each task's resources, e.g. gpu:1")->needs(slurm);
  cmd->add_option("--max-parallel", s.max_parallel,
                  "--slurm: tasks running at once (default: no limit)")
      ->check(CLI::PositiveNumber)
      ->needs(slurm);
  cmd->add_option("--per-task", s.per_task, "--slurm: student-labs each task grades (default 1)")
      ->check(CLI::PositiveNumber)
      ->needs(slurm);
  cmd->add_option("--time-limit", s.time_limit_min,
                  "--slurm: each job's time limit, minutes (default: the partition's)")
      ->check(CLI::PositiveNumber)
      ->needs(slurm);
  cmd->add_option("--sbatch-arg", s.sbatch_args,
                  "--slurm: an sbatch option as it is: --sbatch-arg=--account=A (repeatable)")
      ->needs(slurm);
  cmd->add_flag("--wait", s.wait,
                "--slurm: return when the merge job has ended, with grade-all's exit status")
      ->needs(slurm);
  return slurm;
}

}  // namespace

Command declare_grade_all(CLI::App& gpulab) {
  struct Options {
    GradeAllOptions all;
    SlurmOptions slurm;
    bool slurm_submit = false, status = false;
    std::filesystem::path slurm_task_plan, merge_out;
    CLI::Option *roster = nullptr, *labs = nullptr, *out = nullptr, *task = nullptr,
                *merge = nullptr;
  };
  auto o = std::make_shared<Options>();
  GradeAllOptions& a = o->all;
  SlurmOptions& s = o->slurm;
  a.backend = kBuiltBackend;
  CLI::App* cmd = gpulab.add_subcommand(
      "grade-all", "Grade a class: every student of a roster for each lab, resumable");
  // Required but with --slurm-task, --merge and --status (checked below): those read the plan.
  o->roster = cmd->add_option("--roster", a.roster, "Directory with one entry per student");
  o->labs = cmd->add_option("--labs", a.labs, "Lab ids, comma-separated")->delimiter(',');
  o->out = cmd->add_option("--out", a.out, "Output directory");
  cmd->add_option("--roster-csv", a.roster_csv,
                  "Students' id, name, email (and section, folder) for the exports")
      ->check(CLI::ExistingFile);
  cmd->add_option("--canvas-assignment", a.canvas_assignments,
                  "LAB=ID: the lab's Canvas assignment id, for canvas.csv (repeatable)");
  cmd->add_option("--jobs", a.jobs, "Submissions graded at once (default: CPU cores)");
  add_grading_policy_options(
      cmd, a,
      {PolicyOption::backend, PolicyOption::hidden_seed, PolicyOption::no_time,
       PolicyOption::require_gpu, PolicyOption::allow_unsandboxed});
  cmd->add_option("--submission-timeout", a.submission_timeout_s,
                  "Seconds for one student's grading of one lab (default 4 hours)");
  // On a SLURM cluster (slurm_backend.h, docs/GRADING.md).
  auto* slurm = add_slurm_options(cmd, o->slurm_submit, s);
  o->task = cmd->add_option(
      "--slurm-task", o->slurm_task_plan,
      "What each array task runs: grade its share of this plan (OUT/slurm/plan.json)");
  o->merge = cmd->add_option("--merge", o->merge_out,
                             "Write OUT's class files after a --slurm grading (the merge job)");
  auto* status = cmd->add_flag("--status", o->status,
                               "Where a --slurm grading of --out stands, from its files");
  status->needs(o->out);
  for (auto* only : {o->task, o->merge, status})
    for (auto* other : {o->task, o->merge, status, slurm, o->roster, o->labs})
      if (only != other) only->excludes(other);
  return {cmd, [o] {
            GradeAllOptions& a = o->all;
            // Its graders get SIGTERM and time to write their reports before the last words.
            stop_on_signals(kGradeAllStopGraceS, [](int signal) {
              std::cerr << "gpulab grade-all: stopped by " << signal_name(signal)
                        << "; the submissions not finished are graded on the next run\n";
            });
            if (o->task->count()) return run_slurm_task(o->slurm_task_plan, std::cout);
            if (o->merge->count()) return merge_slurm_grading(o->merge_out, std::cout);
            if (o->status) {
              grade_all_status(a.out, std::cout);
              return kExitOk;
            }
            for (const auto* required : {o->roster, o->labs, o->out})
              if (!required->count())
                throw std::runtime_error("grade-all: " + required->get_name() + " is required");
            if (o->slurm_submit) return submit_to_slurm(a, o->slurm, std::cout);
            return grade_all(a, std::cout, std::cerr, Progress::is_tty(2));
          }};
}

}  // namespace gpulab
