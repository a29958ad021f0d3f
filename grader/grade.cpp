#include "grade.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>

#include "build.h"
#include "check.h"
#include "content_hash.h"
#include "dataset_store.h"
#include "device.h"
#include "file_lock.h"
#include "intake.h"
#include "lab_config.h"
#include "paths.h"
#include "process.h"
#include "random_bytes.h"
#include "reference_time.h"
#include "run_limit.h"
#include "run_output.h"
#include "runner_flags.h"
#include "safe_text.h"
#include "sample_protocol.h"
#include "sample_stage.h"
#include "sandbox.h"
#include "secret.h"
#include "sim_report.h"
#include "stats.h"
#include "stop_signals.h"
#include "timing.h"
#include "timing_record.h"

namespace gpulab {

namespace {

constexpr const char* kDefaultHiddenSeed = "20261122";
// What a timed sample's seed is drawn for (secret_seed's purpose).
constexpr const char* kTimedSamplePurpose = "gpulab timed sample";

// What one runner process produced, read back by the grader.
struct RunOutcome {
  bool ran = false;  // the runner exited 0 with status "ok"
  bool no_gpu = false;
  bool timed_out = false;  // stopped by its time limit (run_limit.h)
  std::string message;     // why it did not run, for the student
  ProcessResult process;   // the runner's process: its exit, times and output
  nlohmann::json result;   // the runner's result.json
  // The sim backend's findings (out of bounds, races, ...), one JSON object each.
  std::vector<nlohmann::json> sim_findings;
};

// `j` without the fields among `text` that are not strings and the field `count` where it is
// not an integer: the files a run leaves are written where student code runs, and a field of
// another type would make reading it (json::value) throw.
nlohmann::json well_typed(nlohmann::json j, std::initializer_list<const char*> text) {
  if (!j.is_object()) return nullptr;
  for (const char* key : text)
    if (j.contains(key) && !j[key].is_string()) j.erase(key);
  if (j.contains("count") && !j["count"].is_number_integer()) j.erase("count");
  return j;
}

// The CPU backend's report of a run, from the pipe it was given (sim_report.h); `finished`:
// the run exited normally and said it ran, so the report must be whole.
SimReport read_sim_findings(const ProcessResult& p, const std::string& key, bool finished) {
  SimReport r = read_sim_report(p.collected, key, p.collected_truncated, finished);
  for (auto& f : r.findings) f = well_typed(f, {"message", "severity", "kind"});
  return r;
}

// The runner's result.json; null where it left none that parses.
nlohmann::json read_result(const RunOutput& output) {
  RunFile file = output.open("result.json");
  if (!file.is_open()) return nullptr;
  try {
    return well_typed(nlohmann::json::parse(file.stream()), {"status", "message"});
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

// Whether a finding fails the dataset: errors (the kernel was stopped) and races, which lose
// updates on a GPU even where the CPU's order happened to give the right sums.
bool fails_dataset(const nlohmann::json& f) {
  const std::string kind = f.value("kind", "");
  return f.value("severity", "") == "error" ||
         (kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "race") == 0);
}

// Each occurrence of `prefix` in `s` removed.
std::string without(std::string s, const std::string& prefix) {
  for (size_t at; !prefix.empty() && (at = s.find(prefix)) != std::string::npos;)
    s.erase(at, prefix.size());
  return s;
}

// The findings in words for the student, at most a few, each with its count. Paths are cut
// to what the student knows: dcs.cu:13, harness/device_buffer.h:18.
std::string describe_sim_findings(const std::vector<nlohmann::json>& found,
                                  const std::vector<std::string>& strip) {
  std::string out;
  const size_t shown = std::min<size_t>(found.size(), 5);
  for (size_t i = 0; i < shown; ++i) {
    const auto& f = found[i];
    std::string message = f.value("message", std::string("(no message)"));
    for (const auto& prefix : strip) message = without(message, prefix);
    out += "\n  gpulab sim, " + f.value("severity", std::string("finding")) + ": " + message;
    const long count = f.value("count", 1L);
    if (count > 1) out += " (" + std::to_string(count) + " times)";
  }
  if (found.size() > shown)
    out += "\n  ... and " + std::to_string(found.size() - shown) + " more findings";
  return out;
}

// The largest file a runner may write: 1 GiB, or more where the expected outputs are larger (a
// scan of 2^28 ints writes 1 GiB and a header). An expected float output is float64, twice
// the runner's float32 file; an expected int32 output has the runner's size exactly.
size_t output_file_limit(const PartSpec& part, const DatasetDirs& ds) {
  size_t largest = 0;
  for (const auto& name : part.outputs) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(ds.expected / (name + ".npy"), ec);
    if (!ec) largest = std::max<size_t>(largest, bytes);
  }
  return std::max(size_t{1} << 30, largest + (largest / 8) + (size_t{1} << 20));
}

// The end of a run's output, for a message: its end says most; cut between characters, control
// characters escaped (safe_text.h). Empty where it printed nothing.
std::string output_tail(const ProcessResult& p) {
  return p.output.empty() ? "" : "\nIts output:\n" + quote_tail(p.output, 2000);
}

// Why a run failed that ended without a message of its own (a crash, a kill, a time limit).
std::string run_failure(const ProcessResult& p, const RunLimit& limit) {
  return "the run " + limit.describe(p) + "." + output_tail(p);
}

// Runs the runner in its sandbox (run_sandbox: it sees itself, the dataset's input directory
// and its output folder, at the paths the sandbox gives them, staged under random names:
// Sandbox::stage_run), or as it is where the sandbox is off. Its output folder is then at
// `collected_out_dir`, where the caller reads it.
RunOutcome run_runner(const Sandbox& sandbox, const Paths& paths,
                      const std::filesystem::path& runner, const std::string& backend,
                      const PartSpec& part, const DatasetDirs& ds,
                      const std::filesystem::path& collected_out_dir, bool time,
                      const nlohmann::json& timing, const RunLimit& limit,
                      const std::vector<std::string>& flags = {},
                      const std::vector<DatasetDirs>& samples = {}) {
  RunOutcome o;
  const StagedRun staged = sandbox.stage_run(runner, ds.input, collected_out_dir);
  const std::filesystem::path& out_dir = staged.out;  // while it runs
  const bool sim = backend == "sim";
  SandboxSpec box = run_sandbox(paths, staged.runner, staged.input, out_dir, !sim && part.gpu);
  // A graded timed run: each sample's inputs are handed over when the run asks for them.
  std::optional<SampleStage> stage;
  const auto samples_dir = out_dir.parent_path() / (out_dir.filename().string() + ".samples");
  if (!samples.empty()) {
    // Linked from stand-ins on the staging's own file system: no copy of a large input per run.
    std::vector<DatasetDirs> staged_samples = samples;
    for (auto& sample : staged_samples) sample.input = sandbox.stage_input(sample.input);
    stage.emplace(samples_dir, staged_samples);
    box.mounts.push_back({samples_dir, RunPaths::samples, false, false});
  }
  const auto inside = [&](const std::filesystem::path& p) {
    return sandbox.inside(box, p).string();
  };
  std::vector<std::string> argv = {inside(staged.runner), "--part", part.name,      "--dataset",
                                   inside(staged.input),  "--out",  inside(out_dir)};
  if (time) argv.insert(argv.end(), {"--time", "--timing", timing.dump()});
  argv.insert(argv.end(), flags.begin(), flags.end());  // runner_flags.h's
  ProcessOptions po;
  if (stage) {
    argv.insert(argv.end(), {kSamplesOption, std::to_string(samples.size()), kSamplesDirOption,
                             inside(samples_dir)});
    po.requests = {kSampleRequestFd, kSampleReplyFd};
    po.answer = [&](const std::string& line) { return stage->answer(line); };
  }
  po.argv = argv;
  po.cwd = out_dir;
  po.timeout_s = limit.wall_s;
  po.output_limit = 16 * 1024;
  po.cpu_limit_s = limit.cpu_s;
  po.file_size_limit = output_file_limit(part, ds);
  po.env = part.runner_env();
  // The CPU backend's report: a pipe the runtime takes at start, and a key it repeats in its
  // end record, which the run's own code cannot know (sim_report.h).
  const std::string sim_key = sim ? random_hex(16) : "";
  if (sim) {
    po.collect = {kSimReportFd, kSimReportLimit};
    po.env.push_back("GPULAB_SIM_REPORT_FD=" + std::to_string(kSimReportFd));
    po.env.push_back("GPULAB_SIM_REPORT_KEY=" + sim_key);
    // Blocks in a shuffled order, as a GPU may run them: code that relies on block 0 going
    // first fails here too. Seeded by the dataset's name, so a regrade repeats the order; never
    // by its seed, which is drawn from the instructor's secret and not the run's to see.
    po.env.push_back("GPULAB_SIM_BLOCK_ORDER=shuffle");
    po.env.push_back("GPULAB_SIM_SEED=" + std::to_string(public_seed(ds.group + "/" + ds.name)));
  }
  const ProcessResult p = sandbox.run(po, box);
  collect_output(staged);
  if (stage) {
    std::error_code ec;
    std::filesystem::remove_all(samples_dir, ec);
  }
  o.process = p;
  o.timed_out = limit.stopped(p);
  // Only regular files the run wrote, never through a link (run_output.h): a link left there
  // would lead the grader to whatever it names, an expected output or the reference's record.
  const RunOutput output(collected_out_dir);
  if (!output.refused().empty()) {
    o.message = output.refused() + ".";
    return o;
  }
  o.result = read_result(output);
  const std::string status = o.result.is_object() ? o.result.value("status", "") : "";
  const SimReport sim_report =
      sim ? read_sim_findings(p, sim_key, p.ok() && status == "ok") : SimReport{};
  o.sim_findings = sim_report.findings;
  if (stage && !stage->problem().empty()) {
    o.message = "your run failed: " + stage->problem();
    return o;
  }
  if (p.ok() && status == "ok") {
    o.ran = sim_report.problem.empty();
    o.message = sim_report.problem;
    return o;
  }
  // The runner rejects a command line it does not understand (exit 2, status "usage"): our
  // fault, not the student's. Student code can exit with 2 too, but writes no such record.
  if (p.exit_code == 2 && !p.timed_out && status == "usage")
    throw std::runtime_error("the runner " + runner.string() +
                             " rejected its arguments: " + o.result.value("message", p.output));
  if (status == "no-gpu") {
    o.no_gpu = true;
    o.message = o.result.value("message", "no GPU");
    return o;
  }
  if (o.result.is_object() && o.result.contains("message") && !p.timed_out && p.signal == 0)
    o.message = "your code failed: " + o.result["message"].get<std::string>() + output_tail(p);
  else
    o.message = run_failure(p, limit);
  return o;
}

double timing_median(const nlohmann::json& result) {
  return result.contains("timing") ? result["timing"].value("median_ms", -1.0) : -1.0;
}
double timing_median(const RunOutcome& o) {
  return timing_median(o.result);
}

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

std::string compiler_version(const std::vector<std::string>& cmd) {
  const ProcessResult r = run_process({cmd, {}, 30, 4096, 0, 0, {}});
  std::string out = r.output;
  // nvcc prints its release on the last-but-one line; keep the line that names the release.
  size_t at = out.find("release");
  if (at == std::string::npos) return out.substr(0, out.find('\n'));
  const size_t start = out.rfind('\n', at);
  const size_t end = out.find('\n', at);
  return out.substr(start == std::string::npos ? 0 : start + 1,
                    end == std::string::npos ? std::string::npos : end - start - 1);
}

// Who is timed in a round of the performance test.
enum class Timed { student, reference, baseline };

// The order of round r's timed runs: the student's in the middle, next to the reference's and
// the baseline's (the ratio to each is taken within the round, and runs adjacent in time see
// the machine alike), reversed every other round (B S R, R S B, ...) so that neither goes first
// more often. Those not timed are left out: S R, R S, ... without a baseline, as before.
std::vector<Timed> round_order(int round, bool reference, bool baseline) {
  std::vector<Timed> order;
  if (reference) order.push_back(Timed::reference);
  order.push_back(Timed::student);
  if (baseline) order.push_back(Timed::baseline);
  if (round % 2 == 0) std::reverse(order.begin(), order.end());
  return order;
}

class Grading {
 public:
  Grading(const GradeOptions& o, std::ostream& log) : o_(o), log_(log) {}

