// What a SLURM grading of a class is, as OUT/slurm/plan.json keeps it (slurm_backend.h submits
// it, grade_all_status.h reads where it stands): the options, the student-labs to grade and who
// is in the class; never the hidden seed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "class/class_job.h"
#include "class/grade_all.h"

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

}  // namespace gpulab
