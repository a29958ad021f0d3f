#include "class/slurm_backend.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "class/grade_all_status.h"
#include "files/atomic_file.h"
#include "files/secret.h"
#include "os/environment_help.h"
#include "os/exit_status.h"
#include "os/process.h"
#include "os/stop_signals.h"
#include "text/joined_words.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace class_files;

namespace {

constexpr const char* kJobsFile = "jobs.json";  // the ids of the last submission
constexpr const char* kTaskScript = "task.sh";
constexpr const char* kMergeScript = "merge.sh";
constexpr const char* kLogs = "logs";
constexpr const char* kCache = "cache";  // OUT/cache: the class's one dataset cache
// How often --wait asks squeue whether the merge job has ended.
constexpr double kPollS = 2;
// Beyond gpulab's own variables (environment_help.h), what a task needs of the instructor's
// environment: programs found as on the login node (nvcc, bwrap, sbatch's own), a home, a locale.
constexpr const char* kTaskBaseVariables[] = {"PATH", "HOME", "LANG"};

fs::path gpulab_binary() {
  return fs::read_symlink("/proc/self/exe");
}

// The seed file, created readable by its owner alone from the first instant (O_EXCL with mode
// 0600 under any umask), then renamed over the old one.
void write_seed_file(const fs::path& file, const std::string& seed) {
  const fs::path tmp = file.string() + ".new";
  fs::remove(tmp);
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("grade-all --slurm: cannot create " + tmp.string());
  const bool written = write(fd, seed.data(), seed.size()) == static_cast<ssize_t>(seed.size());
  close(fd);
  if (!written) throw std::runtime_error("grade-all --slurm: cannot write " + tmp.string());
  fs::rename(tmp, file);
}

// The seed a task grades with, from the file beside its plan; none where the plan has none.
// Refuses a file others could read, and one that is not the plan's seed.
std::optional<std::string> read_seed_file(const SlurmPlan& plan) {
  if (plan.seed_fingerprint == seed_fingerprint(std::nullopt)) return std::nullopt;
  const fs::path file = slurm_dir(plan.options.out) / kHiddenSeedFileName;
  struct stat st {};
  if (lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw std::runtime_error("grade-all --slurm-task: " + file.string() +
                             " is missing: the plan was made with a hidden seed");
  if (st.st_mode & 077)
    throw std::runtime_error("grade-all --slurm-task: " + file.string() +
                             " can be read by others; refusing to grade with that seed (chmod "
                             "600 it and submit again)");
  std::ifstream in(file, std::ios::binary);
  const std::string seed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (seed.empty() || seed_fingerprint(seed) != plan.seed_fingerprint)
    throw std::runtime_error("grade-all --slurm-task: " + file.string() +
                             " is not the seed the plan was made with (submitted again since?)");
  return seed;
}

// What the jobs are given of the instructor's environment: these names, each set now.
std::vector<std::string> exported_variables() {
  std::vector<std::string> names(std::begin(kTaskBaseVariables), std::end(kTaskBaseVariables));
  for (const auto& n : environment_variable_names())
    if (n != kHiddenSeedVariable && n != "GPULAB_CACHE_DIR") names.push_back(n);
  std::vector<std::string> set;
  for (const auto& n : names)
    if (std::getenv(n.c_str())) set.push_back(n);
  set.push_back("GPULAB_CACHE_DIR");  // set for sbatch below: the class's cache
  return set;
}

// sbatch's own environment: gpulab's, without the seed, with the class's cache.
std::vector<std::string> sbatch_environment(const fs::path& out) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (name != kHiddenSeedVariable && name != "GPULAB_CACHE_DIR") env.push_back(entry);
  }
  env.push_back("GPULAB_CACHE_DIR=" + (out / kCache).string());
  return env;
}

// Runs a SLURM command; its output, or a std::runtime_error that says what went wrong.
std::string slurm_command(const std::vector<std::string>& argv, const fs::path& cwd,
                          const std::vector<std::string>& env) {
  ProcessOptions po;
  po.argv = argv;
  po.cwd = cwd;
  po.timeout_s = 120;
  po.env = env;
  po.inherit_env = env.empty();
  const ProcessResult p = run_process(po);
  if (!p.start_error.empty())
    throw std::runtime_error("grade-all --slurm: cannot run " + argv[0] + " (" + p.start_error +
                             "): is this a SLURM login node?");
  if (!p.ok())
    throw std::runtime_error("grade-all --slurm: " + joined(argv, " ") + " " + p.describe() + ": " +
                             p.output);
  return p.output;
}