  void run(Report& report) {
    const auto t0 = std::chrono::steady_clock::now();
    paths_ = Paths::current();
    lab_ = LabConfig::load(paths_.lab_dir(o_.lab) / "lab.json");
    if (o_.backend != "cuda" && o_.backend != "sim")
      throw std::runtime_error("unknown backend \"" + o_.backend + "\" (cuda or sim)");
    if (sim() && !std::filesystem::exists(paths_.sim_cc()))
      throw std::runtime_error(
          "this gpulab was built without the CPU backend (" + paths_.sim_cc().string() +
          " is missing): run scripts/setup.sh, which installs what it needs, and rebuild");
    for (const auto& p : o_.parts)
      if (!lab_.part(p)) throw std::runtime_error("lab " + lab_.id + " has no part \"" + p + "\"");
    device_ = device_preflight();
    hidden_seed_ = hidden_seed();
    report.environment = environment();
    sandbox_ = Sandbox::detect(paths_, !sim() && device_.usable);
    report.environment["sandbox"] = sandbox_.to_json();
    refuse_unless_sandboxed(report);
    prepare_work_dir();
    sandbox_.stage_runs_in(work_);

    const auto src = work_ / "submission";
    const IntakeSpec intake_spec = IntakeSpec::of(lab_);
    const Intake intake = take_in_submission(o_.submission, intake_spec, src);
    if (!intake.accepted) {
      fail_all(report, intake.rejection, "submission not accepted");
      return;
    }
    if (!intake.note(intake_spec).empty()) report.output += intake.note(intake_spec) + "\n";
    log_ << "building " << o_.submission.string() << "\n";
    student_ = build_runner(lab_, paths_, src, work_ / "student-build", o_.backend, sandbox_);
    if (!student_.ok) {
      fail_all(report, "Your code did not build, so every part scores zero.\n" + student_.message);
      return;
    }
    FileLock gpu_lock;
    if (!o_.gpu_lock.empty()) {
      log_ << "waiting for the GPU (lock " << o_.gpu_lock.string() << ")\n";
      gpu_lock = FileLock(o_.gpu_lock);
    }
    for (const auto& part : lab_.parts) {
      if (!o_.parts.empty() &&
          std::find(o_.parts.begin(), o_.parts.end(), part.name) == o_.parts.end())
        continue;
      grade_part(part, report);
    }
    if (sim())
      report.output +=
          "Graded on gpulab's CPU backend (sim), which runs your kernels on the CPU and checks "
          "them for bugs; it measures no speed, so performance points are left out of the "
          "maximum.";
    else if (!device_.usable && !o_.require_gpu)
      report.output += "This machine has no usable CUDA GPU (" + device_.problem +
                       "), so GPU parts were not graded and are left out of the maximum.";
    report.execution_time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  ~Grading() {
    if (remove_work_) std::filesystem::remove_all(work_);
  }

 private:
  bool sim() const { return o_.backend == "sim"; }
  // GPU parts run on a GPU, or on the CPU backend.
  bool gpu_parts_run() const { return sim() || device_.usable; }

  std::string hidden_seed() {
    if (const auto secret = hidden_secret(o_.hidden_seed, log_)) return *secret;
    if (o_.include_hidden)
      log_ << "warning (instructor): no hidden seed given (--hidden-seed or GPULAB_HIDDEN_SEED); "
              "hidden datasets use gpulab's default seed, which students can reproduce\n";
    return kDefaultHiddenSeed;
  }

  nlohmann::json environment() const {
    nlohmann::json e = {
        {"version", GPULAB_VERSION},
        {"lab", lab_.id},
        {"backend", o_.backend},
        {"device", device_.to_json()},
        {"compiler",
         compiler_version({sim() ? std::string("c++") : paths_.nvcc.string(), "--version"})},
        {"host_compiler", compiler_version({"c++", "--version"})}};
    return e;
  }

  void prepare_work_dir() {
    if (!o_.work_dir.empty()) {
      work_ = o_.work_dir;
      std::filesystem::create_directories(work_);
      return;
    }
    std::string tmpl = (std::filesystem::temp_directory_path() / "gpulab-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary directory");
    work_ = tmpl;
    remove_work_ = true;
    // The sandbox's user reaches the folders bound for it through this one; it cannot list it.
    if (sandbox_.enabled())
      std::filesystem::permissions(work_, std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add);
  }

  // Student code runs in the sandbox, or not at all unless unsandboxed runs were allowed (grade
  // --allow-unsandboxed; gpulab run, which runs the student's own code, allows them).
  void refuse_unless_sandboxed(Report& report) {
    if (sandbox_.enabled()) return;
    const std::string why =
        "student code cannot be sandboxed on this machine: " + sandbox_.problem();
    if (!o_.allow_unsandboxed) {
      log_ << "error (instructor): " << why
           << "\n  Not grading. Install bubblewrap (scripts/setup.sh) on a machine with user "
              "namespaces, or pass --allow-unsandboxed to grade without the sandbox "
              "(docs/GRADING.md, \"The sandbox and the threat model\").\n";
      throw std::runtime_error(
          "Grading refused: " + why +
          " Without the sandbox, student code could read expected outputs and reference "
          "sources, or write the report. Install bubblewrap, or pass --allow-unsandboxed.");
    }
    report.environment["sandbox"]["unsandboxed_allowed"] = true;
    log_ << "WARNING: " << why
         << "\n  The code runs WITHOUT the sandbox: it can read and write whatever this user "
            "can. (Allowed: gpulab run, or grade --allow-unsandboxed.)\n";
  }

  // A part's points in this grading's maximum: GPU parts without a GPU are left out of it
  // unless the instructor asked for them to count; the sim backend leaves out performance, and
  // every backend the correctness groups that lab.json does not run on it (sizes only a GPU
  // checks in time).
  double graded_max(const PartSpec& part) const {
    if (part.gpu && !gpu_parts_run() && !o_.require_gpu) return 0;
    const PartRubric& rubric = lab_.rubric.at(part.name);
    double max = lab_.part_points(part.name) - (sim() ? rubric.timed_points() : 0);
    for (const auto& g : lab_.groups)
      if (!g.timing && !g.on_backend(o_.backend) && rubric.group_points.count(g.name))
        max -= rubric.group_points.at(g.name);
    return max;
  }

  void fail_all(Report& report, const std::string& why,
                const std::string& what = "does not build") {
    for (const auto& part : lab_.parts) {
      Test t{part.name + ": " + what, 0, graded_max(part), false, why, "visible", {part.name}, {}};
      report.tests.push_back(t);
    }
  }

  // The student kit has no reference/: there `gpulab run` times the student's code alone.
  bool reference_available() const {
    return std::filesystem::exists(paths_.reference_runner(lab_.id, o_.backend)) ||
           std::filesystem::exists(paths_.reference_dir(lab_.id));
  }

  const std::filesystem::path& reference_runner() {
    if (!reference_.empty()) return reference_;
    const auto prebuilt = paths_.reference_runner(lab_.id, o_.backend);
    if (std::filesystem::exists(prebuilt)) {
      reference_ = prebuilt;
      return reference_;
    }
    const BuildResult b = build_runner(lab_, paths_, paths_.reference_dir(lab_.id),
                                       work_ / "reference-build", o_.backend, sandbox_);
    if (!b.ok) throw std::runtime_error("the reference solution did not build: " + b.message);
    reference_ = b.runner;
    return reference_;
  }

  // The runner that times the lab's baseline (runner_flags.h's kTimeBaselineFlag) in a process
  // of its own, so that nothing the student's code leaves running (a thread, queued GPU work)
  // can slow the baseline and inflate the speedup. In that mode a runner calls no student
  // function; this one holds no student code either: the stub runner, built from the lab's own
  // files (labs/<lab>/), by CMake (build/runners/<lab>-stub) or else here. Not the reference
  // runner, because the student kit has no reference/, while every copy of gpulab has
  // labs/<lab>/ (in the kit that is the student's working copy, but there `gpulab run` runs the
  // student's own code anyway). A submission that is that folder already built this runner.
  const std::filesystem::path& baseline_runner() {
    if (!baseline_.empty()) return baseline_;
    const auto prebuilt = paths_.stub_runner(lab_.id, o_.backend);
    std::error_code ec;
    if (std::filesystem::exists(prebuilt)) {
      baseline_ = prebuilt;
    } else if (std::filesystem::equivalent(o_.submission, paths_.lab_dir(lab_.id), ec)) {
      baseline_ = student_.runner;
    } else {
      const BuildResult b = build_runner(lab_, paths_, paths_.lab_dir(lab_.id),
                                         work_ / "baseline-build", o_.backend, sandbox_);
      if (!b.ok)
        throw std::runtime_error("the runner that times the lab's baseline, built from " +
                                 paths_.lab_dir(lab_.id).string() +
                                 ", did not build: " + b.message);
      baseline_ = b.runner;
    }
    return baseline_;
  }

  bool wanted(const DatasetSpec& ds, const std::string& part) const {
    return ds.applies_to(part) && (o_.dataset.empty() || o_.dataset == ds.name);
  }

  DatasetDirs dataset(const GroupSpec& g, const DatasetSpec& ds) {
    return materialize(lab_, g, ds, hidden_seed_, paths_.cache_dir() / "datasets" / lab_.id);
  }

  // The datasets of a graded timed run's samples on the timing dataset `d`: made by its
  // generator with its parameters, each with a seed of its own drawn from the instructor's
  // secret, so that no two samples share content and students cannot make them beforehand.
  const std::vector<DatasetDirs>& timing_samples(const DatasetDirs& d,
                                                 const nlohmann::json& timing) {
    auto& found = samples_[d.group + "/" + d.name];
    if (!found.empty()) return found;
    const GroupSpec* g = nullptr;
    const DatasetSpec* spec = nullptr;
    for (const auto& group : lab_.groups)
      for (const auto& ds : group.datasets)
        if (group.name == d.group && ds.name == d.name) g = &group, spec = &ds;
    if (!spec) throw std::runtime_error("no dataset " + d.group + "/" + d.name + " in lab.json");
    const int n = std::max(1, TimingPolicy::from_json(timing).samples);
    for (int k = 1; k <= n; ++k) {
      DatasetSpec sample = *spec;
      sample.name = spec->name + ".sample-" + std::to_string(k);
      sample.seed = secret_seed(hidden_seed_, kTimedSamplePurpose, sample.name);
      log_ << "  preparing timed sample " << k << " of " << n << " on " << spec->name << "\n";
      found.push_back(dataset(*g, sample));
    }
    return found;
  }

  // The timing policy a graded timed run is held to: warmup calls, then exactly `samples`
  // samples (harness/sample_protocol.h).
  static nlohmann::json graded_policy(const nlohmann::json& timing) {
    nlohmann::json graded = timing;
    const int n = std::max(1, TimingPolicy::from_json(timing).samples);
    graded["min_samples"] = n;
    graded["max_samples"] = n;
    return graded;
  }

  void grade_part(const PartSpec& part, Report& report) {
    const PartRubric& rubric = lab_.rubric.at(part.name);
    if (part.gpu && !gpu_parts_run()) {
      report.tests.push_back(
          {part.name + ": not graded (no GPU)",
           0,
           graded_max(part),
           false,
           "This part needs a CUDA GPU and the grading machine has none: " + device_.problem +
               (std::filesystem::exists(paths_.sim_cc())
                    ? " To check it without a GPU, run it on the CPU backend: --backend sim."
                    : ""),
           "visible",
           {part.name},
           {}});
      return;
    }
    bool public_ok = true, part_timed_out = false;
    // Every call counts: on one dataset the function is called twice in one process, both
    // calls' outputs checked. A second call that goes wrong after a right first one fails every
    // correctness group of the part (fail_for_state_leak): other datasets call it only once.
    const DatasetSpec* const called_twice = called_twice_on(part);
    std::string leaked_on;                  // the dataset where a second call went wrong
    std::vector<size_t> correctness_tests;  // their places in report.tests
    for (const auto& g : lab_.groups) {
      if (!g.timing && !g.on_backend(o_.backend) && rubric.group_points.count(g.name) &&
          (o_.include_hidden || !g.hidden))
        report.tests.push_back({part.name + ": correctness on the " + g.name +
                                    " datasets not run (" + o_.backend + " backend)",
                                0,
                                0,
                                false,
                                "lab.json runs these datasets on other backends only (" +
                                    nlohmann::json(g.backends).dump() +
                                    "), so their points are left out here.",
                                "visible",
                                {part.name, g.name},
                                {}});
      if (g.timing || !g.on_backend(o_.backend) || (g.hidden && !o_.include_hidden)) continue;
      std::vector<const DatasetSpec*> sets;
      for (const auto& ds : g.datasets)
        if (wanted(ds, part.name)) sets.push_back(&ds);
      if (sets.empty()) continue;
      const double points = rubric.group_points.count(g.name) ? rubric.group_points.at(g.name) : 0;
      int passed = 0;
      std::string details;
      for (const DatasetSpec* ds : sets) {
        DatasetRow row{part.name, ds->name, "error", INFINITY, -1, -1, -1};
        if (part_timed_out) {  // one hang is enough: do not wait out every dataset
          report.rows.push_back({part.name, ds->name, "skipped", INFINITY, -1, -1, -1});
          details += "FAIL " + ds->name + ": not run, an earlier dataset timed out\n";
          continue;
        }
        log_ << "  " << part.name << " on " << ds->name << "\n";
        const DatasetDirs d = dataset(g, *ds);
        const auto out = work_ / "runs" / part.name / ds->name;
        const bool twice = ds == called_twice;
        const RunOutcome o = correctness_run(
            part, d, out,
            twice ? std::vector<std::string>{kCallTwiceFlag} : std::vector<std::string>{});
        part_timed_out = o.timed_out;
        std::string line;
        const bool bug_found =
            std::any_of(o.sim_findings.begin(), o.sim_findings.end(), fails_dataset);
        if (o.ran) {
          const CheckResult c = check_outputs(lab_, part, d, out, false, twice);
          if (c.state_leak) leaked_on = ds->name;
          const bool pass = c.pass && !bug_found;
          row.result = pass ? "pass" : "FAIL";
          row.err_over_bound = c.max_err_over_bound;
          passed += pass;
          line = std::string(pass ? "PASS " : "FAIL ") + ds->name + ": " + c.message;
          if (c.pass && bug_found)
            line +=
                " The outputs are right, but the CPU backend found a bug that can give "
                "wrong results on a GPU:";
        } else {
          line = "FAIL " + ds->name + ": " + o.message;
        }
        line += describe_sim_findings(
            o.sim_findings, {(work_ / "submission").string() + "/", paths_.source.string() + "/"});
        report.rows.push_back(row);
        details += line + "\n";
      }
      const bool all = passed == static_cast<int>(sets.size());
      if (!g.hidden) public_ok = public_ok && all;
      Test t;
      t.name = part.name + ": correctness on the " + g.name + " datasets";
      t.max_score = points;
      t.score = all ? points : 0;
      t.passed = all;
      t.tags = {part.name, g.name};
      t.output = std::to_string(passed) + " of " + std::to_string(sets.size()) + " " + g.name +
                 " datasets passed" + (all ? "." : "; every one must pass for these points.");
      if (!g.hidden) t.output += "\n" + details;
      correctness_tests.push_back(report.tests.size());
      report.tests.push_back(t);
      if (g.hidden)  // the details, for instructors only
        report.tests.push_back({part.name + ": " + g.name + " dataset details (instructors)",
                                0,
                                0,
                                all,
                                details,
                                "hidden",
                                {part.name, g.name},
                                {}});
    }
    if (!leaked_on.empty()) fail_for_state_leak(report, correctness_tests, leaked_on);
    if (sim() && rubric.timed_points() > 0)
      report.tests.push_back({part.name + ": performance not measured (sim backend)",
                              0,
                              0,
                              false,
                              "The CPU backend says nothing about speed on a GPU, so these "
                              "points are left out here; grading on a GPU awards them.",
                              "visible",
                              {part.name, "performance"},
                              {}});
    else if (o_.performance && rubric.timed_points() > 0)
      grade_performance(part, public_ok, report);
    else if (rubric.timed_points() > 0)
      report.tests.push_back({part.name + ": performance not measured (--no-time)",
                              0,
                              0,
                              false,
                              "Timing was switched off for this run.",
                              "visible",
                              {part.name, "performance"},
                              {}});
  }

  // One correctness run of the student's code on `d`, under its time limit (run_limit.h). On
  // the CPU backend the limit follows the reference's CPU time there, measured only when needed:
  // a run stopped at the floor before that time was known runs again where it allows more.
  RunOutcome correctness_run(const PartSpec& part, const DatasetDirs& d,
                             const std::filesystem::path& out,
                             const std::vector<std::string>& flags) {
    const auto limit_with = [&](std::optional<double> reference_s) {
      return correctness_limit(o_.backend, o_.run_timeout_s, reference_s, reference_available(),
                               lab_.sim_time_limit);
    };
    const auto run = [&](const RunLimit& limit) {
      return run_runner(sandbox_, paths_, student_.runner, o_.backend, part, d, out, false, {},
                        limit, flags);
    };
    const std::optional<double> kept = kept_reference_cpu_s(part, d, flags);
    const RunLimit first = limit_with(kept);
    RunOutcome o = run(first);
    if (!o.timed_out || !first.awaits_reference) return o;
    const RunLimit known = limit_with(reference_cpu_s(part, d, flags));
    if (known.cpu_s <= first.cpu_s) {  // the floor stands; the message says why
      o.message = run_failure(o.process, known);
      return o;
    }
    log_ << "  " << part.name << " on " << d.name << " again, stopped at the floor: " << known.why
         << "\n";
    std::filesystem::remove_all(out);
    return run(known);
  }

  // The reference build a kept time belongs to (reference_time.h): the content of its runner,
  // where it is built; none before that, so that looking a time up builds nothing.
  std::optional<std::string> reference_build() {
    if (!reference_build_.empty()) return reference_build_;
    const auto prebuilt = paths_.reference_runner(lab_.id, o_.backend);
    if (reference_.empty() && !std::filesystem::exists(prebuilt)) return std::nullopt;
    reference_build_ = content_hash(reference_runner());
    return reference_build_;
  }

  // The reference's CPU time on `d` where it is kept already, on the CPU backend without
  // --timeout; nothing is built or run for it.
  std::optional<double> kept_reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                                             const std::vector<std::string>& flags) {
    if (!sim() || o_.run_timeout_s || !reference_available()) return std::nullopt;
    const auto build = reference_build();
    if (!build) return std::nullopt;
    return kept_reference_cpu_time(d, {part.name, flags, *build});
  }

