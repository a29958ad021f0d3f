// gpulab run <lab>: a student's own code on the public datasets, with times where a GPU is.
#include <iostream>

#include "cli/commands/commands.h"
#include "cli/commands/stop_grading.h"
#include "cli/run_setup.h"
#include "cli/run_terminal.h"
#include "cli/shared_options.h"
#include "cli/time_command.h"
#include "os/exit_status.h"

namespace gpulab {

Command declare_run(CLI::App& gpulab) {
  struct Options {
    GradeOptions grade;
    ReportOut out;
    bool verbose = false, sanitize = false, require_sandbox = false, profile = false;
    CLI::Option* backend = nullptr;
  };
  auto o = std::make_shared<Options>();
  o->grade.backend = kBuiltBackend;
  CLI::App* cmd = gpulab.add_subcommand(
      "run",
      "Build your lab files and check them on the public datasets, with times where a GPU "
      "is present");
  cmd->add_option("lab", o->grade.lab, "Lab id")->required();
  cmd->add_option("--part", o->grade.parts, "Only these parts (default: every part)");
  cmd->add_option("--dataset", o->grade.dataset,
                  "Only this dataset (default: every public dataset)");
  cmd->add_option("--submission,--src", o->grade.submission,
                  "A folder, or one of your lab files (default: labs/<lab> of the gpulab tree "
                  "you are in)");
  o->backend =
      add_grading_policy_options(cmd, o->grade, {PolicyOption::backend, PolicyOption::no_time},
                                 "cuda where a GPU is, else sim")
          .backend;
  cmd->add_option("--out", o->out.path, "Also write a report here (results.json)");
  add_format_option(cmd, o->out);
  cmd->add_flag("--verbose,-v", o->verbose,
                "A line per step (each build, dataset and timed round) instead of the counter");
  cmd->add_option("--keep-outputs", o->grade.keep_outputs,
                  "Keep your outputs beside the expected ones here, as .npy "
                  "(DIR/<part>/<dataset>/<output>.npy and <output>.expected.npy)");
  cmd->add_flag("--sanitize", o->sanitize,
                "On a GPU, also run each public dataset under compute-sanitizer (memcheck, "
                "racecheck, synccheck, initcheck); its errors fail the dataset");
  cmd->add_flag("--profile", o->profile,
                "On the CPU backend, then count what each GPU part's kernels would cost a GPU, "
                "beside the reference's (sim/README.md, \"The cost model\"; as gpulab time "
                "--backend sim)");
  // A student runs their own code on their own machine: without bubblewrap it runs unsandboxed,
  // with a note, unless they ask otherwise (docs/GRADING.md, the sandbox).
  cmd->add_flag("--require-sandbox", o->require_sandbox,
                "Refuse to run the code where it cannot be sandboxed (bubblewrap)");
  add_time_budget_option(cmd, o->grade);
  return {cmd, [o] {
            GradeOptions& g = o->grade;
            settle_run_options(g, {o->backend->count() > 0, kCudaRunnersBuilt}, std::cerr);
            g.include_hidden = false;
            g.review_flags = false;
            g.allow_unsandboxed = !o->require_sandbox;
            g.sanitize = o->sanitize;
            g.error_maps_beside = o->out.path;
            if (o->profile && g.backend != Backend::sim)
              throw std::runtime_error(
                  "--profile counts what kernels would cost a GPU on the CPU backend: add "
                  "--backend sim (on a GPU, gpulab time measures them)");
            stop_grading_on_signals(g, o->out);
            const int status = run_and_show(g, o->out, o->verbose);
            if (!o->profile || status == kExitStopped) return status;
            TimeOptions costs;
            costs.lab = g.lab;
            costs.parts = g.parts;
            costs.dataset = g.dataset;
            costs.submission = g.submission;
            costs.backend = Backend::sim;
            costs.cuda_runners_built = kCudaRunnersBuilt;
            costs.costs_only = true;
            std::cout << "\n";
            const int costed = time_command(costs, std::cout, std::cerr);
            return status != kExitOk ? status : costed;
          }};
}

}  // namespace gpulab
