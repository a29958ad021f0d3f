// gpulab: the command line for students (run), instructors (grade, grade-all, package, dist,
// datasets, rubric, figures) and developers (bench).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#ifdef GPULAB_HAVE_SIM
#include "sim_cc.h"
#endif

#include "bench.h"
#include "bench_grader.h"
#include "cache_command.h"
#include "completion.h"
#include "datasets_command.h"
#include "environment_help.h"
#include "exit_status.h"
#include "figures_command.h"
#include "grade.h"
#include "grade_all.h"
#include "grade_all_status.h"
#include "gradescope_package.h"
#include "lab_config.h"
#include "number_text.h"
#include "paths.h"
#include "platform_time.h"
#include "prairielearn_package.h"
#include "progress.h"
#include "report_formats.h"
#include "rubric.h"
#include "run_setup.h"
#include "run_terminal.h"
#include "secret.h"
#include "slurm_backend.h"
#include "stop_signals.h"
#include "student_kit.h"
#include "submission_policy.h"
#include "time_budget.h"
#include "time_command.h"

namespace {

using namespace gpulab;

#ifdef GPULAB_HAVE_CUDA_RUNNERS
constexpr bool kCudaRunnersBuilt = true;
#else
constexpr bool kCudaRunnersBuilt = false;  // the student preset: the CPU backend alone
#endif

LabConfig load_lab(const std::string& id) {
  return LabConfig::load_id(Paths::current().source, id);
}

int cmd_labs() {
  for (const auto& file : find_lab_files(Paths::current().source)) {
    try {
      const LabConfig lab = LabConfig::load(file);
      std::cout << lab.id << "  " << lab.title << "\n    parts:";
      for (const auto& p : lab.parts) std::cout << " " << p.name << (p.gpu ? " (GPU)" : " (CPU)");
      std::cout << "\n";
    } catch (const LabConfigError& e) {
      std::cout << file.parent_path().filename().string() << "  BROKEN: " << e.what() << "\n";
    }
  }
  return 0;
}

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

// From here a SIGTERM or SIGINT stops the grading with a report that says so (stop_signals.h);
// should the grader not come back in time, the report is the lab and the signal alone.
void stop_grading_on_signals(const GradeOptions& o, const ReportOut& out) {
  stop_on_signals(kStopGraceS, [o, out](int signal) {
    if (!out.path.empty()) out.write(stopped_report(o, signal));
    std::cerr << "gpulab: stopped by " << signal_name(signal) << " before the grading finished"
              << (out.path.empty() ? "" : "; wrote " + out.path.string()) << "\n";
  });
}

// A course platform's package (`gpulab package <platform>`) holds the hidden seed: --hidden-seed
// (`option`, its value `given`) or GPULAB_HIDDEN_SEED. None: said, and nullopt.
std::optional<std::string> package_seed(const std::string& platform, const CLI::Option* option,
                                        const std::string& given) {
  const std::optional<std::string> seed =
      hidden_secret(option->count() ? std::optional<std::string>(given) : std::nullopt, std::cerr);
  if (!seed)
    std::cerr << "gpulab package " << platform
              << ": give the hidden seed (--hidden-seed S or GPULAB_HIDDEN_SEED): without one, "
                 "hidden datasets would use gpulab's default seed, which students can "
                 "reproduce\n";
  return seed;
}

// --format: one of report_formats.h's list, the format of --out's report.
void add_format_option(CLI::App* command, ReportOut& out) {
  command
      ->add_option_function<std::string>(
          "--format", [&out](const std::string& name) { out.format = *format_named(name); },
          "The report's format (default: gradescope):\n" + formats_help())
      ->check(CLI::IsMember(format_names()));
}

// --time-budget, of grade and run alike (time_budget.h): declared here once.
void add_time_budget_option(CLI::App* command, GradeOptions& o) {
  command
      ->add_option_function<double>(
          "--time-budget", [&o](double s) { o.time_budget_s = s; },
          "Seconds the whole grading may take, its build included: each part gets an equal share "
          "of what is left (what one leaves goes to the later ones); a part whose share runs "
          "out, or that the budget does not reach, is reported \"not graded: time budget\", "
          "and the report is written within the budget. The course platforms' packages pass "
          "their time limit less a margin (docs/GRADING.md, \"The time budget\") (default: "
          "none)")
      ->check(CLI::Range(kMinTimeBudgetS, kMaxTimeBudgetS));
}

// --platform-timeout, of each course platform's package (platform_time.h): declared here once.
void add_platform_timeout_option(CLI::App* command, double& timeout_s, const std::string& what) {
  command
      ->add_option("--platform-timeout", timeout_s,
                   what + ", in seconds (default: " + printf_text("%g", timeout_s) +
                       "): the platform stops a grading then, so gpulab grades within it less a "
                       "margin (--time-budget; docs/GRADING.md, \"The time budget\")")
      ->check(CLI::Range(kMinPlatformTimeoutS, kMaxPlatformTimeoutS));
}

int cmd_rubric(const std::string& id, bool update) {
  const LabConfig lab = load_lab(id);
  if (!update) {
    std::cout << rubric_markdown(lab);
    return 0;
  }
  const auto path = Paths::current().source / "handouts" / (id + ".md");
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!replace_rubric_block(text, lab)) {
    std::cerr << path.string() << ": no rubric markers found\n";
    return 1;
  }
  std::ofstream(path) << text;
  std::cout << "updated " << path.string() << "\n";
  return 0;
}

}  // namespace