  // The reference's CPU time on `d`, kept or measured now: one run of the reference's runner as
  // the student's is run (the same flags), with the CPU backend's checks, outputs unchecked.
  double reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                         const std::vector<std::string>& flags) {
    reference_runner();  // built first: the time is kept under its build
    return reference_cpu_time(d, {part.name, flags, *reference_build()}, [&] {
      log_ << "  timing the reference's " << part.name << " on " << d.name
           << " on the CPU backend, once: the time limit follows it\n";
      const RunOutcome r = run_runner(sandbox_, paths_, reference_runner(), o_.backend, part, d,
                                      work_ / "reference-runs" / part.name / d.group / d.name,
                                      false, {}, RunLimit::clock(kReferenceRunLimitS), flags);
      if (!r.ran)
        throw std::runtime_error("the reference failed its run on " + d.name + ": " + r.message);
      // The runner's own count: a sandboxed run's CPU time does not reach the grader.
      const auto cpu_s = r.result.find(kCpuSecondsKey);
      if (cpu_s == r.result.end() || !cpu_s->is_number())
        throw std::runtime_error("the reference's runner reported no CPU time on " + d.name);
      return cpu_s->get<double>();
    });
  }

  // The dataset on which grade_part calls the part's function twice: the second wanted dataset
  // of the part's first public group, or its only one. Not the first, which is often a single
  // element, where kept state can hide (an exclusive scan of one element is 0 whatever an
  // earlier call left behind); one small dataset, since runs on the CPU backend are slow.
  const DatasetSpec* called_twice_on(const PartSpec& part) const {
    for (const auto& g : lab_.groups) {
      if (g.timing || g.hidden || !g.on_backend(o_.backend)) continue;
      std::vector<const DatasetSpec*> sets;
      for (const auto& ds : g.datasets)
        if (wanted(ds, part.name)) sets.push_back(&ds);
      if (!sets.empty()) return sets[std::min<size_t>(1, sets.size() - 1)];
    }
    return nullptr;
  }

