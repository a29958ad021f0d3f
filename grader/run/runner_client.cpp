#include "run/runner_client.h"

#include <optional>

#include "core/grade_phases.h"
#include "data/sample_stage.h"
#include "files/random_bytes.h"
#include "files/remove_tree.h"
#include "files/secret.h"
#include "run/sim_report.h"
#include "runner_protocol.h"
#include "sample_protocol.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

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

}  // namespace

std::vector<std::string> runner_command(const std::string& runner, const std::string& part,
                                        const std::string& dataset) {
  return {runner, kPartOption, part, kDatasetOption, dataset};
}

std::vector<std::string> timing_arguments(const TimingPolicy& policy, const char* mode) {
  return {mode, kTimingOption, nlohmann::json(policy).dump()};
}

std::set<std::string> output_names(const PartSpec& part, int samples) {
  std::set<std::string> names;
  for (const auto& o : part.outputs) {
    for (const std::string& prefix :
         {std::string(), std::string(kRepeatPrefix), std::string("timed_")})
      names.insert(prefix + o);
    for (int k = 1; k <= samples; ++k) names.insert(sample_output_prefix(k) + o);
  }
  return names;
}

std::string run_failure(const ProcessResult& p, const RunLimit& limit) {
  return "the run " + limit.describe(p) + "." + output_tail(p);
}

RunOutcome run_runner(const RunPlace& place, const RunRequest& run) {
  const Sandbox& sandbox = place.sandbox;
  const Paths& paths = place.paths;
  const Backend backend = place.backend;
  const std::filesystem::path& runner = run.runner;
  const PartSpec& part = run.part;
  const DatasetDirs& ds = run.dataset;
  const std::filesystem::path& collected_out_dir = run.out_dir;
  const RunLimit& limit = run.limit;
  const std::vector<std::string>& flags = run.flags;
  const std::vector<DatasetDirs>& samples = run.samples;
  const RunWrapper& wrapper = run.wrapper;
  RunOutcome o;
  std::optional<ScopedPhase> staging(GradePhase::kStaging);
  const StagedRun staged = sandbox.stage_run(runner, ds.input, collected_out_dir);
  const std::filesystem::path& out_dir = staged.out;  // while it runs
  const bool sim = backend == Backend::sim;
  SandboxSpec box = run_sandbox(paths, staged.runner, staged.input, out_dir, !sim && part.gpu);
  if (!wrapper.prefix.empty()) {
    box.no_new_processes = false;  // the wrapper starts the runner
    for (const auto& dir : wrapper.read_only) box.mounts.push_back({dir, dir, false, true});
    box.system = SystemView::whole;  // the toolkit's libraries for the tool; never scored
  }
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
  staging.reset();
  const auto inside = [&](const std::filesystem::path& p) {
    return sandbox.inside(box, p).string();
  };
  std::vector<std::string> argv =
      runner_command(inside(staged.runner), part.name, inside(staged.input));
  if (run.timing) {
    const auto timed = timing_arguments(*run.timing);
    argv.insert(argv.end(), timed.begin(), timed.end());
  }
  argv.insert(argv.end(), flags.begin(), flags.end());  // runner_flags.h's
  if (stage)
    argv.insert(argv.end(), {kSamplesOption, std::to_string(samples.size()), kSamplesDirOption,
                             inside(samples_dir)});
  argv.insert(argv.begin(), wrapper.prefix.begin(), wrapper.prefix.end());
  const size_t file_limit = output_file_limit(part, ds);
  RunChannel channel(output_names(part, static_cast<int>(samples.size())), file_limit,
                     stage ? &*stage : nullptr);
  ProcessOptions po;
  po.argv = argv;
  po.cwd = out_dir;
  po.timeout_s = limit.wall_s;
  po.output_limit = 16 * 1024;
  po.cpu_limit_s = limit.cpu_s;
  po.file_size_limit = file_limit;
  po.env = part.runner_env();
  po.channel_fd = kChannelFd;
  po.on_message = [&](ChannelMessage& m) { return channel.on_message(m); };
  po.cancel = run.cancel;
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
  staging.emplace(GradePhase::kStaging);
  collect_output(staged);
  // Nothing in the run's working folder is read, but a tool's log (sanitizer_runs.h): whatever
  // the run left there goes now, not at the end of the grading.
  if (wrapper.prefix.empty()) remove_tree(collected_out_dir);
  if (stage) remove_tree(samples_dir);
  staging.reset();
  o.process = p;
  o.timed_out = limit.stopped(p);
  o.outputs = channel.outputs();
  o.samples = channel.samples();
  o.result = channel.record();
  const std::string status = o.result.is_object() ? o.result.value("status", "") : "";
  const bool ok = p.ok() && status == runner_status(RunnerExit::ok);
  const SimReport sim_report = sim ? read_sim_findings(p, sim_key, ok) : SimReport{};
  o.sim_findings = sim_report.findings;
  if (!channel.problem().empty()) {
    o.message = "your run failed: " + channel.problem();
    return o;
  }
  if (ok) {
    o.ran = sim_report.problem.empty();
    o.message = sim_report.problem;
    return o;
  }
  // The runner rejects a command line it does not understand (RunnerExit::usage): our fault,
  // not the student's. Student code can exit with that code too, but sends no such record.
  if (p.exit_code == exit_code(RunnerExit::usage) && !p.timed_out &&
      status == runner_status(RunnerExit::usage))
    throw std::runtime_error("the runner " + runner.string() +
                             " rejected its arguments: " + o.result.value("message", p.output));
  if (status == runner_status(RunnerExit::no_gpu)) {
    o.no_gpu = true;
    o.message = o.result.value("message", "no GPU");
    return o;
  }
  if (o.result.is_object() && o.result.contains("message") && !p.timed_out && p.signal == 0)
    o.message = "your code failed: " + o.result["message"].get<std::string>() + output_tail(p);
  else if (o.result.is_null() && p.ok())
    o.message = "the run " + p.describe() +
                " before handing gpulab its record: did your code end the program itself, or "
                "close or replace gpulab's descriptor " +
                std::to_string(kChannelFd) + "?" + output_tail(p);
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

}  // namespace gpulab
