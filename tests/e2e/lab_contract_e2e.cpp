// lab.json against the programs that read it: every built runner lists the parts its lab.json
// names (GPULAB_PART and lab.json agree on names and devices), and `gpulab bench` hands a part
// the timing policy of its own kind (a CPU part's, not the GPU parts').
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

#include "e2e_util.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/process.h"
#include "runner_protocol.h"

namespace {

using namespace e2e;
using gpulab::LabConfig;

// What `runner --list --json` prints, as {name: device}.
std::map<std::string, std::string> listed_parts(const fs::path& runner) {
  gpulab::ProcessOptions po;
  po.argv = {runner.string(), gpulab::kListFlag, gpulab::kJsonFlag};
  po.timeout_s = 30;
  const gpulab::ProcessResult p = gpulab::run_process(po);
  REQUIRE_MESSAGE(p.ok(), runner << " --list --json " << p.describe() << "\n" << p.output);
  std::map<std::string, std::string> parts;
  for (const auto& part : json::parse(p.output)) parts[part["name"]] = part["device"];
  return parts;
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("every built runner lists the parts of its lab.json, by name and device") {
    const gpulab::Paths paths = gpulab::Paths::current();
    size_t runners = 0;
    for (const auto& file : gpulab::find_lab_files(kSource)) {
      const LabConfig lab = LabConfig::load(file);
      std::map<std::string, std::string> expected;
      for (const auto& part : lab.parts) expected[part.name] = part.gpu ? "gpu" : "cpu";
      for (const gpulab::Backend backend : {gpulab::Backend::cuda, gpulab::Backend::sim})
        for (const fs::path& runner :
             {paths.reference_runner(lab.id, backend), paths.stub_runner(lab.id, backend)}) {
          if (!fs::exists(runner)) continue;  // a build without CUDA runners, or without the sim
          CAPTURE(runner);
          CHECK(listed_parts(runner) == expected);
          ++runners;
        }
    }
    CHECK_MESSAGE(runners >= gpulab::find_lab_files(kSource).size(), "no runners found under "
                                                                         << paths.build / "runners"
                                                                         << ": build gpulab first");
  }

  // The runner here is a probe: it keeps the timing policy it was given in its working folder
  // and sends the grader's channel a record, as a runner does (harness/channel_protocol.h).
  TEST_CASE("gpulab bench times a CPU part by the CPU parts' timing policy") {
    const fs::path dir = scratch("bench-cpu-policy");
    const fs::path probe = dir / "probe-runner";
    std::ofstream(probe)
        << ("#!/usr/bin/env python3\n"
            "import json, socket, sys\n"
            "args = sys.argv[1:]\n"
            "policy = json.loads(args[args.index('--timing') + 1])\n"
            "open('policy.json', 'w').write(json.dumps(policy))\n"
            "t = {'median_ms': 1, 'rel_se': 0, 'clock': 'probe'}\n"
            "record = {'status': 'ok', 'work': 1, 'timing': t,\n"
            "          'baseline': {'timing': t}}\n"
            "socket.socket(fileno=3).send(json.dumps({'record': record}).encode())\n");
    REQUIRE(chmod(probe.c_str(), 0755) == 0);
    gpulab::ProcessOptions po;
    po.argv = {GPULAB_TEST_BINARY, "bench",    "scatter-gather", "--part",
               "cpu_fast",         "--runner", probe.string()};
    po.cwd = dir;
    po.timeout_s = 300;
    po.env = {"GPULAB_CACHE_DIR=" + (dir / "cache").string()};
    const gpulab::ProcessResult p = gpulab::run_process(po);
    INFO(p.output);
    REQUIRE(p.ok());
    const LabConfig lab = LabConfig::load(kSource / "labs" / "scatter-gather" / "lab.json");
    const gpulab::PartSpec& part = *lab.part("cpu_fast");
    REQUIRE_FALSE(part.gpu);
    const gpulab::TimingPolicy& want = lab.timing_for(part).policy;
    // The lab gives its CPU parts settings of their own: a GPU part's policy would fail below.
    REQUIRE(want.max_samples != lab.timing.gpu.policy.max_samples);
    const fs::path bench = dir / "cache" / "bench" / "scatter-gather";
    for (const fs::path& out : {bench / "cpu_fast", bench / "cpu_fast-baseline"}) {
      CAPTURE(out);
      // Read as the runner reads it (runner_main.cpp).
      const gpulab::TimingPolicy got =
          gpulab::TimingPolicy::from_json(json::parse(std::ifstream(out / "policy.json")));
      CHECK(json(got) == json(want));
    }
  }
}