  // A second call went wrong on `dataset` after a right first call: the code keeps state from
  // one call to the next, so it is wrong whenever it is called again, and no correctness group
  // earns points, though each of their other datasets called it only once.
  void fail_for_state_leak(Report& report, const std::vector<size_t>& tests,
                           const std::string& dataset) {
    for (const size_t i : tests) {
      Test& t = report.tests[i];
      if (t.score == 0) continue;  // its own datasets say why
      t.score = 0;
      t.passed = false;
      t.output += "\nNo points: on the public dataset " + dataset +
                  ", a second call of your function in the same process gave wrong outputs "
                  "after a right first call (see that dataset's line). Every call must give the "
                  "right outputs; these datasets called it only once.";
    }
  }

  // The performance test (time against the reference), the speedup test (time against the
  // lab's baseline, timed in the same rounds) and the data-scalability test, as the rubric asks.
  void grade_performance(const PartSpec& part, bool public_ok, Report& report) {
    const PartRubric& rubric = lab_.rubric.at(part.name);
    const char* not_timed = "Not timed: timed points need every public dataset to pass.";
    if (rubric.performance > 0 || rubric.speedup.points > 0) {
      const auto [g, ds] = performance_dataset(part);
      if (ds) {
        Test t;
        t.name = part.name + ": performance on " + ds->name;
        t.max_score = rubric.performance;
        t.tags = {part.name, "performance"};
        std::vector<double> baseline;
        t.output = public_ok ? time_part(part, *g, *ds, t, report,
                                         rubric.speedup.points > 0 ? &baseline : nullptr)
                             : not_timed;
        if (rubric.speedup.points > 0) report.tests.push_back(speedup_test(part, t, baseline));
        if (rubric.performance > 0) report.tests.push_back(t);
      }
    }
    if (rubric.scalability.points > 0) {
      Test t;
      t.max_score = rubric.scalability.points;
      t.tags = {part.name, "scalability"};
      t.name = part.name + ": data scalability, " + rubric.scalability.small + " to " +
               rubric.scalability.large;
      t.output = public_ok ? time_scalability(part, t, report) : not_timed;
      report.tests.push_back(t);
    }
  }

