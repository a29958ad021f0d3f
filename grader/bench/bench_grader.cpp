#include "bench/bench_grader.h"

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "class/class_table.h"
#include "core/grade_phases.h"
#include "files/paths.h"
#include "files/random_bytes.h"
#include "files/temp_folder.h"
#include "files/temporaries.h"
#include "grade/timed_tests.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"
#include "os/process.h"
#include "os/stop_signals.h"
#include "report/report_formats.h"
#include "report/report_json.h"
#include "text/number_text.h"
#include "text/safe_text.h"
#include "text/text_table.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr double kGradeTimeoutS = 3600;  // one lab's grading; the slowest today takes minutes

struct Measured {
  std::string lab, cache;  // cache: "cold" or "warm"
  double wall_s = 0;
  Report report;
  std::string failed;  // non-empty: the grading failed, or the reference lost points; why
};

// A table cell: seconds with one decimal, no unit (the column says it).
std::string seconds_cell(double s) {
  return decimal_text(s, 1);
}

class GraderBench {
 public:
  GraderBench(const BenchGraderOptions& o, std::ostream& out)
      : o_(o), out_(out), paths_(Paths::current()), seed_(random_hex(16)) {}

  int run() {
    std::vector<std::string> labs = o_.labs;
    if (labs.empty())
      for (const auto& f : find_lab_files(paths_.source))
        labs.push_back(f.parent_path().filename().string());
    for (const auto& lab : labs) LabConfig::load_id(paths_.source, lab);  // refuses a bad id
    const Temporary work{make_temp_folder("gpulab-bench-grader", "bench-grader's gradings")};
    out_ << "grading the reference of " << labs.size() << " lab(s) on the "
         << backend_name(o_.backend) << " backend"
         << (o_.performance ? ", timed" : ", not timed (--no-time)")
         << ", a hidden seed drawn for this run; caches in " << work.path().string() << "\n"
         << std::flush;
    std::vector<Measured> runs;
    for (const auto& lab : labs) {
      const fs::path cache = work.path() / "cache" / lab;  // empty: cold
      if (o_.cold) {
        Measured cold = grade(lab, "cold", cache, work.path());
        if (o_.report_cold) runs.push_back(std::move(cold));
      }
      if (o_.warm) runs.push_back(grade(lab, "warm", cache, work.path()));
    }
    print(runs);
    if (!o_.json_out.empty()) write_json(runs);
    for (const auto& m : runs)
      if (!m.failed.empty()) return kExitFailed;
    return kExitOk;
  }

 private:
  // One `gpulab grade` of the lab's reference, its dataset cache `cache` (warm: the cold run's).
  Measured grade(const std::string& lab, const std::string& mode, const fs::path& cache,
                 const fs::path& work) {
    out_ << "  " << lab << " (" << mode << " cache) ..." << std::flush;
    Measured m{lab, mode, 0, {}, ""};
    const fs::path report = work / (lab + "-" + mode + ".json");
    ProcessOptions po;
    po.argv = {fs::read_symlink("/proc/self/exe").string(),
               "grade",
               lab,
               "--submission",
               paths_.reference_dir(lab).string(),
               "--out",
               report.string(),
               "--format",
               format_name(ReportFormat::kGpulab)};
    pass_policy(o_, seed_, po.argv, po.env);
    po.env.push_back("GPULAB_CACHE_DIR=" + cache.string());
    po.cwd = work;
    po.timeout_s = kGradeTimeoutS;
    po.output_limit = 1 << 16;
    po.stop_grace_s = kStopGraceS + 1;
    const auto t0 = std::chrono::steady_clock::now();
    const ProcessResult p = run_process(po);
    m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out_ << " " << seconds_cell(m.wall_s) << " s\n" << std::flush;
    try {
      std::ifstream in(report);
      m.report = report_from_gpulab_json(json::parse(in));
    } catch (const std::exception& e) {
      m.failed = "gpulab grade " + p.describe() + ", no report (" + e.what() +
                 "); its last words: " + quote_tail(p.output, 600);
      return m;
    }
    if (!m.report.scored())
      m.failed = "not scored: " +
                 (m.report.grader_error.empty() ? std::string("stopped") : m.report.grader_error);
    else if (m.report.final_score() < m.report.max_score())
      m.failed = "the reference scored " + format_points(m.report.final_score()) + " of " +
                 format_points(m.report.max_score());
    return m;
  }

