#include "class/slurm_plan.h"

#include <stdexcept>

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kPlanFormat = "gpulab grade-all slurm plan 1";

// The value of `key` in `j`, as a T; throws naming the key where it is missing or not a T.
template <typename T>
T plan_field(const json& j, const char* key) {
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(std::string("grade-all: plan.json: \"") + key +
                             "\" is missing or of the wrong type (is it a plan grade-all "
                             "--slurm wrote?)");
  }
}

}  // namespace

std::vector<ClassJob> SlurmPlan::task_jobs(size_t index) const {
  if (index >= tasks())
    throw std::runtime_error("grade-all --slurm-task: array task " + std::to_string(index) +
                             " is out of range: the plan has " + std::to_string(tasks()) +
                             " tasks");
  const size_t begin = index * slurm.per_task;
  const size_t end = std::min(todo.size(), begin + slurm.per_task);
  return {todo.begin() + static_cast<std::ptrdiff_t>(begin),
          todo.begin() + static_cast<std::ptrdiff_t>(end)};
}

std::vector<ClassJob> SlurmPlan::everyone_jobs() const {
  std::vector<ClassJob> jobs;
  for (const auto& [lab, student] : everyone)
    jobs.push_back({lab, student, {}, class_job_dir(options.out, lab, student), {}});
  return jobs;
}

json plan_to_json(const SlurmPlan& plan) {
  const GradeAllOptions& o = plan.options;
  const SlurmOptions& s = plan.slurm;
  json todo = json::array();
  for (const auto& j : plan.todo)
    todo.push_back({{"lab", j.lab},
                    {"student", j.student},
                    {"submission", j.submission.string()},
                    {"key", j.key}});
  json everyone = json::array();
  for (const auto& [lab, student] : plan.everyone) everyone.push_back({lab, student});
  return {{"format", kPlanFormat},
          {"options",
           {{"roster", o.roster.string()},
            {"out", o.out.string()},
            {"roster_csv", o.roster_csv.string()},
            {"canvas_assignments", o.canvas_assignments},
            {"labs", o.labs},
            {"backend", backend_name(o.backend)},
            {"performance", o.performance},
            {"require_gpu", o.require_gpu},
            {"allow_unsandboxed", o.allow_unsandboxed},
            {"submission_timeout_s", o.submission_timeout_s}}},
          {"slurm",
           {{"partition", s.partition},
            {"gres", s.gres},
            {"max_parallel", s.max_parallel},
            {"per_task", s.per_task},
            {"time_limit_min", s.time_limit_min},
            {"sbatch_args", s.sbatch_args}}},
          {"hidden_seed", plan.seed_fingerprint},
          {"todo", todo},
          {"everyone", everyone}};
}

SlurmPlan plan_from_json(const json& j) {
  if (!j.is_object() || j.value("format", "") != kPlanFormat)
    throw std::runtime_error(std::string("grade-all: not a plan of this gpulab (\"format\" is "
                                         "not \"") +
                             kPlanFormat + "\"): submit again with grade-all --slurm");
  SlurmPlan p;
  const json o = plan_field<json>(j, "options");
  p.options.roster = plan_field<std::string>(o, "roster");
  p.options.out = plan_field<std::string>(o, "out");
  p.options.roster_csv = plan_field<std::string>(o, "roster_csv");
  p.options.canvas_assignments = plan_field<std::vector<std::string>>(o, "canvas_assignments");
  p.options.labs = plan_field<std::vector<std::string>>(o, "labs");
  const std::string backend = plan_field<std::string>(o, "backend");
  if (const std::optional<Backend> b = backend_named(backend))
    p.options.backend = *b;
  else
    throw std::runtime_error("grade-all: plan.json: \"backend\" is \"" + backend +
                             "\", no backend of this gpulab");
  p.options.performance = plan_field<bool>(o, "performance");
  p.options.require_gpu = plan_field<bool>(o, "require_gpu");
  p.options.allow_unsandboxed = plan_field<bool>(o, "allow_unsandboxed");
  p.options.submission_timeout_s = plan_field<double>(o, "submission_timeout_s");
  const json s = plan_field<json>(j, "slurm");
  p.slurm.partition = plan_field<std::string>(s, "partition");
  p.slurm.gres = plan_field<std::string>(s, "gres");
  p.slurm.max_parallel = plan_field<unsigned>(s, "max_parallel");
  p.slurm.per_task = plan_field<unsigned>(s, "per_task");
  if (p.slurm.per_task == 0)
    throw std::runtime_error("grade-all: plan.json: \"per_task\" is 0: at least 1");
  p.slurm.time_limit_min = plan_field<unsigned>(s, "time_limit_min");
  p.slurm.sbatch_args = plan_field<std::vector<std::string>>(s, "sbatch_args");
  p.seed_fingerprint = plan_field<std::string>(j, "hidden_seed");
  for (const json& t : plan_field<json>(j, "todo")) {
    ClassJob job;
    job.lab = plan_field<std::string>(t, "lab");
    job.student = plan_field<std::string>(t, "student");
    job.submission = plan_field<std::string>(t, "submission");
    job.key = plan_field<json>(t, "key");
    job.dir = class_job_dir(p.options.out, job.lab, job.student);
    p.todo.push_back(std::move(job));
  }
  for (const json& e : plan_field<json>(j, "everyone")) {
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_string())
      throw std::runtime_error("grade-all: plan.json: \"everyone\" holds " + e.dump() +
                               ", not [lab, student]");
    p.everyone.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
  }
  return p;
}

fs::path slurm_dir(const fs::path& out) {
  return out / "slurm";
}

fs::path plan_file(const fs::path& out) {
  return slurm_dir(out) / "plan.json";
}

SlurmPlan read_plan(const fs::path& file) {
  const auto j = read_json_file(file);
  if (!j)
    throw std::runtime_error("grade-all: " + file.string() +
                             " is missing or not JSON: no grade-all --slurm submitted there");
  return plan_from_json(*j);
}

}  // namespace gpulab
