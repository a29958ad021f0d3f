#include "cli/time_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/scoring.h"
#include "device.h"
#include "files/paths.h"
#include "grade/grade.h"
#include "grade/grade_context.h"
#include "grade/runner_builds.h"
#include "grade/timed_tests.h"
#include "lab/lab_tree.h"
#include "lab/run_limit.h"
#include "os/exit_status.h"
#include "run/runner_client.h"
#include "run/sim_costs.h"
#include "stats.h"
#include "text/nearest_name.h"
#include "text/number_text.h"
#include "text/text_table.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

// One (part, dataset) to time, and what its rounds measured.
struct Timing {
  const PartSpec* part;
  const GroupSpec* group;
  const DatasetSpec* dataset;
  TimedTests::Rounds m;
  std::string result = "not timed";  // DatasetRow::result of the student's checks
};

std::vector<const PartSpec*> selected_parts(const LabConfig& lab, const TimeOptions& o) {
  std::vector<std::string> names;
  for (const auto& p : lab.parts) names.push_back(p.name);
  std::vector<const PartSpec*> parts;
  for (const auto& p : lab.parts)
    if (o.parts.empty() || std::find(o.parts.begin(), o.parts.end(), p.name) != o.parts.end())
      parts.push_back(&p);
  for (const auto& p : o.parts)
    if (!lab.part(p))
      throw std::runtime_error("lab " + lab.id + ": " + unknown_name("part", p, names));
  return parts;
}

// What to time: --dataset (check_dataset_name's) on every selected part it applies to, or else
// each part's timing datasets (as bench). Hidden groups never: their datasets are the
// instructor's.
std::vector<Timing> plan(const LabConfig& lab, const std::vector<const PartSpec*>& parts,
                         const std::string& dataset) {
  std::vector<Timing> plan;
  for (const auto* part : parts) {
    const size_t before = plan.size();
    for (const auto& g : lab.groups) {
      if (g.hidden) continue;
      for (const auto& ds : g.datasets)
        if (ds.applies_to(part->name) && (dataset.empty() ? g.timing : ds.name == dataset))
          plan.push_back({part, &g, &ds, {}});
    }
    if (dataset.empty() && plan.size() == before)
      throw std::runtime_error("lab " + lab.id + ": part " + part->name +
                               " has no timing dataset; name one with --dataset");
  }
  return plan;
}

// Refuses a --dataset that is none of the parts' public ones (a hidden one included: those are
// the instructor's), before anything is built.
void check_dataset_name(const LabConfig& lab, const std::vector<const PartSpec*>& parts,
                        const std::string& dataset) {
  if (dataset.empty()) return;
  std::vector<std::string> names;
  for (const auto* part : parts)
    for (const auto& g : lab.groups)
      if (!g.hidden)
        for (const auto& ds : g.datasets)
          if (ds.applies_to(part->name)) {
            if (ds.name == dataset) return;
            names.push_back(ds.name);
          }
  throw std::runtime_error("lab " + lab.id + ": " + unknown_name("dataset", dataset, names));
}

// A GPU part that cannot be timed here, costed instead by the CPU backend's cost model
// (sim_costs.h) on one public dataset (plan_costs says which).
struct Costing {
  const PartSpec* part;
  const GroupSpec* group;
  const DatasetSpec* dataset;
  std::vector<CostSide> sides;  // yours, then the reference's where there is one
  std::string failed;           // non-empty: a run failed; why
  std::string note;             // why it is costed on another dataset than --dataset
};

// Without --dataset, lab.json's cost_dataset where it applies, else the part's last public one. A
// --dataset that is a timing dataset (too large to count access by access), or one the CPU
// backend does not run, is replaced the same way, with a note that says so.
std::vector<Costing> plan_costs(const LabConfig& lab, const std::vector<std::string>& parts,
                                const std::string& asked) {
  std::vector<Costing> plan;
  for (const auto& name : parts) {
    const PartSpec* part = lab.part(name);
    Costing k{part, nullptr, nullptr, {}, {}, {}};
    const std::string& dataset = asked.empty() ? lab.cost_dataset : asked;
    for (const bool any : {false, true}) {
      for (const auto& g : lab.groups) {
        if (g.hidden || g.timing || !g.on_backend(Backend::sim)) continue;
        for (const auto& ds : g.datasets)
          if (ds.applies_to(name) && (any || dataset.empty() || ds.name == dataset)) {
            k.group = &g;
            k.dataset = &ds;
          }
      }
      if (k.dataset) break;
    }
    if (!k.dataset) continue;
    if (!asked.empty() && k.dataset->name != asked)
      k.note = asked +
               " is a timing dataset or one the CPU backend does not run, too large to "
               "count access by access: costed on " +
               k.dataset->name + " instead";
    plan.push_back(k);
  }
  return plan;
}

