#include "run/runner_client.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>

#include "core/grade_phases.h"
#include "data/sample_stage.h"
#include "files/random_bytes.h"
#include "files/remove_tree.h"
#include "files/secret.h"
#include "run/sim_report.h"
#include "runner_protocol.h"
#include "sample_protocol.h"
#include "text/joined_words.h"
#include "text/safe_text.h"

namespace gpulab {

namespace fs = std::filesystem;

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

OutputTurns output_names(const PartSpec& part, int samples) {
  return output_names(part, std::vector<const PartSpec*>(static_cast<size_t>(samples), &part));
}

OutputTurns output_names(const PartSpec& part, const std::vector<const PartSpec*>& sample_parts) {
  OutputTurns names;
  for (const auto& o : part.outputs)
    for (const std::string& prefix :
         {std::string(), std::string(kRepeatPrefix), std::string("timed_")})
      names.emplace(prefix + o, 0);
  for (size_t k = 1; k <= sample_parts.size(); ++k)
    for (const auto& o : sample_parts[k - 1]->outputs)
      names.emplace(sample_output_prefix(static_cast<int>(k)) + o, static_cast<int>(k));
  return names;
}

std::string run_failure(const ProcessResult& p, const RunLimit& limit) {
  return "the run " + limit.describe(p) + "." + output_tail(p);
}

namespace {

// The sandbox a run goes in: the runner, its input and output folders, the GPU where its part
// has one; a wrapper (a tool that starts the runner) gets what it needs.
SandboxSpec run_box(const RunPlace& place, const RunRequest& run, const StagedRun& staged) {
  const bool gpu = place.backend != Backend::sim && run.part.gpu;
  SandboxSpec box = run_sandbox(place.paths, staged.runner, staged.input, staged.out, gpu);
  if (!run.wrapper.prefix.empty()) {
    box.no_new_processes = false;  // the wrapper starts the runner
    for (const auto& dir : run.wrapper.read_only) box.mounts.push_back({dir, dir, false, true});
    box.system = SystemView::whole;  // the toolkit's libraries for the tool; never scored
  }
  return box;
}

// The runner's command line as it sees it (paths inside the sandbox): its part and dataset,
// timing, flags, the samples' folder where a timed run is handed them, behind the wrapper.
std::vector<std::string> runner_argv(const RunRequest& run, const StagedRun& staged,
                                     const std::function<std::string(const fs::path&)>& inside,
                                     const fs::path* samples_dir) {
  std::vector<std::string> argv =
      runner_command(inside(staged.runner), run.part.name, inside(staged.input));
  if (run.timing) {
    const auto timed = timing_arguments(*run.timing);
    argv.insert(argv.end(), timed.begin(), timed.end());
  }
  argv.insert(argv.end(), run.flags.begin(), run.flags.end());  // runner_flags.h's
  if (samples_dir)
    argv.insert(argv.end(), {kSamplesOption, std::to_string(run.samples.size()), kSamplesDirOption,
                             inside(*samples_dir)});
  if (samples_dir && run.batch) argv.push_back(kBatchFlag);
  if (samples_dir && !run.sample_parts.empty()) {
    std::vector<std::string> names;
    for (const PartSpec* p : run.sample_parts) names.push_back(p->name);
    argv.insert(argv.end(), {kSamplePartsOption, joined(names, ",")});
  }
  argv.insert(argv.begin(), run.wrapper.prefix.begin(), run.wrapper.prefix.end());
  return argv;
}

// The CPU backend's report: a pipe the runtime takes at start, and a key it repeats in its end
// record, which the run's own code cannot know (sim_report.h).
void add_sim_report(ProcessOptions& po, const DatasetDirs& ds, const std::string& key,
                    bool profile) {
  po.collect = {kSimReportFd, kSimReportLimit};
  po.env.push_back("GPULAB_SIM_REPORT_FD=" + std::to_string(kSimReportFd));
  po.env.push_back("GPULAB_SIM_REPORT_KEY=" + key);
  // Blocks in a shuffled order, as a GPU may run them: code that relies on block 0 going first
  // fails here too. Seeded by the dataset's name, so a regrade repeats the order; never by its
  // seed, which is drawn from the instructor's secret and not the run's to see.
  po.env.push_back("GPULAB_SIM_BLOCK_ORDER=shuffle");
  po.env.push_back("GPULAB_SIM_SEED=" + std::to_string(public_seed(ds.group + "/" + ds.name)));
  if (profile) po.env.push_back("GPULAB_SIM_PROFILE=1");
}

// Why a run that did not end well failed, in the words its reader needs; `status` is its
// record's. Throws where the runner refused its own command line: gpulab's fault, not theirs.
void explain_failure(RunOutcome& o, const ProcessResult& p, const RunRequest& run,
                     const std::string& status) {
  // Student code can exit with the usage code too, but sends no such record.
  if (p.exit_code == exit_code(RunnerExit::usage) && !p.timed_out &&
      status == runner_status(RunnerExit::usage))
    throw std::runtime_error("the runner " + run.runner.string() +
                             " rejected its arguments: " + o.result.value("message", p.output));
  if (status == runner_status(RunnerExit::no_gpu)) {
    o.no_gpu = true;
    o.message = o.result.value("message", "no GPU");
    return;
  }
  if (o.result.is_object() && o.result.contains("message") && !p.timed_out && p.signal == 0)
    o.message = "your code failed: " + o.result["message"].get<std::string>() + output_tail(p);
  else if (o.result.is_null() && p.ok())
    o.message = "the run " + p.describe() +
                " before handing gpulab its record: did your code end the program itself, or "
                "close or replace gpulab's descriptor " +
                std::to_string(kChannelFd) + "?" + output_tail(p);
  else
    o.message = run_failure(p, run.limit);
}

}  // namespace

RunOutcome run_runner(const RunPlace& place, const RunRequest& run) {
  const Sandbox& sandbox = place.sandbox;
  const PartSpec& part = run.part;
  const DatasetDirs& ds = run.dataset;
  const bool sim = place.backend == Backend::sim;
  RunOutcome o;
  std::optional<ScopedPhase> staging(GradePhase::kStaging);
  const StagedRun staged = sandbox.stage_run(run.runner, ds.input, run.out_dir);
  const fs::path& out_dir = staged.out;  // while it runs
  SandboxSpec box = run_box(place, run, staged);
  // A graded timed run: each sample's inputs are handed over when the run asks for them.
  std::optional<SampleStage> stage;
  const auto samples_dir = out_dir.parent_path() / (out_dir.filename().string() + ".samples");
  if (!run.samples.empty()) {
    // Linked from stand-ins on the staging's own file system: no copy of a large input per run.
    std::vector<DatasetDirs> staged_samples = run.samples;
    for (auto& sample : staged_samples) sample.input = sandbox.stage_input(sample.input);
    stage.emplace(samples_dir, staged_samples);
    box.mounts.push_back({samples_dir, RunPaths::samples, false, false});
  }
  staging.reset();
  const auto inside = [&](const fs::path& p) { return sandbox.inside(box, p).string(); };
  if (!run.sample_parts.empty() && run.sample_parts.size() != run.samples.size())
    throw std::logic_error("run_runner: one part per sample, or none");
  if (run.batch && run.samples.empty()) throw std::logic_error("run_runner: a batch of one");
  const std::vector<const PartSpec*> sample_parts =
      run.sample_parts.empty() ? std::vector<const PartSpec*>(run.samples.size(), &part)
                               : run.sample_parts;
  size_t file_limit = output_file_limit(part, ds);
  for (size_t k = 0; k < run.samples.size(); ++k)
    file_limit = std::max(file_limit, output_file_limit(*sample_parts[k], run.samples[k]));
  RunChannel channel(output_names(part, sample_parts), file_limit, stage ? &*stage : nullptr);
  ProcessOptions po;
  po.argv = runner_argv(run, staged, inside, stage ? &samples_dir : nullptr);
  po.cwd = out_dir;
  po.timeout_s = run.limit.wall_s;
  po.output_limit = 16 * 1024;
  po.cpu_limit_s = run.limit.cpu_s;
  po.file_size_limit = file_limit;
  po.env = part.runner_env();
  po.channel_fd = kChannelFd;
  // A batch's dataset has its own time on the clock, from its hand-over.
  std::atomic<double> timeout_s{run.limit.wall_s};
  po.on_message = [&](ChannelMessage& m) {
    const int handed = stage ? stage->handed_over() : 0;
    std::string reply = channel.on_message(m);
    if (run.batch && stage->handed_over() != handed)
      timeout_s = m.clock->wall_s() + run.limit.wall_s;
    return reply;
  };
  if (run.batch) po.moving_timeout_s = &timeout_s;
  po.cancel = run.cancel;
  const std::string sim_key = sim ? random_hex(16) : "";
  if (sim) add_sim_report(po, ds, sim_key, run.profile);
  const ProcessResult p = sandbox.run(po, box);
  staging.emplace(GradePhase::kStaging);
  collect_output(staged);
  // Nothing in the run's working folder is read, but a tool's log (sanitizer_runs.h): whatever
  // the run left there goes now, not at the end of the grading.
  if (run.wrapper.prefix.empty()) remove_tree(run.out_dir);
  if (stage) remove_tree(samples_dir);
  staging.reset();
  o.process = p;
  o.timed_out = run.limit.stopped(p);
  o.outputs = channel.outputs();
  o.samples = channel.samples();
  o.result = channel.record();
  const std::string status = o.result.is_object() ? o.result.value("status", "") : "";
  const bool ok = p.ok() && status == runner_status(RunnerExit::ok);
  const SimReport sim_report = sim ? read_sim_findings(p, sim_key, ok) : SimReport{};
  o.sim_findings = sim_report.findings;
  o.sim_costs = sim_report.costs;
  o.channel_problem = channel.problem();
  if (!channel.problem().empty()) {
    o.message = "your run failed: " + channel.problem();
  } else if (ok) {
    o.ran = sim_report.problem.empty();
    o.message = sim_report.problem;
  } else {
    explain_failure(o, p, run, status);
  }
  return o;
}

double timing_median(const nlohmann::json& result) {
  return result.contains("timing") ? result["timing"].value("median_ms", -1.0) : -1.0;
}
double timing_median(const RunOutcome& o) {
  return timing_median(o.result);
}

}  // namespace gpulab