  // The part's performance dataset: its first timing dataset, passing over the small one of a
  // scalability pair when there is another.
  std::pair<const GroupSpec*, const DatasetSpec*> performance_dataset(const PartSpec& part) const {
    std::pair<const GroupSpec*, const DatasetSpec*> first{nullptr, nullptr};
    for (const auto& g : lab_.groups) {
      if (!g.timing || !g.on_backend(o_.backend)) continue;
      for (const auto& ds : g.datasets) {
        if (!wanted(ds, part.name)) continue;
        if (!first.second) first = {&g, &ds};
        if (ds.name != lab_.rubric.at(part.name).scalability.small) return {&g, &ds};
      }
    }
    return first;
  }

  // The speedup over the lab's baseline, from the performance test's rounds: each round timed
  // the baseline in a process of its own (baseline_runner) next to the student's run, so the
  // ratio of the two is taken within the round, and the median over rounds is scored.
  Test speedup_test(const PartSpec& part, const Test& perf, const std::vector<double>& baseline) {
    const SpeedupRubric& r = lab_.rubric.at(part.name).speedup;
    Test t;
    t.name = part.name + ": speedup over the baseline";
    t.max_score = r.points;
    t.tags = {part.name, "speedup"};
    const std::vector<double> student =
        perf.extra.value("student_samples_ms", std::vector<double>{});
    if (baseline.empty() || baseline.size() != student.size() ||
        perf.extra.value("implausible", false)) {
      // The performance test says why; it is in the report only when it has points.
      t.output = "Not measured: " + (lab_.rubric.at(part.name).performance > 0
                                         ? std::string("see the performance test.")
                                         : perf.output);
      return t;
    }
    std::vector<double> speedups;
    for (size_t i = 0; i < student.size(); ++i) speedups.push_back(baseline[i] / student[i]);
    const double speedup = median(speedups);
    t.passed = speedup >= r.at_least;
    t.score = t.passed ? r.points : 0;
    t.extra = {{"speedup", speedup}, {"baseline_ms", median(baseline)}, {"at_least", r.at_least}};
    t.output =
        fmt("The baseline took %.4g ms where your code took %.4g ms: ", median(baseline),
            median(student)) +
        fmt("a speedup of %.2fx (the median over %.0f rounds; each round times both, one "
            "after the other, each in a process of its own). ",
            speedup, static_cast<double>(speedups.size())) +
        fmt(t.passed ? "At least %.2fx earns these points." : "These points need at least %.2fx.",
            r.at_least);
    return t;
  }

