// The runner executable's main: one part, one dataset, one output directory.
//
//   runner --part NAME --dataset DIR --out DIR [--time [--baseline]] [--timing JSON] [--list]
//
// Exit status: 0 the part ran (result.json says so), 2 bad command line, 3 the part failed
// (result.json holds the message), 4 the part needs a GPU and there is none.
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>

#include "device.h"
#include "runner.h"

namespace {

int usage(const char* why) {
  std::fprintf(stderr,
               "runner: %s\nusage: runner --part NAME --dataset DIR --out DIR [--time "
               "[--baseline]] [--timing JSON] | --list\n",
               why);
  return 2;
}

void write_result(const std::filesystem::path& out_dir, const nlohmann::json& result) {
  std::ofstream out(out_dir / "result.json");
  out << result.dump(2) << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string part_name, dataset_dir, out_dir, timing_json;
  bool time = false, baseline = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    if (a == "--list") {
      for (const auto& p : gpulab::all_parts())
        std::printf("%s %s\n", p.name.c_str(), p.gpu ? "gpu" : "cpu");
      return 0;
    } else if (a == "--time") {
      time = true;
    } else if (a == "--baseline") {
      baseline = true;
    } else if (a == "--part") {
      if (!value(part_name)) return usage("--part needs a value");
    } else if (a == "--dataset") {
      if (!value(dataset_dir)) return usage("--dataset needs a value");
    } else if (a == "--out") {
      if (!value(out_dir)) return usage("--out needs a value");
    } else if (a == "--timing") {
      if (!value(timing_json)) return usage("--timing needs a value");
    } else {
      return usage(("unknown argument " + a).c_str());
    }
  }
  if (part_name.empty() || dataset_dir.empty() || out_dir.empty())
    return usage("--part, --dataset and --out are required");

  nlohmann::json result = {{"part", part_name}, {"dataset", dataset_dir}, {"status", "error"}};
  std::filesystem::create_directories(out_dir);
  const gpulab::Part* part = gpulab::find_part(part_name);
  if (!part) {
    result["message"] = "this lab has no part named '" + part_name + "'";
    write_result(out_dir, result);
    return 2;
  }
  if (part->gpu) {
    const gpulab::DeviceInfo dev = gpulab::device_preflight();
    result["device"] = dev.to_json();
    if (!dev.usable) {
      result["status"] = "no-gpu";
      result["message"] = dev.problem;
      write_result(out_dir, result);
      std::fprintf(stderr, "runner: %s\n", dev.problem.c_str());
      return 4;
    }
  }
  try {
    gpulab::RunContext ctx{gpulab::Dataset::open(dataset_dir), out_dir, time, {}, {}};
    if (!timing_json.empty())
      ctx.policy = gpulab::TimingPolicy::from_json(nlohmann::json::parse(timing_json));
    ctx.time_baseline = time && baseline;
    ctx.result = result;
    ctx.result["outputs"] = nlohmann::json::array();
    part->run(ctx);
    ctx.result["status"] = "ok";
    write_result(out_dir, ctx.result);
    return 0;
  } catch (const std::exception& e) {
    result["message"] = e.what();
    write_result(out_dir, result);
    std::fprintf(stderr, "runner: %s\n", e.what());
    return 3;
  }
}