// The job ids this user has queued or running (an array's tasks under the array's id).
std::set<std::string> queued_jobs(const fs::path& cwd) {
  std::istringstream lines(slurm_command(
      {"squeue", "--noheader", "--format=%F", "--user=" + std::to_string(getuid())}, cwd, {}));
  std::set<std::string> ids;
  for (std::string line; std::getline(lines, line);) {
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (!line.empty()) ids.insert(line);
  }
  return ids;
}

// The last submission's job ids that squeue still lists.
std::vector<std::string> still_queued(const fs::path& out) {
  const auto jobs = read_json_file(slurm_dir(out) / kJobsFile);
  if (!jobs || !jobs->is_object()) return {};
  const std::set<std::string> queued = queued_jobs(out);
  std::vector<std::string> ids;
  for (const char* key : {"array", "merge"}) {
    const std::string id = jobs->value(key, "");
    if (!id.empty() && queued.count(id)) ids.push_back(id);
  }
  return ids;
}

void refuse_while_queued(const fs::path& out) {
  const auto ids = still_queued(out);
  if (ids.empty()) return;
  throw std::runtime_error("grade-all --slurm: the earlier submission for " + out.string() +
                           " is still queued or running (job " + joined(ids, ", ") +
                           "): wait for it to end (gpulab grade-all --status --out " +
                           out.string() + " shows where it stands), or cancel it with `scancel " +
                           joined(ids, " ") +
                           "`, then run this again: it submits what is not graded");
}

std::string submit(const std::vector<std::string>& argv, const fs::path& out) {
  return parsable_job_id(slurm_command(argv, out, sbatch_environment(out)));
}

// While a task grades a student-lab: OUT/<lab>/<student>/running.json, for --status.
class RunningMark {
 public:
  explicit RunningMark(const ClassJob& j) : file_(j.dir / kRunning) {
    const auto env = [](const char* name) {
      const char* v = std::getenv(name);
      return std::string(v ? v : "");
    };
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    write_file_atomically(file_, json{{"job", env("SLURM_ARRAY_JOB_ID")},
                                      {"task", env("SLURM_ARRAY_TASK_ID")},
                                      {"host", std::string(host)},
                                      {"started", now_iso8601()}}
                                         .dump(2) +
                                     "\n");
  }
  ~RunningMark() {
    std::error_code ec;
    fs::remove(file_, ec);
  }
  RunningMark(const RunningMark&) = delete;
  RunningMark& operator=(const RunningMark&) = delete;

 private:
  fs::path file_;
};