// One profiled run of `runner` (the student's or the reference's) on the costing's dataset.
void cost_run(const GradeContext& c, const std::filesystem::path& runner, const std::string& who,
              Costing& k) {
  const DatasetDirs d = c.dataset(*k.group, *k.dataset);
  RunRequest run(runner, *k.part, d, c.work / "costs" / k.part->name / who,
                 RunLimit::clock(who == "yours" ? c.o.timed_run_timeout_s : kReferenceRunLimitS));
  run.profile = true;
  const RunOutcome o = run_runner(c.place(), run);
  if (!o.ran) {
    k.failed = (who == "yours" ? "" : "the reference: ") + o.message;
    return;
  }
  k.sides.push_back({who, kernel_costs(o.sim_costs), o.result.value("work", 0.0)});
}

void print_costs(const LabConfig& lab, const std::vector<Costing>& costings, std::ostream& out) {
  for (const Costing& k : costings) {
    out << "\n"
        << k.part->name << " on " << k.dataset->name << " (public"
        << (k.sides.empty() ? ""
                            : ", " + printf_text("%.0f ", k.sides[0].work) + lab.timing.work_unit())
        << "): the CPU backend's cost model" << (k.note.empty() ? "" : " (" + k.note + ")");
    if (!k.failed.empty()) {
      out << ": not costed, " << k.failed << "\n";
      continue;
    }
    out << (k.sides.size() > 1 ? ", yours beside the reference's" : "") << ":\n"
        << cost_table(k.sides);
  }
  out << "\n"
      << cost_legend(lab.timing.work_unit())
      << "  Counted exactly from your kernels' accesses on the CPU (sim/README.md, \"The cost "
         "model\"); the outputs are not checked here: `gpulab run "
      << lab.id << "` checks them.\n";
}

// Why a GPU part cannot be timed here; empty where it can.
std::string no_gpu_timing(Backend backend, bool cuda_built, const DeviceInfo& device) {
  if (!cuda_built)
    return "this gpulab was built for the CPU backend alone, which runs kernels on the CPU and "
           "measures no GPU speed (build it with nvcc, on a machine with an NVIDIA GPU: the kit's "
           "README)";
  if (backend != Backend::cuda)
    return "the CPU backend (--backend sim) runs kernels on the CPU and measures no GPU speed";
  if (!device.usable) return "this machine has no usable NVIDIA GPU (" + device.problem + ")";
  return "";
}

std::string ms(double v) {
  return v >= 0 ? printf_text("%.4g", v) : "-";
}

void print(const LabConfig& lab, const std::vector<Timing>& timings, bool reference,
           std::ostream& out) {
  std::vector<std::vector<std::string>> rows;
  std::string notes;
  for (const auto& t : timings) {
    const auto& m = t.m;
    const bool timed = m.failed.empty() && !m.student.empty();
    const double s = timed ? median(m.student) : -1;
    const double r = timed && reference ? median(m.reference) : -1;
    const std::string ratio =
        timed && reference ? printf_text("%.3f", time_ratio(m.student, m.reference)) : "-";
    rows.push_back({t.part->name, t.dataset->name, ms(s), ms(r), ratio,
                    std::to_string(m.student.size()),
                    timed                ? "right"
                    : t.result == "FAIL" ? "WRONG"
                                         : "error"});
    const std::string where = t.part->name + " on " + t.dataset->name + ": ";
    if (!timed) {
      notes += where + m.failed + "\n";
      continue;
    }
    if (const std::string kept = m.reference_timing.words(); !kept.empty())
      notes += where + kept + "\n";
    // The grader rejects a time below what the hardware can do (scoring.h, floor).
    const TimingSettings& timing = lab.timing_for(*t.part);
    const double least = floor_ms(timing.ceiling_per_s, timing.floor_slack,
                                  m.reference_work > 0 ? m.reference_work : m.work);
    if (s < least)
      notes += where + "your time is below what the hardware can do (" +
               printf_text("%.4g ms", least) + "): the grader would reject it as implausible.\n";
  }
  out << text_table({{"part"},
                     {"dataset"},
                     {"yours ms", true},
                     {"reference ms", true},
                     {"ratio", true},
                     {"rounds", true},
                     {"timed outputs"}},
                    rows);
  out << notes;
}

// Where GPU parts cannot be timed here (no GPU, the sim backend, no CUDA runners built), takes
// them out of `parts` with a line that says why and what measures them instead, and returns
// them; none where every part stays.
std::vector<std::string> drop_untimeable_gpu_parts(const LabConfig& lab, Backend backend,
                                                   bool cuda_built,
                                                   std::vector<const PartSpec*>& parts,
                                                   std::ostream& out) {
  const bool any_gpu =
      std::any_of(parts.begin(), parts.end(), [](const PartSpec* p) { return p->gpu; });
  if (!any_gpu) return {};
  const std::string why = no_gpu_timing(
      backend, cuda_built, backend == Backend::cuda ? device_preflight() : DeviceInfo{});
  if (why.empty()) return {};
  std::vector<std::string> skipped;
  std::vector<const PartSpec*> cpu;
  for (const PartSpec* p : parts)
    if (p->gpu)
      skipped.push_back(p->name);
    else
      cpu.push_back(p);
  out << "gpulab time: not timing ";
  for (size_t i = 0; i < skipped.size(); ++i) out << (i ? ", " : "") << skipped[i];
  out << ": GPU parts are timed only on an NVIDIA GPU, and " << why << ". "
      << (backend == Backend::sim
              ? "Instead, the CPU backend's cost model counts what their kernels would cost a "
                "GPU, below."
              : "`gpulab time " + lab.id +
                    " --backend sim` counts what their kernels would cost a GPU instead.")
      << "\n";
  parts = std::move(cpu);
  return skipped;
}

}  // namespace

