// grade-all on a SLURM cluster (docs/GRADING.md, "On a cluster (SLURM)"): `grade-all --slurm`
// writes OUT/slurm/plan.json (the options and the student-labs to grade: those not already
// graded, grade-all's resume rule) and submits one job array whose tasks each grade K of them
// (`grade-all --slurm-task`), through the very code local grade-all uses (class_job.h), then a
// merge job, after the array however it ended, that writes the class files (`grade-all --merge`).
//
// The hidden seed reaches the tasks as OUT/slurm/hidden-seed, a file only its owner can read,
// never through a command line, the batch script or the job's environment: sbatch gets
// GPULAB_HIDDEN_SEED removed from its own environment and gives the job only the variables
// named (--export=NAME,...: nothing else of the instructor's environment, and no login
// environment loaded); the task reads the file and hands the seed to its `gpulab grade` as
// grade-all does, in that child's environment.
//
// Files, all under OUT/slurm/: plan.json, hidden-seed, task.sh and merge.sh (the batch
// scripts), jobs.json (the job ids of the last submission: a rerun refuses while squeue still
// lists them), logs/ (the tasks' and the merge's output). Datasets go to one cache for the
// class, OUT/cache (GPULAB_CACHE_DIR), so each is generated once per seed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "class_job.h"
#include "grade_all.h"

namespace gpulab {

struct SlurmOptions {
  std::string partition;                 // empty: the cluster's default
  std::string gres;                      // "gpu:1": each task's GPU; empty: none asked for
  unsigned max_parallel = 0;             // tasks running at once (the array's %N); 0: no limit
  unsigned per_task = 1;                 // student-labs graded by each task, one after the other
  unsigned time_limit_min = 0;           // each job's --time in minutes; 0: the partition's default
  std::vector<std::string> sbatch_args;  // given to sbatch as they are (--account=..., --qos=...)
  bool wait = false;                     // return when the merge job has ended
};

// What OUT/slurm/plan.json holds: never the seed.
struct SlurmPlan {
  GradeAllOptions options;  // absolute paths; hidden_seed never set
  SlurmOptions slurm;
  std::string seed_fingerprint;  // seed_fingerprint(): tells a task its seed file is the right one
  std::vector<ClassJob> todo;    // what the array grades, task i the i-th K of them
  // Every student-lab of the roster, graded or not: what --merge and --status go through.
  std::vector<std::pair<std::string, std::string>> everyone;  // (lab, student)

  size_t tasks() const { return (todo.size() + slurm.per_task - 1) / slurm.per_task; }
  // The student-labs of array task `index`; throws std::runtime_error for one out of range.
  std::vector<ClassJob> task_jobs(size_t index) const;
  std::vector<ClassJob> everyone_jobs() const;  // `everyone` as jobs (no submission or key)
};

nlohmann::json plan_to_json(const SlurmPlan& plan);
// Throws std::runtime_error naming the key that is missing or wrong.
SlurmPlan plan_from_json(const nlohmann::json& j);

// Where the files of a submission go.
std::filesystem::path slurm_dir(const std::filesystem::path& out);  // OUT/slurm
std::filesystem::path plan_file(const std::filesystem::path& out);  // OUT/slurm/plan.json
// Reads OUT/slurm/plan.json; throws std::runtime_error when there is none or it is not one.
SlurmPlan read_plan(const std::filesystem::path& file);

// The array's --array value: "0-(tasks-1)", and "%N" where at most N run at once.
std::string array_spec(size_t tasks, unsigned max_parallel);

// A batch script that runs `gpulab grade-all <args...>` in its place (exec, so that the
// scheduler's SIGTERM reaches gpulab), every word quoted for the shell.
std::string batch_script(const std::filesystem::path& gpulab, const std::vector<std::string>& args);

// sbatch's command lines: the job array of `plan`, and the merge job after array `array_id`.
// `exported`: the variable names the job is given (--export=...).
std::vector<std::string> sbatch_array_argv(const SlurmPlan& plan,
                                           const std::vector<std::string>& exported);
std::vector<std::string> sbatch_merge_argv(const SlurmPlan& plan, const std::string& array_id,
                                           const std::vector<std::string>& exported);

// sbatch --parsable's answer ("123" or "123;cluster") as the job id; throws for anything else.
std::string parsable_job_id(const std::string& sbatch_output);

// The three commands: `grade-all --slurm`, `--slurm-task PLAN` (in a task, its index from
// SLURM_ARRAY_TASK_ID) and `--merge OUT`. Each returns grade-all's exit status (exit_status.h):
// --slurm without --wait kExitOk once submitted; with --wait, and --merge, that of the class
// (class_status.h). They throw std::runtime_error when they cannot start, saying why.
int submit_to_slurm(const GradeAllOptions& options, const SlurmOptions& slurm, std::ostream& out);
int run_slurm_task(const std::filesystem::path& plan, std::ostream& out);
int merge_slurm_grading(const std::filesystem::path& out_dir, std::ostream& out);

}  // namespace gpulab