  // One timed run of the student's runner whose outputs are checked too. On failure returns
  // false with `why` set for the student.
  bool timed_student_run(const PartSpec& part, const DatasetDirs& d, const nlohmann::json& timing,
                         const std::string& out_name, RunOutcome& o, DatasetRow& row,
                         std::string& why) {
    const auto out = work_ / "timed" / part.name / out_name;
    const nlohmann::json graded = graded_policy(timing);
    const std::vector<DatasetDirs>& samples = timing_samples(d, timing);
    o = run_runner(sandbox_, paths_, student_.runner, o_.backend, part, d, out, true, graded,
                   RunLimit::clock(o_.timed_run_timeout_s), {}, samples);
    if (!o.ran) {
      row.result = "error";
      why = "Not timed: " + o.message;
      return false;
    }
    if (const std::string problem = timing_record_problem(o.result, graded); !problem.empty()) {
      row.result = "error";
      why = "Not timed: the timed run's record is not one gpulab's timing writes (" + problem +
            "). Does your code write result.json?";
      return false;
    }
    const CheckResult c = check_outputs(lab_, part, d, out, false);
    row.err_over_bound = std::max(row.err_over_bound, c.max_err_over_bound);
    if (!c.pass) {
      row.result = "FAIL";
      why = "The outputs of the timed run are wrong, so no timed points:\n" + c.message;
      return false;
    }
    // Every timed call saw inputs of its own, never seen before: a result kept from an earlier
    // call, or worked out only for some calls, is wrong here.
    const CheckResult sc = check_sample_outputs(lab_, part, samples, out);
    row.err_over_bound = std::max(row.err_over_bound, sc.max_err_over_bound);
    if (!sc.pass) {
      row.result = "FAIL";
      why =
          "The outputs of timed calls are wrong, so no timed points. Each timed call gets "
          "inputs of its own, none seen before, and every one's outputs are checked: a "
          "result kept from an earlier call, or computed only for some calls, fails here.\n" +
          sc.message;
      return false;
    }
    return true;
  }

