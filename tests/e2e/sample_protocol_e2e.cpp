// The graded timed run's protocol (harness/sample_protocol.h, grader/data/sample_stage.h) through
// every part of every lab: the reference runner built for the CPU backend asks for its samples
// over its channel (grader/run/run_channel.h), the grader's SampleStage hands them over, each
// sample ends with its times, and each sample's outputs check against that sample's dataset. On a
// GPU the same drivers run the same code with CUDA's clock; here they prove that every driver takes
// its inputs anew for each sample.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <memory>

#include "data/check.h"
#include "data/dataset_store.h"
#include "data/sample_stage.h"
#include "e2e_util.h"
#include "files/content_hash.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/process.h"
#include "run/run_channel.h"
#include "run/runner_client.h"
#include "runner_flags.h"
#include "sample_protocol.h"

namespace {

using namespace e2e;

// The part's first public dataset on the CPU backend: small, so the sim runs it quickly.
const gpulab::DatasetSpec* small_dataset(const gpulab::LabConfig& lab, const std::string& part,
                                         const gpulab::GroupSpec** group) {
  for (const auto& g : lab.groups) {
    if (g.timing || g.hidden || !g.on_backend(gpulab::Backend::sim)) continue;
    for (const auto& ds : g.datasets)
      if (ds.applies_to(part)) {
        *group = &g;
        return &ds;
      }
  }
  return nullptr;
}

// One graded timed run of the part's reference runner on `base` with two `samples`, and
// `flags` besides; its folder under `root`, as the grader would make it. Not `timed`: the run
// under compute-sanitizer of a group's picked datasets (grader/grade/sanitizer_runs.h), which
// hands the others over as samples with no timing asked for.
struct SampledRun {
  gpulab::ProcessResult process;
  std::unique_ptr<gpulab::SampleStage> stage;
  std::unique_ptr<gpulab::RunChannel> channel;
};
// `sample_parts`: each sample's part, where they are other parts' datasets (under a tool only).
SampledRun run_sampled(const gpulab::LabConfig& lab, const gpulab::PartSpec& part,
                       const gpulab::DatasetDirs& base,
                       const std::vector<gpulab::DatasetDirs>& samples, const fs::path& root,
                       const std::vector<std::string>& flags, bool timed = true,
                       const std::vector<const gpulab::PartSpec*>& sample_parts = {}) {
  const fs::path work = root / "work";
  fs::create_directories(work);
  SampledRun r;
  r.stage = std::make_unique<gpulab::SampleStage>(root / "samples", samples);
  r.channel = std::make_unique<gpulab::RunChannel>(
      sample_parts.empty() ? gpulab::output_names(part, static_cast<int>(samples.size()))
                           : gpulab::output_names(part, sample_parts),
      size_t{1} << 30, r.stage.get());
  gpulab::ProcessOptions po;
  po.argv = {gpulab::Paths::current().reference_runner(lab.id, gpulab::Backend::sim).string(),
             "--part",
             part.name,
             "--dataset",
             base.input.string(),
             gpulab::kSamplesOption,
             std::to_string(samples.size()),
             gpulab::kSamplesDirOption,
             (root / "samples").string()};
  if (!sample_parts.empty()) {
    std::string names;
    for (const gpulab::PartSpec* p : sample_parts) names += (names.empty() ? "" : ",") + p->name;
    po.argv.insert(po.argv.end(), {gpulab::kSamplePartsOption, names});
  }
  if (timed) po.argv.insert(po.argv.end(), {"--time", "--timing", R"({"warmup": 1})"});
  po.argv.insert(po.argv.end(), flags.begin(), flags.end());
  po.cwd = work;
  po.timeout_s = 300;
  po.channel_fd = gpulab::kChannelFd;
  po.on_message = [&](gpulab::ChannelMessage& m) { return r.channel->on_message(m); };
  r.process = gpulab::run_process(po);
  return r;
}

void check_protocol(const gpulab::LabConfig& lab, const gpulab::PartSpec& part,
                    const fs::path& cache, bool reference_runs) {
  const gpulab::GroupSpec* g = nullptr;
  const gpulab::DatasetSpec* spec = small_dataset(lab, part.name, &g);
  REQUIRE(spec != nullptr);
  const gpulab::DatasetDirs base = gpulab::materialize(lab, *g, *spec, "7", cache);
  // Two samples of their own (other seeds), as the grader makes them.
  std::vector<gpulab::DatasetDirs> samples;
  for (int k = 1; k <= 2; ++k) {
    gpulab::DatasetSpec s = *spec;
    s.name = spec->name + ".sample-" + std::to_string(k);
    s.seed = 1000 + k;
    samples.push_back(gpulab::materialize(lab, *g, s, "7", cache));
  }
  const fs::path root = scratch("samples-" + lab.id + "-" + part.name);
  const fs::path work = root / "work";
  SampledRun run = run_sampled(lab, part, base, samples, root, {});
  const gpulab::ProcessResult& p = run.process;
  const gpulab::SampleStage& stage = *run.stage;
  const gpulab::RunChannel& channel = *run.channel;
  REQUIRE_MESSAGE(p.ok(), p.describe() << "\n" << p.output);
  CHECK_MESSAGE(channel.problem().empty(), channel.problem());
  CHECK(stage.handed_over() == 2);
  CHECK(channel.record().at("timing").at("samples_ms").size() == 2);
  REQUIRE(channel.samples().size() == 2);
  for (const gpulab::SampleClock& c : channel.samples()) {
    // The window the grader saw holds the call the harness timed.
    CHECK(c.inside_ms > 0);
    CHECK(c.outside_wall_ms >= c.inside_ms * 0.9);
  }
  // The first call and the warmup only warm up: they hand over nothing; each sample hands over
  // its outputs.
  std::vector<std::string> wanted;
  for (int k = 1; k <= 2; ++k)
    for (const auto& o : part.outputs) wanted.push_back(gpulab::sample_output_prefix(k) + o);
  std::sort(wanted.begin(), wanted.end());
  CHECK(channel.outputs()->names() == wanted);
  // Nothing in the run's folder: everything went over the channel.
  CHECK(fs::is_empty(work));
  const gpulab::CheckResult each =
      gpulab::check_sample_outputs(lab, part, samples, *channel.outputs());
  CHECK_MESSAGE(each.pass, each.message);
  // Checked against the other sample's dataset, the outputs fail: they are each sample's own
  // (where the two expected outputs differ: an exclusive scan of one element is 0 in both).
  const std::string first_output = part.outputs.front() + ".npy";
  if (gpulab::content_hash(samples[0].expected / first_output) !=
      gpulab::content_hash(samples[1].expected / first_output)) {
    const std::vector<gpulab::DatasetDirs> swapped = {samples[1], samples[0]};
    CHECK_FALSE(gpulab::check_sample_outputs(lab, part, swapped, *channel.outputs()).pass);
  }
  fs::remove_all(root);

  // A batch of correctness datasets (grader/grade/correctness_batch.h): the run's own dataset,
  // then the samples, each called as a first call is and none timed, every call's outputs handed
  // over (the first's as they are, sample k's as sample<k>_<output>), each its own dataset's.
  const SampledRun batch = run_sampled(lab, part, base, samples, root, {gpulab::kBatchFlag}, false);
  REQUIRE_MESSAGE(batch.process.ok(), batch.process.describe() << "\n" << batch.process.output);
  CHECK_MESSAGE(batch.channel->problem().empty(), batch.channel->problem());
  CHECK(batch.stage->handed_over() == 2);
  CHECK(batch.channel->samples().size() == 2);
  CHECK(batch.channel->record().at("status") == "ok");
  CHECK_FALSE(batch.channel->record().contains("timing"));
  std::vector<std::string> every_call = wanted;
  every_call.insert(every_call.end(), part.outputs.begin(), part.outputs.end());
  std::sort(every_call.begin(), every_call.end());
  CHECK(batch.channel->outputs()->names() == every_call);
  const gpulab::CheckResult first = gpulab::check_outputs(
      lab, part, base, *batch.channel->outputs()->renamed("", part.outputs), false);
  CHECK_MESSAGE(first.pass, first.message);
  const gpulab::CheckResult later =
      gpulab::check_sample_outputs(lab, part, samples, *batch.channel->outputs());
  CHECK_MESSAGE(later.pass, later.message);
  fs::remove_all(root);
  if (!reference_runs) return;
  // A batch is never timed, nor a tool's run: the runner refuses both.
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{gpulab::kBatchFlag, gpulab::kUnderToolFlag},
        std::vector<std::string>{gpulab::kBatchFlag}}) {
    const SampledRun refused =
        run_sampled(lab, part, base, samples, root, flags, flags.size() == 1);
    CHECK(refused.process.exit_code == gpulab::exit_code(gpulab::RunnerExit::usage));
    CHECK(refused.stage->handed_over() == 0);
    fs::remove_all(root);
  }

  // The reference's timed runs (grader/grade/timed_tests.cpp): the same samples, times and outputs,
  // its inputs unchecked after its calls.
  const SampledRun trusted = run_sampled(lab, part, base, samples, root, {gpulab::kReferenceFlag});
  REQUIRE_MESSAGE(trusted.process.ok(), trusted.process.describe() << "\n"
                                                                   << trusted.process.output);
  CHECK_MESSAGE(trusted.channel->problem().empty(), trusted.channel->problem());
  CHECK(trusted.stage->handed_over() == 2);
  CHECK(trusted.channel->samples().size() == 2);
  CHECK(trusted.channel->outputs()->names() == wanted);
  fs::remove_all(root);

  // Under a tool: the picked datasets in one process, the others as samples, not timed.
  const SampledRun tool =
      run_sampled(lab, part, base, samples, root, {gpulab::kUnderToolFlag}, false);
  REQUIRE_MESSAGE(tool.process.ok(), tool.process.describe() << "\n" << tool.process.output);
  CHECK_MESSAGE(tool.channel->problem().empty(), tool.channel->problem());
  CHECK(tool.stage->handed_over() == 2);
  CHECK(tool.channel->record().at("status") == "ok");
  fs::remove_all(root);
}

