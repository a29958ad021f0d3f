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

#include "class/grade_all.h"
#include "class/slurm_plan.h"

namespace gpulab {

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
