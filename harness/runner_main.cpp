// The runner executable's main: one part, one dataset (or, with --batch, several).
//
//   runner --part NAME --dataset DIR [--call-twice] [--time | --time-baseline] [--timing JSON]
//          [--samples N --samples-dir DIR [--sample-parts P,...] [--batch]] [--under-tool]
//          | --list [--json]
//
// Everything it produces goes to the grader over the grader's channel (grader_channel.h): each
// output as a sealed memory file as soon as it is final, and the record last; then the process
// ends with _exit, so that no exit handler or static destructor of the student's runs after the
// last call. --samples makes a graded timed run (sample_protocol.h): the first call and the
// warmup on the dataset, then N timed calls, each on inputs of its own that the grader hands over
// when asked; only the timed calls' outputs are handed over. With --batch the samples are more of
// the part's correctness datasets instead, each called as the first dataset is, untimed, every
// call's outputs handed over. Under a tool, --sample-parts names
// each sample's part, so that one process runs every part's datasets. --call-twice calls the
// student's function a second time and hands over that call's outputs too; --time-baseline times
// only the lab's trusted baseline (the record's "baseline") and never calls the student's function.
// The options, the exit codes and the record are the runner protocol (runner_protocol.h), where the
// grader takes them too.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <vector>

#include "backend_hooks.h"
#include "device.h"
#include "grader_channel.h"
#include "runner.h"
#include "runner_protocol.h"
#include "rusage_time.h"
#include "sample_protocol.h"
#include "student_call.h"

namespace {

// This process's CPU time so far, user and system, all its threads.
double cpu_seconds() {
  return gpulab::rusage_cpu_s(RUSAGE_SELF);
}

// The end of every run: the record to the grader, what the program printed flushed, the CPU
// backend's report finished, and _exit: no exit handler, no static destructor.
[[noreturn]] void finish(const nlohmann::json& record, gpulab::RunnerExit exit) {
  try {
    gpulab::GraderChannel::get().send_record(record);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "runner: %s\n", e.what());
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  if (gpulab::backend_hooks().finish) gpulab::backend_hooks().finish();
  _exit(gpulab::exit_code(exit));
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "runner: %s\nusage: runner --part NAME --dataset DIR [%s] [--time | %s] "
               "[--timing JSON] [%s N %s DIR [%s P,...] [%s]] [%s] [%s] | --list [--json]\n",
               why, gpulab::kCallTwiceFlag, gpulab::kTimeBaselineFlag, gpulab::kSamplesOption,
               gpulab::kSamplesDirOption, gpulab::kSamplePartsOption, gpulab::kBatchFlag,
               gpulab::kUnderToolFlag, gpulab::kReferenceFlag);
  // The grader reads the status: its own mistake, not the student's.
  finish({{"status", gpulab::runner_status(gpulab::RunnerExit::usage)}, {"message", why}},
         gpulab::RunnerExit::usage);
}