// Under a tool, one process of the lab's first part takes every other part's small dataset as
// its samples (grader/grade/sanitizer_runs.h, the grading's runs): each is run by its own part,
// whose outputs it hands over. The runner refuses a part
// it does not have, a count that is not the samples', and the option outside a tool.
void check_parts_together(const gpulab::LabConfig& lab, const fs::path& cache) {
  const gpulab::PartSpec& first = lab.parts.front();
  std::vector<gpulab::DatasetDirs> samples;
  std::vector<const gpulab::PartSpec*> parts;
  gpulab::DatasetDirs base;
  for (const auto& part : lab.parts) {
    if (part.gpu != first.gpu) continue;
    const gpulab::GroupSpec* g = nullptr;
    const gpulab::DatasetSpec* spec = small_dataset(lab, part.name, &g);
    REQUIRE(spec != nullptr);
    const gpulab::DatasetDirs d = gpulab::materialize(lab, *g, *spec, "7", cache);
    if (&part == &first) {
      base = d;
      continue;
    }
    samples.push_back(d);
    parts.push_back(&part);
  }
  if (parts.empty()) return;
  const fs::path root = scratch("samples-together-" + lab.id);
  const SampledRun tool =
      run_sampled(lab, first, base, samples, root, {gpulab::kUnderToolFlag}, false, parts);
  REQUIRE_MESSAGE(tool.process.ok(), tool.process.describe() << "\n" << tool.process.output);
  CHECK_MESSAGE(tool.channel->problem().empty(), tool.channel->problem());
  CHECK(tool.stage->handed_over() == static_cast<int>(samples.size()));
  CHECK(tool.channel->record().at("status") == "ok");
  // Each sample hands over its own part's outputs (the channel refuses any other name).
  std::vector<std::string> wanted;
  for (size_t k = 0; k < samples.size(); ++k)
    for (const auto& o : parts[k]->outputs)
      wanted.push_back(gpulab::sample_output_prefix(static_cast<int>(k) + 1) + o);
  std::sort(wanted.begin(), wanted.end());
  CHECK(tool.channel->outputs()->names() == wanted);
  fs::remove_all(root);
  // What the runner refuses: its own usage error, never a run.
  const auto refused = [&](const std::vector<const gpulab::PartSpec*>& named,
                           const std::vector<std::string>& flags) {
    const SampledRun r = run_sampled(lab, first, base, samples, root, flags, false, named);
    fs::remove_all(root);
    return r.process.exit_code == gpulab::exit_code(gpulab::RunnerExit::usage) &&
           r.stage->handed_over() == 0;
  };
  gpulab::PartSpec stranger = first;
  stranger.name = "no-such-part";
  std::vector<const gpulab::PartSpec*> wrong = parts;
  wrong.back() = &stranger;
  CHECK(refused(wrong, {gpulab::kUnderToolFlag}));
  CHECK(refused(parts, {}));  // outside a tool
  std::vector<const gpulab::PartSpec*> fewer = parts;
  fewer.push_back(parts.back());
  CHECK(refused(fewer, {gpulab::kUnderToolFlag}));
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("under a tool, one run takes every part's datasets, each run by its own part") {
    const fs::path cache = scratch("samples-together-cache");
    for (const auto& file : gpulab::find_lab_files(kSource)) {
      const gpulab::LabConfig lab = gpulab::LabConfig::load(file);
      INFO(lab.id);
      check_parts_together(lab, cache);
    }
    fs::remove_all(cache);
  }

  TEST_CASE("every part of every lab takes its timed samples one by one, each checked") {
    const fs::path cache = scratch("samples-cache");
    for (const auto& file : gpulab::find_lab_files(kSource)) {
      const gpulab::LabConfig lab = gpulab::LabConfig::load(file);
      for (const auto& part : lab.parts) {
        INFO(lab.id << " " << part.name);
        // The reference's own flags on each lab's first part: the same harness code serves all.
        check_protocol(lab, part, cache, &part == &lab.parts.front());
      }
    }
    fs::remove_all(cache);
  }
}