// gpulab sim-cc takes nvcc's command line, which is not CLI11's: its arguments go to the
// driver untouched.
int cmd_sim_cc(int argc, char** argv) {
#ifdef GPULAB_HAVE_SIM
  return gpulab_sim_cc::sim_cc(std::vector<std::string>(argv + 2, argv + argc), std::cerr);
#else
  (void)argc;
  (void)argv;
  std::cerr << "gpulab sim-cc: this gpulab was built without the CPU backend; run "
               "scripts/setup.sh, which installs what it needs, and rebuild\n";
  return 1;
#endif
}

// gpulab sim-bench: the CPU backend's own benchmark (barrier-free kernels against plain C++,
// barrier crossings), run in place of this process.
int cmd_sim_bench() {
  const std::string bench = (Paths::current().build / "bin" / "gpulab-sim-bench").string();
  execl(bench.c_str(), bench.c_str(), static_cast<char*>(nullptr));
  std::cerr << "gpulab sim-bench: cannot run " << bench
            << " (is gpulab built with the CPU backend?)\n";
  return 1;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "sim-cc") return cmd_sim_cc(argc, argv);
  CLI::App app{"gpulab: CUDA labs with an autograder"};
  app.set_version_flag("--version", std::string("gpulab ") + GPULAB_VERSION);
  app.footer(environment_help());
  app.require_subcommand(1);

  app.add_subcommand("labs", "List the labs");
  // Listed for --help; main() hands its command line to the driver before CLI11 sees it.
  app.add_subcommand("sim-cc",
                     "Build a CUDA program for the CPU backend, like nvcc: "
                     "gpulab sim-cc prog.cu -o prog [-I dir] [-D X] [-O2] ...");
  auto* sim_bench_cmd = app.add_subcommand(
      "sim-bench", "Time the CPU backend: barrier-free kernels against plain C++, barriers");

  GradeOptions run_o, grade_o;
  // Built for the CPU backend alone (-DGPULAB_CUDA_RUNNERS=OFF): that is the backend to use.
  if (!kCudaRunnersBuilt) run_o.backend = grade_o.backend = "sim";
  ReportOut run_out, grade_out;
  bool run_no_time = false;
  std::string hidden_seed;
  auto* run = app.add_subcommand("run",
                                 "Build your lab files and check them on the public "
                                 "datasets, with times where a GPU is present");
  run->add_option("lab", run_o.lab, "Lab id")->required();
  run->add_option("--part", run_o.parts, "Only these parts (default: every part)");
  run->add_option("--dataset", run_o.dataset, "Only this dataset (default: every public dataset)");
  run->add_option("--submission,--src", run_o.submission,
                  "A folder, or one of your lab files (default: labs/<lab> of the gpulab tree "
                  "you are in)");
  auto* run_backend = run->add_option("--backend", run_o.backend,
                                      "cuda or sim (default: cuda where a GPU is, else sim)")
                          ->check(CLI::IsMember({"cuda", "sim"}));
  run->add_flag("--no-time", run_no_time, "Skip the timed runs");
  run->add_option("--out", run_out.path, "Also write a report here (results.json)");
  add_format_option(run, run_out);
  bool run_verbose = false;
  run->add_flag("--verbose,-v", run_verbose,
                "A line per step (each build, dataset and timed round) instead of the counter");
  run->add_option("--keep-outputs", run_o.keep_outputs,
                  "Keep your outputs beside the expected ones here, as .npy "
                  "(DIR/<part>/<dataset>/<output>.npy and <output>.expected.npy)");
  bool run_sanitize = false;
  run->add_flag("--sanitize", run_sanitize,
                "On a GPU, also run each public dataset under compute-sanitizer (memcheck, "
                "racecheck, synccheck, initcheck); its errors fail the dataset");
  // A student runs their own code on their own machine: without bubblewrap it runs unsandboxed,
  // with a note, unless they ask otherwise (docs/GRADING.md, the sandbox).
  bool run_require_sandbox = false;
  run->add_flag("--require-sandbox", run_require_sandbox,
                "Refuse to run the code where it cannot be sandboxed (bubblewrap)");
  add_time_budget_option(run, run_o);

  auto* grade_cmd = app.add_subcommand("grade", "Grade a submission and write results.json");
  grade_cmd->add_option("lab", grade_o.lab, "Lab id")->required();
  grade_cmd
      ->add_option("--submission", grade_o.submission,
                   "A folder, a .zip, a .tar.gz or one of the lab's files (docs/GRADING.md)")
      ->required();
  grade_cmd->add_option("--out", grade_out.path, "The report to write")->required();
  add_format_option(grade_cmd, grade_out);
  std::filesystem::path submission_metadata;
  grade_cmd->add_option("--submission-metadata", submission_metadata,
                        "Gradescope's submission_metadata.json: the late penalty and submission "
                        "limit lab.json's \"gradescope\" asks for (docs/GRADING.md)");
  grade_cmd->add_option("--part", grade_o.parts, "Only these parts (default: every part)");
  auto* grade_seed_opt = grade_cmd->add_option(
      "--hidden-seed", hidden_seed,
      "The secret the hidden datasets are drawn from: any text, best long and "
      "random (openssl rand -hex 16) (default: $GPULAB_HIDDEN_SEED)");
  grade_cmd
      ->add_option("--hidden-seed-file", grade_o.hidden_seed_file,
                   "A file holding the hidden seed (one newline at its end is not part of it), "
                   "readable by root alone where a root grader runs student code unsandboxed")
      ->excludes(grade_seed_opt);
  grade_cmd
      ->add_option(
          "--backend", grade_o.backend,
          std::string("cuda or sim (default: ") + (kCudaRunnersBuilt ? "cuda" : "sim") + ")")
      ->check(CLI::IsMember({"cuda", "sim"}));
  grade_cmd->add_flag("--require-gpu", grade_o.require_gpu,
                      "cuda backend: without a usable GPU grade nothing, CPU parts neither "
                      "(without it, selected GPU parts already leave such a grading unscored)");
  double grade_timeout_s = 0;
  grade_cmd
      ->add_option("--timeout", grade_timeout_s,
                   "Seconds on the clock per correctness run (default: 60 on the GPU; on the CPU "
                   "backend a CPU time limit that follows the reference's, docs/GRADING.md)")
      ->check(CLI::PositiveNumber);
  add_time_budget_option(grade_cmd, grade_o);
  grade_cmd->add_option("--work-dir", grade_o.work_dir, "Keep build and run files here");
  bool grade_no_time = false;
  grade_cmd->add_flag("--no-time", grade_no_time, "Correctness only: skip the timed runs");
  grade_cmd->add_flag("--allow-unsandboxed", grade_o.allow_unsandboxed,
                      "Grade even where student code cannot be sandboxed (no bubblewrap or user "
                      "namespaces); otherwise that is refused");
  grade_cmd->add_option("--gpu-lock", grade_o.gpu_lock,
                        "Hold an exclusive lock on this file while running code, so graders "
                        "sharing a GPU take turns");
  pid_t grade_all_parent = 0;
  grade_cmd->add_option("--grade-all-parent", grade_all_parent)->group("");  // grade-all's own

  GradeAllOptions all_o;
  all_o.backend = grade_o.backend;
  bool all_no_time = false;
  std::string all_seed;
  auto* all_cmd = app.add_subcommand(
      "grade-all", "Grade a class: every student of a roster for each lab, resumable");
  // Required but with --slurm-task, --merge and --status (checked below): those read the plan.
  auto* roster_opt =
      all_cmd->add_option("--roster", all_o.roster, "Directory with one entry per student");
  auto* labs_opt =
      all_cmd->add_option("--labs", all_o.labs, "Lab ids, comma-separated")->delimiter(',');
  auto* out_opt = all_cmd->add_option("--out", all_o.out, "Output directory");
  all_cmd
      ->add_option("--roster-csv", all_o.roster_csv,
                   "Students' id, name, email (and section, folder) for the exports")
      ->check(CLI::ExistingFile);
  all_cmd->add_option("--canvas-assignment", all_o.canvas_assignments,
                      "LAB=ID: the lab's Canvas assignment id, for canvas.csv (repeatable)");
  all_cmd->add_option("--jobs", all_o.jobs, "Submissions graded at once (default: CPU cores)");
  all_cmd
      ->add_option(
          "--backend", all_o.backend,
          std::string("cuda or sim (default: ") + (kCudaRunnersBuilt ? "cuda" : "sim") + ")")
      ->check(CLI::IsMember({"cuda", "sim"}));
  auto* all_seed_opt =
      all_cmd->add_option("--hidden-seed", all_seed, "The hidden datasets' secret (as grade)");
  all_cmd->add_flag("--no-time", all_no_time, "Correctness only: skip the timed runs");
  all_cmd->add_flag("--require-gpu", all_o.require_gpu,
                    "cuda backend: refuse to grade without a usable GPU, even labs' CPU parts "
                    "(as gpulab grade; on SLURM, checked by each task's graders)");
  all_cmd->add_option("--submission-timeout", all_o.submission_timeout_s,
                      "Seconds for one student's grading of one lab (default 4 hours)");
  all_cmd->add_flag("--allow-unsandboxed", all_o.allow_unsandboxed,
                    "Grade even where student code cannot be sandboxed (as gpulab grade)");
  // On a SLURM cluster (slurm_backend.h, docs/GRADING.md).
  SlurmOptions slurm_o;
  bool all_slurm = false, all_status = false;
  std::filesystem::path slurm_task_plan, merge_out;
  auto* slurm_flag = all_cmd->add_flag(
      "--slurm", all_slurm, "Submit to SLURM: a job array of gradings, then a merge job");
  all_cmd->add_option("--partition", slurm_o.partition, "--slurm: the partition")
      ->needs(slurm_flag);
  all_cmd->add_option("--gres", slurm_o.gres, "--slurm: each task's resources, e.g. gpu:1")
      ->needs(slurm_flag);
  all_cmd
      ->add_option("--max-parallel", slurm_o.max_parallel,
                   "--slurm: tasks running at once (default: no limit)")
      ->check(CLI::PositiveNumber)
      ->needs(slurm_flag);
  all_cmd
      ->add_option("--per-task", slurm_o.per_task,
                   "--slurm: student-labs each task grades (default 1)")
      ->check(CLI::PositiveNumber)
      ->needs(slurm_flag);
  all_cmd
      ->add_option("--time-limit", slurm_o.time_limit_min,
                   "--slurm: each job's time limit, minutes (default: the partition's)")
      ->check(CLI::PositiveNumber)
      ->needs(slurm_flag);
  all_cmd
      ->add_option("--sbatch-arg", slurm_o.sbatch_args,
                   "--slurm: an sbatch option as it is: --sbatch-arg=--account=A (repeatable)")
      ->needs(slurm_flag);
  all_cmd
      ->add_flag("--wait", slurm_o.wait,
                 "--slurm: return when the merge job has ended, with grade-all's exit status")
      ->needs(slurm_flag);
  auto* task_opt = all_cmd->add_option("--slurm-task", slurm_task_plan,
                                       "What each array task runs: grade its share of this "
                                       "plan (OUT/slurm/plan.json)");
  auto* merge_opt = all_cmd->add_option(
      "--merge", merge_out, "Write OUT's class files after a --slurm grading (the merge job)");
  auto* status_flag = all_cmd->add_flag("--status", all_status,
                                        "Where a --slurm grading of --out stands, from its files");
  status_flag->needs(out_opt);
  for (auto* only : {task_opt, merge_opt, status_flag})
    for (auto* other : {task_opt, merge_opt, status_flag, slurm_flag, roster_opt, labs_opt})
      if (only != other) only->excludes(other);

  auto* package_cmd = app.add_subcommand("package", "Package an autograder for a course platform");
  package_cmd->require_subcommand(1);
  std::string gs_lab, gs_out;
  std::string gs_seed;
  auto* gs_cmd = package_cmd->add_subcommand(
      "gradescope", "A Gradescope autograder zip for one lab (CPU backend: Gradescope has no GPU)");
  gs_cmd->add_option("lab", gs_lab, "Lab id")->required();
  gs_cmd->add_option("--out", gs_out, "The zip to write (autograder.zip)")->required();
  auto* gs_seed_opt =
      gs_cmd->add_option("--hidden-seed", gs_seed, "The hidden datasets' secret (as grade)");
  double gs_timeout_s = kGradescopeTimeoutS;
  add_platform_timeout_option(gs_cmd, gs_timeout_s,
                              "The assignment's autograder timeout on Gradescope");
  PrairieLearnPackage pl;
  auto* pl_cmd = package_cmd->add_subcommand(
      "prairielearn", "A PrairieLearn question for one lab and its grader image (CPU backend)");
  pl_cmd->add_option("lab", pl.lab, "Lab id")->required();
  pl_cmd->add_option("--out", pl.out, "An empty folder: question/ and image/ go in it")->required();
  auto* pl_seed_opt =
      pl_cmd->add_option("--hidden-seed", pl.hidden_seed, "The hidden datasets' secret (as grade)");
  pl_cmd->add_option("--image-account", pl.image_account,
                     "The Docker Hub account or organization the course's PrairieLearn pulls "
                     "from: the image is ACCOUNT/gpulab-prairielearn:<version>");
  pl_cmd->add_option("--image", pl.image, "The image's whole name instead, ACCOUNT/NAME[:TAG]");
  add_platform_timeout_option(pl_cmd, pl.timeout_s,
                              "The question's timeout, which the package writes into info.json");

  std::string dist_out;
  auto* dist_cmd = app.add_subcommand(
      "dist", "The student kit: labs, harness, CPU backend, datasets, handouts; no reference");
  dist_cmd->add_option("--out", dist_out, "The .tar.gz to write (student-kit.tar.gz)")->required();
  ClassroomOptions dist_classroom;
  auto* classroom_flag = dist_cmd->add_flag(
      "--github-classroom", dist_classroom.workflow,
      "Add .github/workflows/classroom.yml: GitHub Classroom's autograding on each push (sim)");
  dist_cmd->add_option("--lab", dist_classroom.labs, "The labs its workflow grades (default: all)")
      ->needs(classroom_flag);

  TimeOptions time_o;
  time_o.cuda_runners_built = kCudaRunnersBuilt;
  auto* time_cmd = app.add_subcommand(
      "time", "Time your code against the reference's on any part and dataset, as grading does");
  time_cmd->add_option("lab", time_o.lab, "Lab id")->required();
  time_cmd->add_option("--part", time_o.parts, "Only these parts (default: every part)");
  time_cmd->add_option("--dataset", time_o.dataset, "This dataset (default: the timing ones)");
  time_cmd->add_option("--submission", time_o.submission,
                       "A folder, or a variant of your lab file (default: labs/<lab>)");
  time_cmd->add_option("--backend", time_o.backend, "cuda or sim (CPU parts only)")
      ->check(CLI::IsMember({"cuda", "sim"}));

  BenchOptions bench_o;
  auto* bench_cmd = app.add_subcommand("bench", "Time the reference against the hardware ceiling");
  bench_cmd->add_option("lab", bench_o.lab, "Lab id")->required();
  bench_cmd->add_option("--part", bench_o.part, "Only this part (default: every part)");
  bench_cmd->add_option("--runner", bench_o.runner, "Bench this runner instead of the reference");
  auto* sweep_opt = bench_cmd->add_option(
      "--sweep", bench_o.sweep,
      "Time the reference over one of lab.json's bench_sweeps (a handout's plot) instead");
  bench_cmd->add_option("--json", bench_o.json, "With --sweep: record it in this file")
      ->needs(sweep_opt);
  bench_cmd->get_option("--part")->excludes(sweep_opt);
  bench_cmd->get_option("--runner")->excludes(sweep_opt);

  BenchGraderOptions bg_o;
  if (!kCudaRunnersBuilt) bg_o.backend = "sim";
  bool bg_no_time = false, bg_cold_only = false, bg_warm_only = false;
  auto* bg_cmd = app.add_subcommand(
      "bench-grader", "Time grading itself: each lab's reference, cold and warm cache, by phase");
  bg_cmd->add_option("--labs", bg_o.labs, "Lab ids, comma-separated (default: every lab)")
      ->delimiter(',');
  bg_cmd->add_option("--backend", bg_o.backend, "cuda or sim")
      ->check(CLI::IsMember({"cuda", "sim"}));
  bg_cmd->add_flag("--no-time", bg_no_time, "Grade without the timed runs");
  auto* bg_cold = bg_cmd->add_flag("--cold-only", bg_cold_only, "Only the empty-cache grading");
  bg_cmd->add_flag("--warm-only", bg_warm_only, "Only the warm one (after an unreported cold one)")
      ->excludes(bg_cold);
  bg_cmd->add_flag("--allow-unsandboxed", bg_o.allow_unsandboxed,
                   "Grade even where code cannot be sandboxed (as gpulab grade)");
  bg_cmd->add_option("--json", bg_o.json_out, "Also write the numbers here");

  DatasetsOptions ds_o;
  std::string ds_seed;
  auto* ds_cmd = app.add_subcommand("datasets", "Generate a lab's datasets and expected outputs");
  ds_cmd->add_option("lab", ds_o.lab, "Lab id")->required();
  ds_cmd->add_option("--out", ds_o.out, "Directory")->required();
  auto* seed_opt =
      ds_cmd->add_option("--seed", ds_seed, "The hidden datasets' secret (grade's --hidden-seed)");
  ds_cmd->add_option("--group", ds_o.group,
                     "Only this group (default: the public ones; timing: the large timed inputs)");

  bool cache_clear = false;
  std::string cache_lab;
  auto* cache_cmd = app.add_subcommand("cache", "Show the dataset cache, or clear it");
  cache_cmd->add_flag("--clear", cache_clear, "Remove the cached datasets");
  cache_cmd->add_option("--lab", cache_lab, "With --clear: only this lab's");

  FiguresOptions fig_o;
  auto* fig_cmd = app.add_subcommand(
      "figures", "Draw a lab's handout figures from its datasets and gpulab's own code");
  fig_cmd->add_option("lab", fig_o.lab, "Lab id")->required();
  fig_cmd->add_option("--out", fig_o.out,
                      "Directory (default: handouts/figures/<lab>/ of the gpulab tree)");

  std::string rubric_lab;
  bool rubric_update = false;
  auto* rubric_cmd = app.add_subcommand("rubric", "Print a lab's rubric as Markdown");
  rubric_cmd->add_option("lab", rubric_lab, "Lab id")->required();
  rubric_cmd->add_flag("--update-handout", rubric_update, "Rewrite the handout's rubric block");

  std::string completion_shell;
  auto* completion_cmd = app.add_subcommand(
      "completion", "Print a shell completion script: source <(gpulab completion bash)");
  completion_cmd->add_option("shell", completion_shell, "bash")
      ->required()
      ->check(CLI::IsMember({"bash"}));

  // The completion script's question, answered from this very command line (completion.h): so
  // it stays right before the parse, after every subcommand and option.
  if (argc >= 2 && std::string(argv[1]) == "__complete") {
    complete_words(app, std::vector<std::string>(argv + 2, argv + argc), Paths::current().source,
                   std::cout);
    return kExitOk;
  }
  CLI11_PARSE(app, argc, argv);
  hide_secret_arguments(argc, argv);  // from /proc/<pid>/cmdline, which every user can read
  try {
    if (app.got_subcommand("labs")) return cmd_labs();
    if (run->parsed()) {
      settle_run_options(run_o, {run_backend->count() > 0, kCudaRunnersBuilt}, std::cerr);
      run_o.include_hidden = false;
      run_o.review_flags = false;
      run_o.allow_unsandboxed = !run_require_sandbox;
      run_o.performance = !run_no_time;
      run_o.sanitize = run_sanitize;
      run_o.error_maps_beside = run_out.path;
      stop_grading_on_signals(run_o, run_out);
      return run_and_show(run_o, run_out, run_verbose);
    }
    if (grade_cmd->parsed()) {
      if (grade_all_parent) die_with_parent(grade_all_parent);
      grade_o.of_record = true;
      if (grade_cmd->count("--hidden-seed")) grade_o.hidden_seed = hidden_seed;
      if (grade_cmd->count("--timeout")) grade_o.run_timeout_s = grade_timeout_s;
      grade_o.performance = !grade_no_time;
      grade_o.writeup_beside = grade_o.error_maps_beside = grade_out.path;
      // Read before any student code runs, which could rewrite them where unsandboxed.
      const auto policy = GradescopePolicyInputs::read(grade_o.lab, submission_metadata);
      stop_grading_on_signals(grade_o, grade_out);
      Report r = grade(grade_o, std::cerr);
      apply_gradescope_policy(r, policy, std::cerr);
      return finish(r, grade_out);
    }
    if (all_cmd->parsed()) {
      if (all_seed_opt->count()) all_o.hidden_seed = all_seed;
      all_o.performance = !all_no_time;
      // Its graders get SIGTERM and time to write their reports before the last words.
      stop_on_signals(kGradeAllStopGraceS, [](int signal) {
        std::cerr << "gpulab grade-all: stopped by " << signal_name(signal)
                  << "; the submissions not finished are graded on the next run\n";
      });
      if (task_opt->count()) return run_slurm_task(slurm_task_plan, std::cout);
      if (merge_opt->count()) return merge_slurm_grading(merge_out, std::cout);
      if (all_status) {
        grade_all_status(all_o.out, std::cout);
        return kExitOk;
      }
      for (const auto* required : {roster_opt, labs_opt, out_opt})
        if (!required->count())
          throw std::runtime_error("grade-all: " + required->get_name() + " is required");
      if (all_slurm) return submit_to_slurm(all_o, slurm_o, std::cout);
      return grade_all(all_o, std::cout, std::cerr, Progress::is_tty(2));
    }
    if (gs_cmd->parsed()) {
      const auto seed = package_seed("gradescope", gs_seed_opt, gs_seed);
      return seed ? make_gradescope_package(gs_lab, *seed, gs_out, std::cout, gs_timeout_s) : 1;
    }
    if (pl_cmd->parsed()) {
      const auto seed = package_seed("prairielearn", pl_seed_opt, pl.hidden_seed);
      if (!seed) return 1;
      pl.hidden_seed = *seed;
      return make_prairielearn_package(pl, std::cout);
    }
    if (dist_cmd->parsed()) return make_student_kit(dist_out, dist_classroom, std::cout);
    if (time_cmd->parsed()) {
      stop_at_once_on_signals("time", "removed the dataset being made");
      return time_command(time_o, std::cout, std::cerr);
    }
    if (bench_cmd->parsed()) {
      stop_at_once_on_signals("bench", "removed the dataset being made");
      return bench(bench_o, std::cout);
    }
    if (sim_bench_cmd->parsed()) return cmd_sim_bench();
    if (bg_cmd->parsed()) {
      bg_o.performance = !bg_no_time;
      bg_o.warm = !bg_cold_only;
      bg_o.cold = true;  // a warm grading needs the cold one before it; --warm-only hides it
      bg_o.report_cold = !bg_warm_only;
      stop_on_signals(kGradeAllStopGraceS, [](int signal) {
        std::cerr << "gpulab bench-grader: stopped by " << signal_name(signal) << "\n";
      });
      return bench_grader(bg_o, std::cout);
    }
    if (ds_cmd->parsed()) {
      if (seed_opt->count()) ds_o.seed = hidden_secret(ds_seed, std::cerr);
      return datasets_command(ds_o, std::cout);
    }
    if (cache_cmd->parsed()) return cache_command(cache_clear, cache_lab, std::cout);
    if (fig_cmd->parsed()) return figures_command(fig_o, std::cout);
    if (rubric_cmd->parsed()) return cmd_rubric(rubric_lab, rubric_update);
    if (completion_cmd->parsed()) {
      std::cout << completion_script(completion_shell);
      return kExitOk;
    }
  } catch (const std::exception& e) {
    std::cerr << "gpulab: " << e.what() << "\n";
    return kExitFailed;
  } catch (const Stopped& s) {
    std::cerr << "gpulab: stopped by " << signal_name(s.signal) << "\n";
    return kExitStopped;
  }
  return kExitOk;
}
