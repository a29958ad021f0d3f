// gpulab bench-grader: how long grading takes, and where the time goes (bench/bench_grader.h).
#include "bench/bench_grader.h"

#include <iostream>

#include "class/grade_all.h"
#include "cli/commands/commands.h"
#include "cli/shared_options.h"
#include "os/stop_signals.h"

namespace gpulab {

Command declare_bench_grader(CLI::App& gpulab) {
  struct Options {
    BenchGraderOptions bench;
    bool cold_only = false, warm_only = false;
  };
  auto o = std::make_shared<Options>();
  o->bench.backend = kBuiltBackend;
  CLI::App* cmd = gpulab.add_subcommand(
      "bench-grader", "Time grading itself: each lab's reference, cold and warm cache, by phase");
  cmd->add_option("--labs", o->bench.labs, "Lab ids, comma-separated (default: every lab)")
      ->delimiter(',');
  add_grading_policy_options(
      cmd, o->bench,
      {PolicyOption::backend, PolicyOption::no_time, PolicyOption::allow_unsandboxed});
  auto* cold = cmd->add_flag("--cold-only", o->cold_only, "Only the empty-cache grading");
  cmd->add_flag("--warm-only", o->warm_only, "Only the warm one (after an unreported cold one)")
      ->excludes(cold);
  cmd->add_option("--json", o->bench.json_out, "Also write the numbers here");
  return {cmd, [o] {
            BenchGraderOptions& b = o->bench;
            b.warm = !o->cold_only;
            b.cold = true;  // a warm grading needs the cold one before it; --warm-only hides it
            b.report_cold = !o->warm_only;
            stop_on_signals(kGradeAllStopGraceS, [](int signal) {
              std::cerr << "gpulab bench-grader: stopped by " << signal_name(signal) << "\n";
            });
            return bench_grader(b, std::cout);
          }};
}

}  // namespace gpulab