int time_command(const TimeOptions& o, std::ostream& out, std::ostream& log) {
  const Paths paths = Paths::current();
  const LabConfig lab = LabConfig::load_id(paths.source, o.lab);
  const bool cuda_built = o.cuda_runners_built;
  const Backend backend = o.backend ? *o.backend : cuda_built ? Backend::cuda : Backend::sim;
  std::vector<const PartSpec*> parts = selected_parts(lab, o);
  check_dataset_name(lab, parts, o.dataset);
  std::ostringstream quiet;  // costs alone: no word about what is not timed
  const std::vector<std::string> untimed =
      drop_untimeable_gpu_parts(lab, backend, cuda_built, parts, o.costs_only ? quiet : out);
  if (o.costs_only) parts.clear();
  std::vector<Costing> costings;
  if (backend == Backend::sim) costings = plan_costs(lab, untimed, o.dataset);
  std::vector<Timing> timings;
  if (!parts.empty()) timings = plan(lab, parts, o.dataset);
  const int status = untimed.size() > costings.size() ? kExitNeedsGpu : kExitOk;
  if (timings.empty() && costings.empty()) return status;

  // As gpulab run: the lab folder of the gpulab tree the student stands in (lab_tree.h).
  // A version of the lab's one file under a name of its own (dcs_staggered.cu) is taken as the
  // lab's file by the grader's intake (intake.h), as gpulab run and grade take it.
  const fs::path submission =
      !o.submission.empty()
          ? o.submission
          : student_lab_folder(fs::current_path(), lab.id, paths.lab_dir(lab.id)).dir;
  GradeOptions g;
  g.lab = lab.id;
  g.submission = submission;
  for (const auto& t : timings)
    if (std::find(g.parts.begin(), g.parts.end(), t.part->name) == g.parts.end())
      g.parts.push_back(t.part->name);
  for (const auto& k : costings)
    if (std::find(g.parts.begin(), g.parts.end(), k.part->name) == g.parts.end())
      g.parts.push_back(k.part->name);
  g.include_hidden = false;
  g.review_flags = false;
  g.allow_unsandboxed = true;  // the student's own code, on their machine (as gpulab run)
  g.backend = backend;
  bool measured = false, reference = false;
  std::string no_reference;
  g.measure = [&](GradeContext& c, RunnerBuilds& runners, ReportBuilder& builder) {
    measured = true;
    reference = c.scope.reference;
    if (!reference)
      no_reference = std::string("No reference here to ") + (timings.empty() ? "cost" : "time") +
                     " against (" + c.paths.reference_runner(lab.id, backend).string() +
                     " is missing, and there is no reference/ folder to build it from): your " +
                     (timings.empty() ? "costs" : "times") + " alone.\n";
    TimedTests timed(c, runners, builder);
    for (auto& t : timings) {
      DatasetRow row{t.part->name, t.dataset->name, "pass", 0, -1, -1, -1};
      t.m = timed.time_rounds(*t.part, c.dataset(*t.group, *t.dataset), reference, nullptr, row);
      t.result = row.result;
    }
    for (auto& k : costings) {
      c.steps.note("costing " + k.part->name + " on " + k.dataset->name);
      cost_run(c, c.student.runner, "yours", k);
      if (k.failed.empty() && reference) cost_run(c, runners.reference(), "reference", k);
    }
  };
  const Report report = grade(g, log);
  if (report.stopped_by) return kExitStopped;
  if (!report.grader_error.empty()) throw std::runtime_error(report.grader_error);
  if (!measured) {  // refused or did not build: every part's test says the same, so once
    out << "gpulab time: " << submission.string() << ": "
        << (report.tests.empty() ? std::string("not built") : report.tests.front().output) << "\n";
    return kExitTestsFailed;
  }
  if (!timings.empty()) {
    out << "gpulab time " << lab.id << " (" << backend_name(backend)
        << " backend): " << submission.string() << (reference ? " against the reference" : "")
        << ", in rounds of timed runs" << (reference ? ", yours and the reference's in turn" : "")
        << ", each in a process of its own; times are medians over the rounds, the ratio the "
           "median of the rounds' ratios, as grading scores it.\n";
    print(lab, timings, reference, out);
  }
  out << no_reference;
  if (!costings.empty()) print_costs(lab, costings, out);
  for (const auto& t : timings)
    if (!t.m.failed.empty()) return kExitTestsFailed;
  for (const auto& k : costings)
    if (!k.failed.empty()) return kExitTestsFailed;
  return status;
}

}  // namespace gpulab