  // One timed run of the lab's baseline (baseline_runner: no student code) on `d`; its median.
  // The baseline is trusted code, timed in its process by the runner's own loop (bench's), so it
  // gets no samples of its own to ask for.
  double timed_baseline_run(const PartSpec& part, const DatasetDirs& d,
                            const nlohmann::json& timing) {
    const RunOutcome o = run_runner(sandbox_, paths_, baseline_runner(), o_.backend, part, d,
                                    work_ / "timed" / part.name / "baseline", true, timing,
                                    RunLimit::clock(o_.timed_run_timeout_s), {kTimeBaselineFlag});
    if (!o.ran) throw std::runtime_error("the lab's baseline failed its timed run: " + o.message);
    if (!o.result.contains("baseline"))
      throw std::runtime_error("the runner of " + part.name +
                               " timed no baseline, though the rubric gives speedup points");
    return timing_median(o.result["baseline"]);
  }

  // Times the student's code on the scalability pair, alternating the two datasets, and scores
  // the growth of the time per work unit (the median over rounds of large over small).
  std::string time_scalability(const PartSpec& part, Test& t, Report& report) {
    const ScalabilityRubric& r = lab_.rubric.at(part.name).scalability;
    const nlohmann::json timing = lab_.timing_for(part);
    const int rounds = std::max(1, timing.value("rounds", 3));
    const GroupSpec* groups[2] = {nullptr, nullptr};
    const DatasetSpec* specs[2] = {lab_.timing_dataset(r.small, part.name, &groups[0]),
                                   lab_.timing_dataset(r.large, part.name, &groups[1])};
    const DatasetDirs dirs[2] = {dataset(*groups[0], *specs[0]), dataset(*groups[1], *specs[1])};
    std::vector<double> per_unit[2], ms[2], growth;
    DatasetRow rows[2] = {{part.name, specs[0]->name, "pass", 0, -1, -1, -1},
                          {part.name, specs[1]->name, "pass", 0, -1, -1, -1}};
    for (int round = 0; round < rounds; ++round) {
      double this_round[2] = {0, 0};
      for (int n = 0; n < 2; ++n) {
        const int k = (n == 0) == (round % 2 == 0) ? 0 : 1;
        log_ << "  timing your " << part.name << " on " << specs[k]->name << " (round " << round + 1
             << " of " << rounds << ")\n";
        RunOutcome o;
        std::string why;
        if (!timed_student_run(part, dirs[k], timing, specs[k]->name, o, rows[k], why)) {
          report.rows.push_back(rows[k]);
          return why;
        }
        const double work = o.result.value("work", 0.0);
        if (!(work > 0))
          throw std::runtime_error("the runner of " + part.name + " reports no work on " +
                                   specs[k]->name + ", so time per unit is undefined");
        ms[k].push_back(timing_median(o));
        if (const double least = floor_ms(part, timing, work); ms[k].back() < least) {
          t.extra = {{"implausible", true}};
          report.rows.push_back(rows[k]);
          return "Your time on " + specs[k]->name +
                 fmt(", %.4g ms, is less than the hardware needs for this work (%.4g ms), so "
                     "the timing is rejected as implausible.",
                     ms[k].back(), least);
        }
        this_round[k] = ms[k].back() / work;
        per_unit[k].push_back(this_round[k]);
      }
      growth.push_back(this_round[1] / this_round[0]);
    }
    for (int k = 0; k < 2; ++k) {  // the terminal table's rows: the student's median times
      rows[k].student_ms = median(ms[k]);
      report.rows.push_back(rows[k]);
    }
    const std::string unit = lab_.timing.value("work_unit", std::string("work unit"));
    const double g = median(growth);
    t.passed = g <= r.max_growth;
    t.score = t.passed ? t.max_score : 0;
    t.extra = {{"growth", g},
               {"small_ns_per_unit", median(per_unit[0]) * 1e6},
               {"large_ns_per_unit", median(per_unit[1]) * 1e6},
               {"max_growth", r.max_growth}};
    return "Your time per unit of work (" + unit +
           "): " + fmt("%.4g ns on ", median(per_unit[0]) * 1e6) + r.small +
           fmt(", %.4g ns on ", median(per_unit[1]) * 1e6) + r.large +
           fmt(": it grows %.3fx (the median over %.0f rounds). ", g,
               static_cast<double>(growth.size())) +
           fmt(t.passed ? "At most %.2fx earns these points: your code scales with the data."
                        : "These points need at most %.2fx: does the work per point still grow "
                          "with the size of the input?",
               r.max_growth);
  }

