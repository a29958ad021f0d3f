#include "grade/correctness_tests.h"

#include <algorithm>
#include <cmath>

#include "core/grade_phases.h"
#include "core/scoring.h"
#include "core/sim_finding_sites.h"
#include "core/sim_findings_text.h"
#include "data/check.h"
#include "data/kept_outputs.h"
#include "data/reference_time.h"
#include "files/remove_tree.h"
#include "grade/error_map_files.h"
#include "grade/sanitizer_runs.h"
#include "os/process.h"
#include "runner_flags.h"

namespace gpulab {

bool CorrectnessTests::grade(const PartSpec& part) {
  const PartRubric& rubric = c_.lab.rubric.at(part.name);
  const GradeScope& scope = c_.scope;
  bool public_ok = true, part_timed_out = false;
  // Every call counts: on one dataset the function is called twice in one process, both
  // calls' outputs checked. A second call that goes wrong after a right first one fails every
  // correctness group of the part (fail_for_state_leak): other datasets call it only once.
  const DatasetSpec* const called_twice = called_twice_on(c_.lab, part, scope);
  std::string leaked_on;                  // the dataset where a second call went wrong
  std::vector<size_t> correctness_tests;  // their places in the report
  bool mapped = false;  // a map of where an output is wrong was drawn: one a part is enough
  for (const auto& g : c_.lab.groups) {
    if (scope.group_off_backend(g, rubric))
      out_.info(part.name + ": correctness on the " + g.name + " datasets not run (" +
                    c_.o.backend + " backend)",
                "lab.json runs these datasets on other backends only (" +
                    nlohmann::json(g.backends).dump() + "), so their points are left out here.",
                {part.name, g.name});
    if (!scope.group_runs(g)) continue;
    const std::vector<const DatasetSpec*> sets = scope.datasets(g, part.name);
    if (sets.empty()) continue;
    const double points = group_max(rubric, g.name);
    // Each dataset's run and check first; then compute-sanitizer on those it picks, all side
    // by side (none of it is timed); then each dataset's line, in order.
    struct Ran {
      const DatasetSpec* ds = nullptr;
      bool skipped = false;  // not run: an earlier dataset timed out
      DatasetDirs d;
      std::vector<std::string> flags;  // the runner's, for this dataset
      RunOutcome o;
      CheckResult c;
      bool bug_found = false;
      std::string left;      // a failed run's wrong outputs, as its kernels left them
      int job = -1;          // its place among compute-sanitizer's jobs, or none
      std::string map_note;  // where the map of where it is wrong is (error_map_files.h)
    };
    std::vector<Ran> ran;
    std::vector<SanitizerRuns::Job> jobs;
    for (const DatasetSpec* ds : sets) {
      Ran& r = ran.emplace_back();
      r.ds = ds;
      if (part_timed_out) {  // one hang is enough: do not wait out every dataset
        r.skipped = true;
        continue;
      }
      c_.steps.step(part.name + " on " + ds->name);
      const auto out = c_.work / "runs" / part.name / ds->name;
      const bool twice = ds == called_twice;
      if (twice) r.flags = {kCallTwiceFlag};
      try {
        throw_if_out_of_time();  // a dataset made past the part's share only delays its end
        r.d = c_.dataset(g, *ds);
        r.o = correctness_run(part, r.d, out, r.flags);
      } catch (OutOfTime& stop) {
        // Under a time budget (process.h's ChildDeadline): what ran when it ran out, as the
        // student may know it. A hidden dataset is not named, and anything that ran on one is
        // told only with the hidden datasets' results (part_budgets.h).
        if (stop.during.empty())
          stop.during =
              "your code's run on " + (g.hidden ? "a hidden dataset" : "the dataset " + ds->name);
        stop.during_hidden = stop.during_hidden || g.hidden;
        throw;
      }
      part_timed_out = r.o.timed_out;
      r.bug_found = std::any_of(r.o.sim_findings.begin(), r.o.sim_findings.end(), fails_dataset);
      if (!r.o.ran && !r.o.timed_out && !r.o.outputs->names().empty()) {
        const ScopedPhase phase(GradePhase::kCheck);
        r.left = outputs_left_by_failure(c_.lab, part, r.d, *r.o.outputs);
      }
      if (r.o.ran) {
        r.c = [&] {
          const ScopedPhase phase(GradePhase::kCheck);
          return check_outputs(c_.lab, part, r.d, *r.o.outputs, false, twice);
        }();
        if (r.c.state_leak) leaked_on = ds->name;
        // Never of a hidden dataset, whose details are the instructor's (below).
        if (!r.c.pass && !g.hidden && !mapped) {
          const ScopedPhase phase(GradePhase::kCheck);
          if (auto drawn = draw_error_map_files(c_.lab, part, r.d, *r.o.outputs, c_.o, c_.log)) {
            mapped = true;
            r.map_note = std::move(drawn->note);
            if (drawn->image) out_.image(std::move(*drawn->image));
          }
        }
        // The check above says what is wrong with an output not kept; the log repeats it.
        if (!c_.o.keep_outputs.empty() && !g.hidden)
          if (const std::string not_kept =
                  keep_outputs(c_.lab, part, r.d, *r.o.outputs, c_.o.keep_outputs);
              !not_kept.empty())
            c_.log << "  " << not_kept << "\n";
      }
    }
    // Under compute-sanitizer too, where this grading runs it (sanitizer_runs.h): the datasets it
    // picks, an error it finds failing the dataset as the CPU backend's findings do.
    if (c_.sanitizer) {
      std::vector<SanitizerRuns::Candidate> candidates;
      for (const Ran& r : ran)
        candidates.push_back(
            {r.d.input, !r.skipped && r.o.ran && r.c.pass && !r.bug_found, r.o.timed_out});
      for (size_t i : c_.sanitizer->pick(part, g, candidates)) {
        if (ran[i].skipped) continue;
        ran[i].job = static_cast<int>(jobs.size());
        jobs.push_back({ran[i].d, ran[i].flags});
      }
    }
    const std::vector<SanitizerRuns::Verdict> verdicts =
        jobs.empty() ? std::vector<SanitizerRuns::Verdict>{}
                     : while_doing("your code's runs under compute-sanitizer",
                                   [&] { return c_.sanitizer->check(part, jobs); });
    int passed = 0;
    std::string details;
    std::vector<SimFindingSite> sites;  // the CPU backend's findings, for the class view
    for (const Ran& r : ran) {
      if (r.skipped) {
        out_.row({part.name, r.ds->name, "skipped", INFINITY, -1, -1, -1});
        details += "FAIL " + r.ds->name + ": not run, an earlier dataset timed out\n";
        continue;
      }
      DatasetRow row{part.name, r.ds->name, "error", INFINITY, -1, -1, -1};
      const SanitizerRuns::Verdict sanitized =
          r.job < 0 ? SanitizerRuns::Verdict{} : verdicts[static_cast<size_t>(r.job)];
      std::string line;
      if (r.o.ran) {
        const bool pass = r.c.pass && !r.bug_found && !sanitized.fails;
        row.result = pass ? "pass" : "FAIL";
        row.err_over_bound = r.c.max_err_over_bound;
        passed += pass;
        line = std::string(pass ? "PASS " : "FAIL ") + r.ds->name + ": " + r.c.message;
        if (!r.map_note.empty()) line += "\n" + r.map_note;
        if (r.c.pass && r.bug_found)
          line +=
              "\nThe outputs are right, but the CPU backend found a bug that can give "
              "wrong results on a GPU:";
        else if (r.c.pass && sanitized.cut_short)
          line +=
              "\nThe outputs are right, but the run under compute-sanitizer cut the tool short:";
        else if (r.c.pass && sanitized.fails)
          line +=
              "\nThe outputs are right, but compute-sanitizer found a bug that can give wrong "
              "results:";
      } else {
        line = "FAIL " + r.ds->name + ": " + r.o.message;
        if (!r.left.empty()) line += "\n" + r.left;
      }
      const std::vector<std::string> strip = {(c_.work / "submission").string() + "/",
                                              c_.paths.source.string() + "/"};
      line += describe_sim_findings(r.o.sim_findings, strip) +
              describe_sanitizer_findings(sanitized.findings, strip) + sanitized.notes;
      add_sim_finding_sites(sites, r.o.sim_findings, c_.work / "submission", strip);
      out_.row(row);
      details += line + "\n";
    }
    const Award award = group_award(passed, static_cast<int>(sets.size()), points);
    const bool all = award.passed;
    if (!g.hidden) public_ok = public_ok && all;
    std::string output = std::to_string(passed) + " of " + std::to_string(sets.size()) + " " +
                         g.name + " datasets passed" +
                         (all ? "." : "; every one must pass for these points.");
    if (!g.hidden) output += "\n" + details;
    correctness_tests.push_back(
        out_.scored(part.name + ": correctness on the " + g.name + " datasets", award.score, points,
                    all, std::move(output), {part.name, g.name}));
    out_.test(correctness_tests.back()).on_hidden_datasets = g.hidden;
    size_t detailed = correctness_tests.back();  // the test whose output gives the details
    if (g.hidden)                                // the details, for instructors only
      detailed =
          out_.instructors_detail(part.name + ": " + g.name + " dataset details (instructors)",
                                  details, {part.name, g.name}, all);
    out_.test(detailed).sim_findings = std::move(sites);
  }
  if (!leaked_on.empty()) fail_for_state_leak(correctness_tests, leaked_on);
  return public_ok;
}

// One correctness run of the student's code on `d`, under its time limit (run_limit.h). On
// the CPU backend the limit follows the reference's CPU time there, measured only when needed:
// a run stopped at the floor before that time was known runs again where it allows more.
RunOutcome CorrectnessTests::correctness_run(const PartSpec& part, const DatasetDirs& d,
                                             const std::filesystem::path& out,
                                             const std::vector<std::string>& flags) {
  const auto limit_with = [&](std::optional<double> reference_s) {
    return correctness_limit(c_.o.backend, c_.o.run_timeout_s, reference_s,
                             runners_.reference_available(), c_.lab.sim_time_limit);
  };
  const auto run = [&](const RunLimit& limit) {
    const ScopedPhase phase(GradePhase::kRuns);
    RunRequest run(c_.student.runner, part, d, out, limit);
    run.flags = flags;
    return run_runner(c_.place(), run);
  };
  const std::optional<double> kept = kept_reference_cpu_s(part, d, flags);
  const RunLimit first = limit_with(kept);
  RunOutcome o = run(first);
  if (!o.timed_out || !first.awaits_reference) return o;
  const RunLimit known =
      limit_with(while_doing("the timing of the reference solution that sets your run's limit",
                             [&] { return reference_cpu_s(part, d, flags); }));
  if (known.cpu_s <= first.cpu_s) {  // the floor stands; the message says why
    o.message = run_failure(o.process, known);
    return o;
  }
  c_.steps.note(part.name + " on " + d.name + " again, stopped at the floor: " + known.why);
  remove_tree(out);  // what the stopped run left (remove_tree.h)
  return run(known);
}

// The reference's CPU time on `d` where it is kept already, on the CPU backend without
// --timeout; nothing is built or run for it.
std::optional<double> CorrectnessTests::kept_reference_cpu_s(
    const PartSpec& part, const DatasetDirs& d, const std::vector<std::string>& flags) {
  if (!c_.sim() || c_.o.run_timeout_s || !runners_.reference_available()) return std::nullopt;
  const auto build = runners_.reference_build();
  if (!build) return std::nullopt;
  return kept_reference_cpu_time(d, {part.name, flags, *build});
}

// The reference's CPU time on `d`, kept or measured now: one run of the reference's runner as
// the student's is run (the same flags), with the CPU backend's checks, outputs unchecked.
double CorrectnessTests::reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                                         const std::vector<std::string>& flags) {
  runners_.reference();  // built first: the time is kept under its build
  return reference_cpu_time(d, {part.name, flags, *runners_.reference_build()}, [&] {
    c_.steps.note("timing the reference's " + part.name + " on " + d.name +
                  " on the CPU backend, once: the time limit follows it");
    const ScopedPhase phase(GradePhase::kRuns);
    RunRequest run(runners_.reference(), part, d,
                   c_.work / "reference-runs" / part.name / d.group / d.name,
                   RunLimit::clock(kReferenceRunLimitS));
    run.flags = flags;
    const RunOutcome r = run_runner(c_.place(), run);
    if (!r.ran)
      throw std::runtime_error("the reference failed its run on " + d.name + ": " + r.message);
    // The runner's own count: a sandboxed run's CPU time does not reach the grader.
    const auto cpu_s = r.result.find(kCpuSecondsKey);
    if (cpu_s == r.result.end() || !cpu_s->is_number())
      throw std::runtime_error("the reference's runner reported no CPU time on " + d.name);
    return cpu_s->get<double>();
  });
}

// A second call went wrong on `dataset` after a right first call: the code keeps state from
// one call to the next, so it is wrong whenever it is called again, and no correctness group
// earns points, though each of their other datasets called it only once.
void CorrectnessTests::fail_for_state_leak(const std::vector<size_t>& tests,
                                           const std::string& dataset) {
  for (const size_t i : tests) {
    Test& t = out_.test(i);
    if (t.score == 0) continue;  // its own datasets say why
    t.score = 0;
    t.passed = false;
    t.output += "\nNo points: on the public dataset " + dataset +
                ", a second call of your function in the same process gave wrong outputs "
                "after a right first call (see that dataset's line). Every call must give the "
                "right outputs; these datasets called it only once.";
  }
}

}  // namespace gpulab
