#include "bench/bench.h"

#include <cstdio>

#include "bench/bench_run.h"
#include "bench/bench_sweep.h"
#include "build/kit_runners.h"
#include "data/dataset_store.h"
#include "device.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"
#include "os/process.h"
#include "run/runner_client.h"
#include "text/number_text.h"

namespace gpulab {

int bench(const BenchOptions& o, std::ostream& out) {
  const Paths paths = Paths::current();
  const LabConfig lab = LabConfig::load_id(paths.source, o.lab);
  if (!o.sweep.empty()) return bench_sweep(lab, o, out);
  if (!o.json.empty()) throw std::runtime_error("--json records a sweep: give --sweep NAME too");
  const DeviceInfo dev = device_preflight();
  const std::filesystem::path runner =
      o.runner.empty() ? paths.reference_runner(lab.id) : std::filesystem::path(o.runner);
  if (!std::filesystem::exists(runner)) {
    out << "gpulab bench: " << runner.string() << " is missing; build gpulab first\n";
    return 1;
  }
  check_shipped_runner(paths, lab, runner);  // the student kit's, compiled (kit_runners.h)
  out << "gpulab bench " << lab.id << " on "
      << (dev.usable ? dev.name + " (" + dev.arch() + ")" : "a machine without a GPU") << "\n";
  const std::string& unit = lab.timing.work_unit();
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %-9s %-12s %11s %9s %14s %14s %8s  %s\n", "part", "dataset",
                "median ms", "rel.se", (unit + "/s").c_str(), "ceiling/s", "of ceil", "clock");
  out << buf;
  int status = 0;
  for (const auto& part : lab.parts) {
    if (!o.part.empty() && o.part != part.name) continue;
    if (part.gpu && !dev.usable) {
      out << "  " << part.name << ": skipped, no GPU (" << dev.problem << ")\n";
      if (status == 0) status = kExitNeedsGpu;
      continue;
    }
    for (const auto& g : lab.groups) {
      if (!g.timing) continue;
      for (const auto& ds : g.datasets) {
        if (!ds.applies_to(part.name)) continue;
        // No secret: timing datasets have fixed seeds (lab.json).
        const DatasetDirs d = materialize(lab, g, ds, "", paths.cache_dir() / "datasets" / lab.id);
        const auto out_dir = paths.cache_dir() / "bench" / lab.id / part.name;
        // The part's own settings: a CPU part's may differ from the GPU parts'.
        const TimingPolicy& policy = lab.timing_for(part).policy;
        const BenchRun run = bench_run(runner, part, d, out_dir, timing_arguments(policy));
        const ProcessResult& p = run.process;
        const nlohmann::json& r = run.record;
        if (!p.ok() || !r.is_object() || !r.contains("timing")) {
          out << "  " << part.name << " on " << ds.name << ": failed, the runner " << p.describe()
              << "\n"
              << p.output << "\n";
          status = 1;
          continue;
        }
        const double work = r.value("work", 0.0);
        const BenchTiming t = bench_timing(r["timing"], work);
        const double ceiling = lab.timing_for(part).ceiling_per_s;
        const std::string clock = r["timing"].value("clock", std::string());
        std::snprintf(buf, sizeof buf, "  %-9s %-12s %11.4g %8.2f%% %14.3g %14s %8s  %s\n",
                      part.name.c_str(), ds.name.c_str(), t.median_ms, 100 * t.rel_se, t.per_s,
                      ceiling > 0 ? printf_text("%.3g", ceiling).c_str() : "-",
                      share_of_ceiling(t.per_s, ceiling).c_str(), clock.c_str());
        out << buf;
        // The lab's baseline, in a process of its own as grading times it (a part without one
        // reports none).
        const BenchRun base = bench_run(runner, part, d, out_dir.string() + "-baseline",
                                        timing_arguments(policy, kTimeBaselineFlag));
        const nlohmann::json& b = base.record;
        if (base.process.ok() && b.is_object() && b.contains("baseline")) {
          const BenchTiming bt = bench_timing(b["baseline"]["timing"], work);
          std::snprintf(buf, sizeof buf,
                        "  %-9s %-12s %11.4g %8.2f%% %14.3g %14s %8s  %s (%s; "
                        "the reference reaches %.2fx its throughput)\n",
                        "baseline", ds.name.c_str(), bt.median_ms, 100 * bt.rel_se, bt.per_s, "-",
                        "-", clock.c_str(), b["baseline"].value("name", std::string()).c_str(),
                        bt.median_ms / t.median_ms);
          out << buf;
        }
      }
    }
  }
  return status;
}

}  // namespace gpulab
