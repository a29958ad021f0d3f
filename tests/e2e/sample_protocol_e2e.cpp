// The graded timed run's protocol (harness/sample_protocol.h, grader/sample_stage.h) through
// every part of every lab: the reference runner built for the CPU backend asks for its samples
// over its pipes, the grader's SampleStage hands them over, and each sample's outputs check
// against that sample's dataset. On a GPU the same drivers run the same code with CUDA's
// clock; here they prove that every driver takes its inputs anew for each sample.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "check.h"
#include "content_hash.h"
#include "dataset_store.h"
#include "e2e_util.h"
#include "lab_config.h"
#include "paths.h"
#include "process.h"
#include "runner_flags.h"
#include "sample_protocol.h"
#include "sample_stage.h"

namespace {

using namespace e2e;

// The part's first public dataset on the CPU backend: small, so the sim runs it quickly.
const gpulab::DatasetSpec* small_dataset(const gpulab::LabConfig& lab, const std::string& part,
                                         const gpulab::GroupSpec** group) {
  for (const auto& g : lab.groups) {
    if (g.timing || g.hidden || !g.on_backend("sim")) continue;
    for (const auto& ds : g.datasets)
      if (ds.applies_to(part)) {
        *group = &g;
        return &ds;
      }
  }
  return nullptr;
}

// `no_outputs`: the run is asked for none (runner_flags.h's kNoOutputsFlag, as the grader
// asks the reference's timed runs), and must write none, timing its samples all the same.
void check_protocol(const gpulab::LabConfig& lab, const gpulab::PartSpec& part,
                    const fs::path& cache, bool no_outputs) {
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
  const fs::path out = root / "out";
  fs::create_directories(out);
  gpulab::SampleStage stage(root / "samples", samples);
  gpulab::ProcessOptions po;
  po.argv = {gpulab::Paths::current().reference_runner(lab.id, "sim").string(),
             "--part",
             part.name,
             "--dataset",
             base.input.string(),
             "--out",
             out.string(),
             "--time",
             "--timing",
             R"({"warmup": 1})",
             gpulab::kSamplesOption,
             "2",
             gpulab::kSamplesDirOption,
             (root / "samples").string()};
  if (no_outputs) po.argv.push_back(gpulab::kNoOutputsFlag);
  po.timeout_s = 300;
  po.requests = {gpulab::kSampleRequestFd, gpulab::kSampleReplyFd};
  po.answer = [&](const std::string& line) { return stage.answer(line); };
  const gpulab::ProcessResult p = gpulab::run_process(po);
  REQUIRE_MESSAGE(p.ok(), p.describe() << "\n" << p.output);
  CHECK(stage.problem().empty());
  CHECK(stage.handed_over() == 2);
  const json result = json::parse(std::ifstream(out / "result.json"));
  CHECK(result.at("timing").at("samples_ms").size() == 2);
  // The first call and the warmup only warm up: they write nothing, and neither does a run
  // asked for no outputs.
  std::vector<std::string> written;
  for (const auto& e : fs::directory_iterator(out))
    if (e.path().extension() == ".npy") written.push_back(e.path().filename().string());
  std::sort(written.begin(), written.end());
  std::vector<std::string> wanted;
  for (int k = 1; k <= 2 && !no_outputs; ++k)
    for (const auto& o : part.outputs)
      wanted.push_back(gpulab::sample_output_prefix(k) + o + ".npy");
  std::sort(wanted.begin(), wanted.end());
  CHECK(written == wanted);
  if (no_outputs) {
    fs::remove_all(root);
    return;
  }
  const gpulab::CheckResult each = gpulab::check_sample_outputs(lab, part, samples, out);
  CHECK_MESSAGE(each.pass, each.message);
  // Checked against the other sample's dataset, the outputs fail: they are each sample's own
  // (where the two expected outputs differ: an exclusive scan of one element is 0 in both).
  const std::string first_output = part.outputs.front() + ".npy";
  if (gpulab::content_hash(samples[0].expected / first_output) !=
      gpulab::content_hash(samples[1].expected / first_output)) {
    const std::vector<gpulab::DatasetDirs> swapped = {samples[1], samples[0]};
    CHECK_FALSE(gpulab::check_sample_outputs(lab, part, swapped, out).pass);
  }
  fs::remove_all(root);
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("every part of every lab takes its timed samples one by one, each checked") {
    const fs::path cache = scratch("samples-cache");
    for (const auto& file : gpulab::find_lab_files(kSource)) {
      const gpulab::LabConfig lab = gpulab::LabConfig::load(file);
      for (const auto& part : lab.parts) {
        INFO(lab.id << " " << part.name);
        check_protocol(lab, part, cache, false);
      }
      check_protocol(lab, lab.parts.front(), cache, true);
    }
    fs::remove_all(cache);
  }
}