  // The least time the hardware needs for `work` units of the part: lab.json's throughput
  // ceiling, with its slack; 0 where the lab gives no ceiling.
  double floor_ms(const PartSpec& part, const nlohmann::json& timing, double work) const {
    const double ceiling = lab_.ceiling_per_s(part);
    if (!(ceiling > 0) || !(work > 0)) return 0;
    return work / (ceiling * timing.value("floor_slack", 1.5)) * 1e3;
  }

  // Alternates student and reference timed runs (S R R S S R ..., with a baseline B S R R S B
  // ...: round_order) so slow drifts of the machine hit both alike. The score uses the median
  // over rounds of the ratio within each round: a round's runs are adjacent in time, so a busy
  // spell of the machine lasting a few seconds moves a round's times together, and the median
  // drops the round it split.
  // (On the H100 host, 20 runs of the same CPU code spread 20% while adjacent pairs agreed:
  // docs/PERF.md.)
  std::string time_part(const PartSpec& part, const GroupSpec& g, const DatasetSpec& ds, Test& t,
                        Report& report, std::vector<double>* baseline) {
    const DatasetDirs d = dataset(g, ds);
    const nlohmann::json timing = lab_.timing_for(part);
    const int rounds = std::max(1, timing.value("rounds", 3));
    std::vector<double> student, reference;
    DatasetRow row{part.name, ds.name, "pass", 0, -1, -1, -1};
    double work = 0, reference_work = 0;
    const bool with_reference = reference_available();
    for (int r = 0; r < rounds; ++r) {
      for (const Timed who : round_order(r, with_reference, baseline != nullptr)) {
        const char* whose = who == Timed::student     ? "your "
                            : who == Timed::reference ? "reference "
                                                      : "the baseline for ";
        log_ << "  timing " << whose << part.name << " on " << ds.name << " (round " << r + 1
             << " of " << rounds << ")\n";
        if (who == Timed::baseline) {
          baseline->push_back(timed_baseline_run(part, d, timing));
          continue;
        }
        RunOutcome o;
        if (who == Timed::reference) {
          o = run_runner(sandbox_, paths_, reference_runner(), o_.backend, part, d,
                         work_ / "timed" / part.name / "reference", true, graded_policy(timing),
                         RunLimit::clock(o_.timed_run_timeout_s), {}, timing_samples(d, timing));
          if (!o.ran) throw std::runtime_error("the reference failed its timed run: " + o.message);
          reference.push_back(timing_median(o));
          reference_work = o.result.value("work", 0.0);
          continue;
        }
        std::string why;
        if (!timed_student_run(part, d, timing, "student", o, row, why)) {
          report.rows.push_back(row);
          return why;
        }
        student.push_back(timing_median(o));
        work = o.result.value("work", 0.0);
      }
    }
    if (!with_reference) {
      row.student_ms = median(student);
      report.rows.push_back(row);
      t.max_score = 0;
      t.extra = {{"student_ms", row.student_ms}, {"work", work}, {"student_samples_ms", student}};
      return fmt(
          "Your median time %.4g ms. There is no reference solution here (the student kit "
          "has none), so no time ratio: these points are left out, and given when your "
          "submission is graded.",
          row.student_ms);
    }
    const double s = median(student), ref = median(reference);
    const double ratio = median_round_ratio(student, reference);
    row.student_ms = s;
    row.reference_ms = ref;
    row.ratio = ratio;
    report.rows.push_back(row);
    t.extra = {
        {"student_ms", s}, {"reference_ms", ref},           {"ratio", ratio},
        {"work", work},    {"student_samples_ms", student}, {"reference_samples_ms", reference}};
    report.leaderboard.push_back({part.name + " time (ms)", s, "asc"});
    std::string out =
        fmt("Your median time %.4g ms, the reference's %.4g ms. ", s, ref) +
        fmt("Your time over the reference's, timed one after the other in %.0f rounds, is %.3f "
            "(the median over rounds). ",
            static_cast<double>(student.size()), ratio);
    // The floor counts the work the reference's run reported: the student's runner reports it
    // from the student's process, and the two runs did the same dataset.
    if (const double least = floor_ms(part, timing, reference_work > 0 ? reference_work : work);
        s < least || (reference_work > 0 && work != reference_work)) {
      t.score = 0;
      t.extra["implausible"] = true;
      if (reference_work > 0 && work != reference_work)
        return out +
               "Your timed run reported other work than the reference's on the same "
               "dataset, so the timing is rejected as implausible.";
      return out + fmt("That is faster than the hardware can do this work (floor %.4g ms), so "
                       "the timing is rejected as implausible.",
                       least);
    }
    const double f = lab_.curve.fraction(ratio);
    t.score = f * t.max_score;
    t.passed = f >= 1;
    out += fmt("Full points at a ratio of %.2f or less; this earns %.0f%% of them.",
               lab_.curve.full_at_ratio, 100 * f);
    return out;
  }

  const GradeOptions& o_;
  std::ostream& log_;
  Paths paths_;
  LabConfig lab_;
  DeviceInfo device_;
  std::string hidden_seed_;
  Sandbox sandbox_;
  std::filesystem::path work_, reference_, baseline_;
  std::string reference_build_;                              // reference_build(), once known
  std::map<std::string, std::vector<DatasetDirs>> samples_;  // timing_samples(), by dataset
  bool remove_work_ = false;
  BuildResult student_;
};

}  // namespace

Report grade(const GradeOptions& options, std::ostream& log) {
  Report report;
  try {
    Grading g(options, log);
    g.run(report);
  } catch (const std::exception& e) {
    report.grader_error = e.what();
  } catch (const Stopped& s) {  // the tests finished before it stay
    report.stopped_by = s.signal;
  }
  return report;
}

Report stopped_report(const GradeOptions& options, int signal) {
  Report report;
  report.stopped_by = signal;
  report.environment = {
      {"version", GPULAB_VERSION}, {"lab", options.lab}, {"backend", options.backend}};
  return report;
}

}  // namespace gpulab
