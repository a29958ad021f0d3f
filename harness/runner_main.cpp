// The runner executable's main: one part, one dataset, one output directory.
//
//   runner --part NAME --dataset DIR --out DIR [--call-twice] [--time | --time-baseline]
//          [--timing JSON] [--samples N --samples-dir DIR] [--no-outputs] | --list [--json]
//
// --samples makes a graded timed run (sample_protocol.h): the first call and the warmup on the
// dataset, then N timed calls, each on inputs of its own that the grader hands over when asked;
// only the timed calls' outputs are written. --no-outputs writes none (a trusted runner's timed
// run, whose outputs nobody reads).
// --call-twice calls the student's function a second time and writes that call's outputs too;
// --time-baseline times only the lab's trusted baseline (result.json's "baseline") and never
// calls the student's function. The options, the exit codes and the result.json record this
// main speaks are the runner protocol (runner_protocol.h), where the grader takes them too.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>

#include "device.h"
#include "runner.h"
#include "runner_protocol.h"
#include "sample_protocol.h"

namespace {

int usage(const char* why) {
  std::fprintf(stderr,
               "runner: %s\nusage: runner --part NAME --dataset DIR --out DIR [%s] [--time | %s] "
               "[--timing JSON] [%s N %s DIR] [%s] | --list\n",
               why, gpulab::kCallTwiceFlag, gpulab::kTimeBaselineFlag, gpulab::kSamplesOption,
               gpulab::kSamplesDirOption, gpulab::kNoOutputsFlag);
  return gpulab::exit_code(gpulab::RunnerExit::usage);
}

void write_result(const std::filesystem::path& out_dir, const nlohmann::json& result) {
  std::ofstream out(out_dir / gpulab::kResultFile);
  // A message from student code may hold any bytes: invalid UTF-8 is replaced rather than
  // thrown on, so the record is still written.
  out << result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

// This process's CPU time so far, user and system, all its threads.
double cpu_seconds() {
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  return static_cast<double>(self.ru_utime.tv_sec + self.ru_stime.tv_sec) +
         static_cast<double>(self.ru_utime.tv_usec + self.ru_stime.tv_usec) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  std::string part_name, dataset_dir, out_dir, timing_json;
  std::string samples_dir;  // a graded timed run (sample_protocol.h): where samples appear
  int samples = 0;
  bool time = false, baseline = false, call_twice = false, no_outputs = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    if (a == gpulab::kListFlag) {
      const bool as_json = i + 1 < argc && std::string(argv[i + 1]) == gpulab::kJsonFlag;
      nlohmann::json parts = nlohmann::json::array();
      for (const auto& p : gpulab::all_parts()) {
        parts.push_back({{"name", p.name}, {"device", p.gpu ? "gpu" : "cpu"}});
        if (!as_json) std::printf("%s %s\n", p.name.c_str(), p.gpu ? "gpu" : "cpu");
      }
      if (as_json) std::printf("%s\n", parts.dump().c_str());
      return gpulab::exit_code(gpulab::RunnerExit::ok);
    } else if (a == gpulab::kTimeFlag) {
      time = true;
    } else if (a == gpulab::kTimeBaselineFlag) {
      baseline = true;
    } else if (a == gpulab::kCallTwiceFlag) {
      call_twice = true;
    } else if (a == gpulab::kNoOutputsFlag) {
      no_outputs = true;
    } else if (a == gpulab::kPartOption) {
      if (!value(part_name)) return usage("--part needs a value");
    } else if (a == gpulab::kDatasetOption) {
      if (!value(dataset_dir)) return usage("--dataset needs a value");
    } else if (a == gpulab::kOutOption) {
      if (!value(out_dir)) return usage("--out needs a value");
    } else if (a == gpulab::kTimingOption) {
      if (!value(timing_json)) return usage("--timing needs a value");
    } else if (a == gpulab::kSamplesOption) {
      std::string n;
      if (!value(n) || (samples = std::atoi(n.c_str())) < 1)
        return usage("--samples needs a count of at least 1");
    } else if (a == gpulab::kSamplesDirOption) {
      if (!value(samples_dir)) return usage("--samples-dir needs a value");
    } else {
      return usage(("unknown argument " + a).c_str());
    }
  }
  if (part_name.empty() || dataset_dir.empty() || out_dir.empty())
    return usage("--part, --dataset and --out are required");
  if ((samples > 0) != !samples_dir.empty())
    return usage("--samples and --samples-dir go together");

  using gpulab::RunnerExit;
  nlohmann::json result = {{"part", part_name},
                           {"dataset", dataset_dir},
                           {"status", gpulab::runner_status(RunnerExit::failed)}};
  std::filesystem::create_directories(out_dir);
  const gpulab::Part* part = gpulab::find_part(part_name);
  if (!part) {
    result["status"] = gpulab::runner_status(RunnerExit::usage);  // the grader's mistake
    result["message"] = "this lab has no part named '" + part_name + "'";
    write_result(out_dir, result);
    return gpulab::exit_code(RunnerExit::usage);
  }
  if (part->gpu) {
    const gpulab::DeviceInfo dev = gpulab::device_preflight();
    result["device"] = dev.to_json();
    if (!dev.usable) {
      result["status"] = gpulab::runner_status(RunnerExit::no_gpu);
      result["message"] = dev.problem;
      write_result(out_dir, result);
      std::fprintf(stderr, "runner: %s\n", dev.problem.c_str());
      return gpulab::exit_code(RunnerExit::no_gpu);
    }
  }
  try {
    gpulab::RunContext ctx{gpulab::Dataset::open(dataset_dir), out_dir, time || baseline, {}, {}};
    if (!timing_json.empty())
      ctx.policy = gpulab::TimingPolicy::from_json(nlohmann::json::parse(timing_json));
    ctx.time_baseline = baseline;
    ctx.call_twice = call_twice;
    ctx.result = result;
    ctx.result["outputs"] = nlohmann::json::array();
    ctx.write_outputs = !no_outputs;
    if (samples > 0) {  // the first call and the warmup here; the timed calls below
      ctx.time = false;
      ctx.warmup_calls = ctx.policy.warmup;
      ctx.write_outputs = false;  // they only warm up: every sample's outputs are checked
    }
    part->run(ctx);
    if (samples > 0) {
      ctx.warmup_calls = 0;
      ctx.write_outputs = !no_outputs;
      for (int k = 1; k <= samples; ++k) {
        ctx.dataset = gpulab::Dataset::open(gpulab::ask_for_sample(k, samples_dir));
        ctx.sample = k;
        part->run(ctx);
      }
      ctx.result["timing"] = gpulab::summarize_samples(
                                 ctx.sample_ms, part->gpu ? gpulab::kGpuClock : gpulab::kCpuClock)
                                 .to_json();
    }
    ctx.result[gpulab::kCpuSecondsKey] = cpu_seconds();
    ctx.result["status"] = gpulab::runner_status(RunnerExit::ok);
    write_result(out_dir, ctx.result);
    return gpulab::exit_code(RunnerExit::ok);
  } catch (const std::exception& e) {
    result["message"] = e.what();
    write_result(out_dir, result);
    std::fprintf(stderr, "runner: %s\n", e.what());
    return gpulab::exit_code(RunnerExit::failed);
  }
}
