#include "bench/bench_sweep.h"

#include <cstdio>
#include <ctime>
#include <fstream>

#include "bench/bench_record.h"
#include "bench/bench_run.h"
#include "build/build.h"
#include "data/check.h"
#include "data/dataset_store.h"
#include "device.h"
#include "files/atomic_file.h"
#include "files/paths.h"
#include "os/exit_status.h"
#include "run/runner_client.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

const BenchSweep& find_sweep(const LabConfig& lab, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& s : lab.bench_sweeps) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  if (names.empty()) throw std::runtime_error(lab.id + " has no bench sweeps (lab.json)");
  throw std::runtime_error(lab.id + ": " + unknown_name("bench sweep", name, names));
}

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

// The reference built with `#define <macro> <value>` before each of its student files, as a
// student times a copy of their file per constant. The reference is trusted code: built
// without the sandbox, in the bench's cache.
fs::path build_variant(const LabConfig& lab, const Paths& paths, const BenchSweep& s,
                       long long value) {
  const fs::path ref = paths.reference_dir(lab.id);
  if (!fs::is_directory(ref))
    throw std::runtime_error("the sweep " + s.name + " compiles the reference's source, " +
                             ref.string() + ", which is not here (the student kit has none)");
  const fs::path work =
      paths.cache_dir() / "bench" / lab.id / ("sweep-" + s.name + "-" + std::to_string(value));
  const fs::path src = work / "src";
  fs::remove_all(work);
  fs::create_directories(src);
  for (const auto& e : fs::directory_iterator(ref))
    if (e.is_regular_file()) fs::copy_file(e.path(), src / e.path().filename());
  for (const auto& f : lab.student_files) {
    std::ifstream in(ref / f, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    write_file_atomically(src / f, "#define " + s.define + " " + std::to_string(value) +
                                       "\n#line 1 \"" + f + "\"\n" + text);
  }
  const BuildResult b = build_runner(lab, paths, src, work / "build", Backend::cuda, Sandbox{});
  if (!b.ok)
    throw std::runtime_error("the reference with " + s.define + " " + std::to_string(value) +
                             " does not build:\n" + b.message);
  return b.runner;
}

// `part` at `value` of the sweep, on `d` with `runner`: its row added to `rec` and printed;
// false where it failed, which `out` says.
bool sweep_part(const LabConfig& lab, const BenchSweep& s, long long value, const PartSpec& part,
                const fs::path& runner, const DatasetDirs& d, SweepRecord& rec, std::ostream& out) {
  const std::string& name = part.name;
  const fs::path out_dir = Paths::current().cache_dir() / "bench" / lab.id / ("sweep-" + name);
  if (!s.define.empty()) {
    // A changed constant can break the code: a variant's times count only when its outputs
    // are right.
    const BenchRun run = bench_run(runner, part, d, out_dir, {});
    const ProcessResult& p = run.process;
    const CheckResult c = p.ok() ? check_outputs(lab, part, d, *run.outputs, false) : CheckResult{};
    if (!p.ok() || !c.pass) {
      out << "  " << s.define << " " << value << ", " << name << ": wrong, "
          << (p.ok() ? c.message : "the runner " + p.describe() + "\n" + p.output) << "\n";
      return false;
    }
  }
  const BenchRun run =
      bench_run(runner, part, d, out_dir, timing_arguments(lab.timing_for(part).policy));
  const ProcessResult& p = run.process;
  const nlohmann::json& r = run.record;
  if (!p.ok() || !r.is_object() || !r.contains("timing")) {
    out << "  " << name << " at " << value << ": failed, the runner " << p.describe() << "\n"
        << p.output << "\n";
    return false;
  }
  const BenchTiming t = bench_timing(r["timing"], r.value("work", 0.0));
  const SweepRow row{value, name, t.median_ms, t.rel_se, t.per_s};
  rec.rows.push_back(row);
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %12lld %-18s %11.4g %8.2f%% %14.3g %8s\n", value, name.c_str(),
                row.median_ms, 100 * row.rel_se, row.per_s,
                share_of_ceiling(row.per_s, rec.ceiling_per_s).c_str());
  out << buf;
  return true;
}

}  // namespace

int bench_sweep(const LabConfig& lab, const BenchOptions& o, std::ostream& out) {
  const Paths paths = Paths::current();
  const BenchSweep& s = find_sweep(lab, o.sweep);
  const DeviceInfo dev = device_preflight();
  for (const auto& name : s.parts)
    if (lab.part(name)->gpu && !dev.usable) {
      out << "gpulab bench " << lab.id << " --sweep " << s.name << ": skipped, no GPU ("
          << dev.problem << "); nothing recorded\n";
      return kExitNeedsGpu;
    }
  const GroupSpec* group = nullptr;
  const DatasetSpec& base = *lab.timing_dataset(s.dataset, s.parts.front(), &group);
  SweepRecord rec{lab.id,
                  s.name,
                  dev.usable ? dev.name + " (" + dev.arch() + ")" : "the CPU",
                  utc_date(),
                  lab.timing.work_unit(),
                  lab.timing_for(*lab.part(s.parts.front())).ceiling_per_s,
                  {}};
  out << "gpulab bench " << lab.id << " --sweep " << s.name << " on " << rec.device << ": "
      << s.title << "; the reference on " << s.dataset
      << (s.params.empty() ? "" : " with " + s.params.dump()) << ", "
      << (s.param.empty() ? "compiled with " + s.define : s.param) << " varied\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %12s %-18s %11s %9s %14s %8s\n", s.axis.substr(0, 12).c_str(),
                "part", "median ms", "rel.se", (rec.work_unit + "/s").c_str(), "of ceil");
  out << buf;
  int status = kExitOk;
  for (const long long value : s.values) {
    DatasetSpec ds = base;
    ds.params = s.params_at(base.params, value);
    if (!s.param.empty()) ds.name = base.name + "-" + s.param + "-" + std::to_string(value);
    const DatasetDirs d = materialize(lab, *group, ds, "", paths.cache_dir() / "datasets" / lab.id);
    const fs::path runner =
        s.define.empty() ? paths.reference_runner(lab.id) : build_variant(lab, paths, s, value);
    for (const auto& name : s.parts)
      if (!sweep_part(lab, s, value, *lab.part(name), runner, d, rec, out)) status = 1;
  }
  if (o.json.empty()) return status;
  if (status != kExitOk) {
    out << "not recorded in " << o.json.string() << ": a run above failed\n";
    return status;
  }
  if (o.json.has_parent_path()) fs::create_directories(o.json.parent_path());
  write_file_atomically(o.json, to_json(rec).dump(2) + "\n");
  out << "recorded in " << o.json.string() << "; `gpulab figures " << lab.id << "` draws it\n";
  return status;
}

}  // namespace gpulab