  void print(const std::vector<Measured>& runs) const {
    std::vector<TextColumn> cols = {{"lab"}, {"cache"}, {"wall s", true}};
    for (size_t i = 0; i < kGradePhaseCount; ++i)
      cols.push_back({phase_name(static_cast<GradePhase>(i)), true});
    cols.push_back({"score", true});
    std::vector<std::vector<std::string>> rows;
    std::map<std::string, double> wall, phases;  // totals by cache, by "cache/phase"
    for (const auto& m : runs) {
      std::vector<std::string> row = {m.lab, m.cache, seconds_cell(m.wall_s)};
      wall[m.cache] += m.wall_s;
      for (size_t i = 0; i < kGradePhaseCount; ++i) {
        const std::string name = phase_name(static_cast<GradePhase>(i));
        const auto at = m.report.phase_seconds.find(name);
        const double s = at == m.report.phase_seconds.end() ? 0 : at->second;
        phases[m.cache + "/" + name] += s;
        row.push_back(seconds_cell(s));
      }
      row.push_back(m.failed.empty() ? format_points(m.report.final_score()) + "/" +
                                           format_points(m.report.max_score())
                                     : "FAILED");
      rows.push_back(row);
    }
    for (const auto& [cache, s] : wall) {
      std::vector<std::string> row = {"all", cache, seconds_cell(s)};
      for (size_t i = 0; i < kGradePhaseCount; ++i)
        row.push_back(seconds_cell(phases[cache + "/" + phase_name(static_cast<GradePhase>(i))]));
      row.push_back("");
      rows.push_back(row);
    }
    out_ << "\n" << text_table(cols, rows) << "\nphases (seconds of each grading's own clock):\n";
    for (size_t i = 0; i < kGradePhaseCount; ++i)
      out_ << "  " << phase_name(static_cast<GradePhase>(i)) << ": "
           << phase_meaning(static_cast<GradePhase>(i)) << "\n";
    for (const auto& m : runs)
      if (!m.failed.empty())
        out_ << "FAILED " << m.lab << " (" << m.cache << "): " << m.failed << "\n";
  }

  void write_json(const std::vector<Measured>& runs) const {
    json j = {
        {"backend", backend_name(o_.backend)}, {"timed", o_.performance}, {"runs", json::array()}};
    for (const auto& m : runs) {
      json r = {{"lab", m.lab},
                {"cache", m.cache},
                {"wall_s", m.wall_s},
                {"phase_seconds", m.report.phase_seconds},
                {"device", m.report.environment.value("device", json())},
                {"failed", m.failed}};
      if (m.report.scored()) r["score"] = m.report.final_score();
      r["max_score"] = m.report.max_score();
      // The rounds each timed test took (lab_timing.h: they stop early where they agree): the
      // timing phase's seconds follow them.
      // And what a timed sample costs beyond its call (the reference's median share of the
      // outside clock's window: loading the sample's inputs, handing over its outputs).
      json rounds = json::object(), shares = json::object();
      for (const Test& t : m.report.tests) {
        if (const auto it = t.extra.find(kStudentSamplesKey); it != t.extra.end() && it->is_array())
          rounds[t.name] = it->size();
        if (const json* clock =
                t.extra.contains("outside_clock") ? &t.extra["outside_clock"] : nullptr;
            clock && clock->contains("reference_share_ms_median"))
          shares[t.name] = (*clock)["reference_share_ms_median"];
      }
      r["timed_rounds"] = rounds;
      r["sample_share_ms"] = shares;
      j["runs"].push_back(r);
    }
    std::ofstream(o_.json_out) << j.dump(2) << "\n";
  }

  const BenchGraderOptions& o_;
  std::ostream& out_;
  Paths paths_;
  std::string seed_;  // hidden datasets differ from every earlier run's: truly cold
};

}  // namespace

int bench_grader(const BenchGraderOptions& options, std::ostream& out) {
  return GraderBench(options, out).run();
}

}  // namespace gpulab