// Each sample's part: `names` (comma-separated, one per sample) where given, else `part`'s.
// Only under a tool, and only parts that run where `part` runs (its clock is the samples').
std::vector<const gpulab::Part*> sample_parts(const gpulab::Part& part, const std::string& names,
                                              int samples, bool under_tool) {
  if (names.empty()) return std::vector<const gpulab::Part*>(static_cast<size_t>(samples), &part);
  if (!under_tool) usage("--sample-parts goes with --under-tool only");
  std::vector<const gpulab::Part*> parts;
  std::istringstream list(names);
  for (std::string name; std::getline(list, name, ',');) {
    const gpulab::Part* p = gpulab::find_part(name);
    if (!p || p->gpu != part.gpu) {
      const std::string why = "--sample-parts: " + name +
                              " is no part of this lab that runs where " + part.name + " runs";
      usage(why.c_str());
    }
    parts.push_back(p);
  }
  if (parts.size() != static_cast<size_t>(samples))
    usage("--sample-parts names one part per sample");
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  std::string part_name, dataset_dir, timing_json;
  std::string samples_dir;        // a graded timed run (sample_protocol.h): where samples appear
  std::string sample_part_names;  // under a tool: each sample's part
  int samples = 0;
  bool time = false, baseline = false, call_twice = false, under_tool = false;
  bool reference = false, batch = false;
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
    } else if (a == gpulab::kUnderToolFlag) {
      under_tool = true;
    } else if (a == gpulab::kReferenceFlag) {
      reference = true;
    } else if (a == gpulab::kBatchFlag) {
      batch = true;
    } else if (a == gpulab::kPartOption) {
      if (!value(part_name)) usage("--part needs a value");
    } else if (a == gpulab::kDatasetOption) {
      if (!value(dataset_dir)) usage("--dataset needs a value");
    } else if (a == gpulab::kTimingOption) {
      if (!value(timing_json)) usage("--timing needs a value");
    } else if (a == gpulab::kSamplesOption) {
      std::string n;
      if (!value(n) || (samples = std::atoi(n.c_str())) < 1)
        usage("--samples needs a count of at least 1");
    } else if (a == gpulab::kSamplesDirOption) {
      if (!value(samples_dir)) usage("--samples-dir needs a value");
    } else if (a == gpulab::kSamplePartsOption) {
      if (!value(sample_part_names)) usage("--sample-parts needs a value");
    } else {
      usage(("unknown argument " + a).c_str());
    }
  }
  if (part_name.empty() || dataset_dir.empty()) usage("--part and --dataset are required");
  if ((samples > 0) != !samples_dir.empty()) usage("--samples and --samples-dir go together");
  if (samples == 0 && !sample_part_names.empty()) usage("--sample-parts goes with --samples");
  if (batch && (samples == 0 || time || baseline || call_twice || under_tool))
    usage(
        "--batch goes with --samples, and with none of --time, --time-baseline, --call-twice "
        "and --under-tool");

  using gpulab::RunnerExit;
  nlohmann::json result = {{"part", part_name},
                           {"dataset", dataset_dir},
                           {"status", gpulab::runner_status(RunnerExit::failed)}};
  const gpulab::Part* part = gpulab::find_part(part_name);
  if (!part) {
    result["status"] = gpulab::runner_status(RunnerExit::usage);  // the grader's mistake
    result["message"] = "this lab has no part named '" + part_name + "'";
    finish(result, RunnerExit::usage);
  }
  const std::vector<const gpulab::Part*> each_sample =
      sample_parts(*part, sample_part_names, samples, under_tool);
  try {
    gpulab::GraderChannel::get();  // there and the grader's, or no run
    if (part->gpu) {
      const gpulab::DeviceInfo dev = gpulab::device_preflight();
      result["device"] = dev.to_json();
      if (!dev.usable) {
        result["status"] = gpulab::runner_status(RunnerExit::no_gpu);
        result["message"] = dev.problem;
        std::fprintf(stderr, "runner: %s\n", dev.problem.c_str());
        finish(result, RunnerExit::no_gpu);
      }
    }
    gpulab::prepare_student_calls(part->gpu, !under_tool);
    gpulab::RunContext ctx{gpulab::Dataset::open(dataset_dir), time || baseline, {}, {}};
    if (!timing_json.empty())
      ctx.policy = gpulab::TimingPolicy::from_json(nlohmann::json::parse(timing_json));
    ctx.time_baseline = baseline;
    ctx.call_twice = call_twice;
    ctx.trusted = reference;
    ctx.result = result;
    ctx.result["outputs"] = nlohmann::json::array();
    ctx.batch = batch;
    if (samples > 0 && !batch) {  // the first call and the warmup here; the timed calls below
      ctx.time = false;
      ctx.warmup_calls = ctx.policy.warmup;
      ctx.write_outputs = false;  // they only warm up: every sample's outputs are checked
    }
    // Each of a batch's calls marked where the backend reports findings (backend_hooks.h).
    const auto begin_call = [&](int k) {
      if (batch && gpulab::backend_hooks().begin_call) gpulab::backend_hooks().begin_call(k);
    };
    begin_call(0);
    part->run(ctx);
    if (samples > 0) {
      ctx.warmup_calls = 0;
      ctx.write_outputs = true;
      if (part->gpu && !batch) ctx.gpu_clock = std::make_shared<gpulab::GpuClock>();
      for (int k = 1; k <= samples; ++k) {
        ctx.dataset =
            gpulab::Dataset::open(gpulab::GraderChannel::get().ask_for_sample(k, samples_dir));
        ctx.sample = k;
        begin_call(k);
        each_sample[static_cast<size_t>(k - 1)]->run(ctx);
      }
      if (!batch)
        ctx.result["timing"] = gpulab::summarize_samples(
                                   ctx.sample_ms, part->gpu ? gpulab::kGpuClock : gpulab::kCpuClock)
                                   .to_json();
    }
    ctx.result[gpulab::kCpuSecondsKey] = cpu_seconds();
    ctx.result["status"] = gpulab::runner_status(RunnerExit::ok);
    finish(ctx.result, RunnerExit::ok);
  } catch (const std::exception& e) {
    result["message"] = e.what();
    std::fprintf(stderr, "runner: %s\n", e.what());
    finish(result, RunnerExit::failed);
  }
}