// Waits until squeue no longer lists `ids`; false when gpulab is stopped meanwhile.
bool wait_for_jobs(const std::vector<std::string>& ids, const fs::path& out) {
  for (;;) {
    const auto queued = queued_jobs(out);
    bool any = false;
    for (const auto& id : ids) any |= queued.count(id) > 0;
    if (!any) return true;
    for (int i = 0; i < static_cast<int>(kPollS * 10); ++i) {
      if (stop_signal()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

// The class files and the status, as --merge writes them.
int merge_and_say(const SlurmPlan& plan, std::ostream& out) {
  write_class_files(plan.options, plan.everyone_jobs());
  const ClassStatus s = class_status(plan);
  out << s.text() << class_files_line(plan.options.out);
  return s.exit_status();
}

}  // namespace

std::string array_spec(size_t tasks, unsigned max_parallel) {
  if (tasks == 0) throw std::runtime_error("grade-all --slurm: an array of no tasks");
  std::string spec = "0-" + std::to_string(tasks - 1);
  if (max_parallel) spec += "%" + std::to_string(max_parallel);
  return spec;
}

std::string batch_script(const fs::path& gpulab, const std::vector<std::string>& args) {
  std::string words = shell_quote(gpulab.string());
  for (const auto& a : args) words += " " + shell_quote(a);
  return "#!/bin/sh\n"
         "# Written by gpulab grade-all --slurm. No secret here: a task reads the hidden seed\n"
         "# from slurm/hidden-seed beside its plan, a file only its owner can read.\n"
         "exec " +
         words + "\n";
}

namespace {

// What both jobs are given: a name, the environment named, where they run and log.
std::vector<std::string> sbatch_common(const SlurmPlan& plan, const std::string& name,
                                       const std::string& log,
                                       const std::vector<std::string>& exported) {
  std::vector<std::string> argv = {
      "sbatch",
      "--parsable",
      "--job-name=" + name,
      "--export=" + joined(exported, ","),
      "--chdir=" + plan.options.out.string(),
      "--output=" + (slurm_dir(plan.options.out) / kLogs / log).string()};
  if (!plan.slurm.partition.empty()) argv.push_back("--partition=" + plan.slurm.partition);
  if (plan.slurm.time_limit_min)
    argv.push_back("--time=" + std::to_string(plan.slurm.time_limit_min));
  return argv;
}

}  // namespace

std::vector<std::string> sbatch_array_argv(const SlurmPlan& plan,
                                           const std::vector<std::string>& exported) {
  std::vector<std::string> argv = sbatch_common(plan, "gpulab-grade", "task-%A_%a.out", exported);
  argv.push_back("--array=" + array_spec(plan.tasks(), plan.slurm.max_parallel));
  if (!plan.slurm.gres.empty()) argv.push_back("--gres=" + plan.slurm.gres);
  argv.insert(argv.end(), plan.slurm.sbatch_args.begin(), plan.slurm.sbatch_args.end());
  argv.push_back((slurm_dir(plan.options.out) / kTaskScript).string());
  return argv;
}

std::vector<std::string> sbatch_merge_argv(const SlurmPlan& plan, const std::string& array_id,
                                           const std::vector<std::string>& exported) {
  // afterany: the class files are merged however the tasks ended (stopped ones say so).
  std::vector<std::string> argv = sbatch_common(plan, "gpulab-merge", "merge-%j.out", exported);
  argv.push_back("--dependency=afterany:" + array_id);
  argv.insert(argv.end(), plan.slurm.sbatch_args.begin(), plan.slurm.sbatch_args.end());
  argv.push_back((slurm_dir(plan.options.out) / kMergeScript).string());
  return argv;
}

std::string parsable_job_id(const std::string& sbatch_output) {
  std::string id = sbatch_output.substr(0, sbatch_output.find_first_of(";\n"));
  id.erase(id.find_last_not_of(" \t\r") + 1);
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("grade-all --slurm: sbatch --parsable said \"" + sbatch_output +
                             "\", not a job id");
  return id;
}

int submit_to_slurm(const GradeAllOptions& options, const SlurmOptions& slurm, std::ostream& out) {
  if (slurm.per_task == 0) throw std::runtime_error("grade-all: --per-task must be at least 1");
  const GradeAllOptions o = absolute_paths(options);
  const std::optional<std::string> seed = check_class_options(o, out);
  const fs::path dir = slurm_dir(o.out);
  fs::create_directories(dir / kLogs);
  refuse_while_queued(o.out);

  SlurmPlan plan;
  plan.options = o;
  plan.options.hidden_seed.reset();
  plan.slurm = slurm;
  plan.seed_fingerprint = seed_fingerprint(seed);
  for (auto& j : list_class_jobs(o, seed, out)) {
    plan.everyone.emplace_back(j.lab, j.student);
    if (already_graded(j)) continue;
    std::error_code ec;  // no task runs now (refused above): a running.json is a killed task's
    fs::remove(j.dir / kRunning, ec);
    plan.todo.push_back(std::move(j));
  }
  if (seed) {
    write_seed_file(dir / kHiddenSeedFileName, *seed);
  } else {
    fs::remove(dir / kHiddenSeedFileName);
  }
  // One dataset cache for the class, its owner's alone (hidden datasets are in it).
  fs::create_directories(o.out / kCache);
  fs::permissions(o.out / kCache, fs::perms::owner_all, fs::perm_options::replace);
  write_file_atomically(plan_file(o.out), plan_to_json(plan).dump(2) + "\n");
  const fs::path gpulab = gpulab_binary();
  write_file_atomically(dir / kTaskScript, batch_script(gpulab, {"grade-all", "--slurm-task",
                                                                 plan_file(o.out).string()}));
  write_file_atomically(dir / kMergeScript,
                        batch_script(gpulab, {"grade-all", "--merge", o.out.string()}));

  out << "to grade: " << plan.todo.size() << " of " << plan.everyone.size()
      << " student-labs (the others are graded)\n";
  if (plan.todo.empty()) {
    out << "nothing to submit; wrote the class files\n";
    return merge_and_say(plan, out);
  }
  const std::vector<std::string> exported = exported_variables();
  const std::string array_id = submit(sbatch_array_argv(plan, exported), o.out);
  json jobs = {{"array", array_id}, {"tasks", plan.tasks()}, {"submitted", now_iso8601()}};
  write_file_atomically(dir / kJobsFile, jobs.dump(2) + "\n");
  const std::string merge_id = submit(sbatch_merge_argv(plan, array_id, exported), o.out);
  jobs["merge"] = merge_id;
  write_file_atomically(dir / kJobsFile, jobs.dump(2) + "\n");

  out << "submitted job array " << array_id << " (" << plan.tasks() << " task(s) of up to "
      << slurm.per_task << " student-lab(s)"
      << (slurm.max_parallel ? ", at most " + std::to_string(slurm.max_parallel) + " at once"
                             : std::string())
      << ") and merge job " << merge_id << " (after the array)\n"
      << "watch:  gpulab grade-all --status --out " << o.out.string() << "   (squeue --jobs "
      << array_id << "," << merge_id << ")\n"
      << "logs:   " << (dir / kLogs).string() << "/\n"
      << "cancel: scancel " << array_id << " " << merge_id
      << "; the same grade-all --slurm command then submits what is not graded\n"
      << std::flush;
  if (!slurm.wait) return kExitOk;
  if (!wait_for_jobs({array_id, merge_id}, o.out)) {
    out << "stopped waiting (" << signal_name(stop_signal()) << "); the jobs go on\n";
    return kExitStopped;
  }
  const ClassStatus s = class_status(plan);
  out << s.text();
  return s.exit_status();
}

int run_slurm_task(const fs::path& plan_path, std::ostream& out) {
  const SlurmPlan plan = read_plan(fs::absolute(plan_path));
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  if (!id || !*id)
    throw std::runtime_error(
        "grade-all --slurm-task: SLURM_ARRAY_TASK_ID is not set: this runs as a task of the "
        "job array that grade-all --slurm submits");
  const std::string index_text = id;
  if (index_text.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("grade-all --slurm-task: SLURM_ARRAY_TASK_ID is \"" + index_text +
                             "\", not a task index");
  const std::vector<ClassJob> jobs = plan.task_jobs(std::stoul(index_text));
  const std::optional<std::string> seed = read_seed_file(plan);
  // With --gres the scheduler shows the task its GPU; the lock still keeps graders sharing a
  // GPU (a node without gres) taking turns.
  const std::vector<std::string> gpus = visible_gpus(plan.options.backend);
  const std::string gpu = gpus.empty() ? "" : gpus.front();
  int failures = 0;
  for (const auto& j : jobs) {
    const RunningMark running(j);
    try {
      const GradedSubmission g = grade_class_job(j, plan.options, seed, gpu);
      failures += !g.scored;
      out << g.line << "\n" << std::flush;
    } catch (const Stopped& s) {
      finishing();  // this thread writes the stopped report; no last words over it
      record_stopped_by_scheduler(j, plan.options.backend, s.signal);
      out << j.lab << "/" << j.student << ": stopped by the scheduler (" << signal_name(s.signal)
          << "); graded again when grade-all --slurm runs again\n";
      return kExitStopped;
    }
  }
  return failures ? kExitFailed : kExitOk;
}

int merge_slurm_grading(const fs::path& out_dir, std::ostream& out) {
  return merge_and_say(read_plan(plan_file(fs::absolute(out_dir))), out);
}

}  // namespace gpulab
