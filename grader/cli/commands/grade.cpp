// gpulab grade <lab>: grade a submission, as a course platform's grader does, and write its
// report.
#include <iostream>

#include "class/grade_all.h"
#include "cli/commands/commands.h"
#include "cli/commands/stop_grading.h"
#include "cli/shared_options.h"
#include "os/exit_status.h"
#include "os/stop_signals.h"
#include "package/submission_policy.h"

namespace gpulab {

namespace {

// gpulab grade's end (run's is run_terminal.h's): exits 0 whatever the score.
int finish(const Report& report, const ReportOut& out) {
  finishing();  // a late stop signal now waits for this report (stop_signals.h)
  if (!out.path.empty()) {
    out.write(report);
    std::cout << "wrote " << out.path.string() << "\n";
  }
  std::cout << report.summary();
  return report.stopped_by ? kExitStopped : report.grader_error.empty() ? kExitOk : kExitFailed;
}

}  // namespace

Command declare_grade(CLI::App& gpulab) {
  struct Options {
    GradeOptions grade;
    ReportOut out;
    std::filesystem::path submission_metadata;
    double timeout_s = 0;
    pid_t grade_all_parent = 0;
    CLI::Option* timeout = nullptr;
  };
  auto o = std::make_shared<Options>();
  GradeOptions& g = o->grade;
  g.backend = kBuiltBackend;
  CLI::App* cmd = gpulab.add_subcommand("grade", "Grade a submission and write results.json");
  cmd->add_option("lab", g.lab, "Lab id")->required();
  cmd->add_option("--submission", g.submission,
                  "A folder, a .zip, a .tar.gz or one of the lab's files (docs/GRADING.md)")
      ->required();
  cmd->add_option("--out", o->out.path, "The report to write")->required();
  add_format_option(cmd, o->out);
  cmd->add_option("--submission-metadata", o->submission_metadata,
                  "Gradescope's submission_metadata.json: the late penalty and submission limit "
                  "lab.json's \"gradescope\" asks for (docs/GRADING.md)");
  cmd->add_option("--part", g.parts, "Only these parts (default: every part)");
  const PolicyOptions policy = add_grading_policy_options(
      cmd, g,
      {PolicyOption::hidden_seed, PolicyOption::backend, PolicyOption::require_gpu,
       PolicyOption::no_time, PolicyOption::allow_unsandboxed});
  cmd->add_option("--hidden-seed-file", g.hidden_seed_file,
                  "A file holding the hidden seed (one newline at its end is not part of it), "
                  "readable by root alone where a root grader runs student code unsandboxed")
      ->excludes(policy.hidden_seed);
  o->timeout =
      cmd->add_option("--timeout", o->timeout_s,
                      "Seconds on the clock per correctness run (default: 60 on the GPU; on the "
                      "CPU backend a CPU time limit that follows the reference's, docs/GRADING.md)")
          ->check(CLI::PositiveNumber);
  add_time_budget_option(cmd, g);
  cmd->add_option("--work-dir", g.work_dir, "Keep build and run files here");
  cmd->add_option("--gpu-lock", g.gpu_lock,
                  "Hold an exclusive lock on this file while running code, so graders sharing a "
                  "GPU take turns");
  cmd->add_option("--grade-all-parent", o->grade_all_parent)->group("");  // grade-all's own
  return {cmd, [o] {
            GradeOptions& g = o->grade;
            if (o->grade_all_parent) die_with_parent(o->grade_all_parent);
            g.of_record = true;
            if (o->timeout->count()) g.run_timeout_s = o->timeout_s;
            g.writeup_beside = g.error_maps_beside = o->out.path;
            // Read before any student code runs, which could rewrite them where unsandboxed.
            const auto policy = GradescopePolicyInputs::read(g.lab, o->submission_metadata);
            stop_grading_on_signals(g, o->out);
            Report r = grade(g, std::cerr);
            apply_gradescope_policy(r, policy, std::cerr);
            return finish(r, o->out);
          }};
}

}  // namespace gpulab
