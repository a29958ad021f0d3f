#include "grade/correctness_tests.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "core/grade_phases.h"
#include "core/scoring.h"
#include "core/sim_finding_sites.h"
#include "core/sim_findings_text.h"
#include "data/check.h"
#include "data/kept_outputs.h"
#include "data/reference_time.h"
#include "files/remove_tree.h"
#include "grade/correctness_batch.h"
#include "grade/error_map_files.h"
#include "grade/sanitizer_runs.h"
#include "os/process.h"
#include "runner_flags.h"
#include "text/joined_words.h"

namespace gpulab {

bool CorrectnessTests::grade(const PartSpec& part) {
  const PartRubric& rubric = c_.lab.rubric.at(part.name);
  const GradeScope& scope = c_.scope;
  bool public_ok = true;
  // Every call counts: on one dataset the function is called twice in one process, both
  // calls' outputs checked. A second call that goes wrong after a right first one fails every
  // correctness group of the part (fail_for_state_leak): other datasets call it only once.
  PartState state;
  state.called_twice = called_twice_on(c_.lab, part, scope);
  std::vector<size_t> correctness_tests;  // their places in the report
  for (const auto& g : c_.lab.groups) {
    if (scope.group_off_backend(g, rubric))
      out_.info(part.name + ": correctness on the " + g.name + " datasets not run (" +
                    backend_name(c_.o.backend) + " backend)",
                "lab.json runs these datasets on other backends only (" + g.backends_json().dump() +
                    "), so their points are left out here.",
                {part.name, g.name});
    if (!scope.group_runs(g)) continue;
    const std::vector<const DatasetSpec*> sets = scope.datasets(g, part.name);
    if (sets.empty()) continue;
    std::vector<SanitizerRuns::Verdict> verdicts;
    const std::vector<DatasetRun> runs = run_group(part, g, sets, state, verdicts);
    const size_t test = score_group(part, g, group_max(rubric, g.name), runs, verdicts, state);
    correctness_tests.push_back(test);
    if (!g.hidden) public_ok = public_ok && out_.test(test).passed;
  }
  if (!state.leaked_on.empty()) fail_for_state_leak(correctness_tests, state.leaked_on);
  return public_ok;
}

// Each dataset's run and check, in order. Under compute-sanitizer too, where this grading runs
// it (sanitizer_runs.h): the datasets it picks run under the tools in the background, beside the
// correctness runs (none of it is timed), and run first themselves. For grade they are already
// running, in the grading's processes under the tools (SanitizerRuns::start_for_grading): this
// group's own runs under the tools start only where those found something, to say whether it
// was here.
std::vector<CorrectnessTests::DatasetRun> CorrectnessTests::run_group(
    const PartSpec& part, const GroupSpec& g, const std::vector<const DatasetSpec*>& sets,
    PartState& state, std::vector<SanitizerRuns::Verdict>& verdicts) {
  std::vector<DatasetRun> runs(sets.size());
  std::vector<size_t> order(sets.size());
  std::vector<bool> picked(sets.size(), false);
  for (size_t i = 0; i < sets.size(); ++i) {
    order[i] = i;
    runs[i].ds = sets[i];
    if (sets[i] == state.called_twice) runs[i].flags = {kCallTwiceFlag};
  }
  std::optional<SanitizerRuns::Batch> tools;
  // The runs under the tools that the correctness runs go beside: the grading's or the group's.
  SanitizerRuns::Batch* beside = nullptr;
  const bool checked = c_.sanitizer && c_.sanitizer->applies(part, g) && !state.timed_out;
  if (checked) {
    // The smallest are picked: every dataset is made first, to be weighed.
    std::vector<std::filesystem::path> inputs;
    for (DatasetRun& r : runs) {
      within_share(g, r, [] {});
      inputs.push_back(r.d.input);
    }
    for (size_t i : c_.sanitizer->pick(inputs)) picked[i] = true;
    std::stable_partition(order.begin(), order.end(), [&](size_t i) { return picked[i]; });
    beside = c_.sanitizer->grading_runs_for(part, g);
    if (!beside) {
      beside = &tools.emplace(*c_.sanitizer);
      start_tools(part, runs, order, picked, *beside);
    }
  }
  const auto run_alone = [&](size_t i) {
    DatasetRun& r = runs[i];
    if (state.timed_out) {  // one hang is enough: do not wait out every dataset
      r.skipped = true;
      return;
    }
    run_dataset(part, g, r, beside, runs, state);
    if (r.o.timed_out && tools) {
      // Its runs under the tools would hang as long, and those of the datasets left will not
      // be told: both stop. Those of the datasets that ran go on.
      for (DatasetRun& other : runs)
        if ((&other == &r || !other.settled) && other.job >= 0)
          tools->cancel(static_cast<size_t>(other.job));
    }
  };
  // The part's first dataset and the one called twice alone; the rest in one process
  // (correctness_batch.h), and what it does not settle alone again.
  std::vector<size_t> batch;
  for (size_t i : order) {
    if (state.first_ran && runs[i].flags.empty()) {
      batch.push_back(i);
      continue;
    }
    run_alone(i);
    state.first_ran = true;
  }
  if (!state.timed_out)
    batch = run_batch(part, g, runs, batch_order(batch, part.name + "/" + g.name), state);
  for (size_t i : batch) run_alone(i);
  const bool by_grading = beside && beside == c_.sanitizer->grading_runs();
  if (by_grading && !while_doing("your code's runs under compute-sanitizer", [&] {
                       return c_.sanitizer->grading_verdict();
                     }).clean()) {
    // What the grading's runs found may be another part's: this group's picked datasets that
    // did not hang, under the tools once more, to tell.
    for (size_t i : order) picked[i] = picked[i] && !runs[i].skipped && !runs[i].o.timed_out;
    start_tools(part, runs, order, picked, tools.emplace(*c_.sanitizer));
  }
  if (tools)
    verdicts =
        while_doing("your code's runs under compute-sanitizer", [&] { return tools->verdicts(); });
  return runs;
}

// The picked datasets' runs under the tools, started in `tools`, in `order`; each run's place
// among its verdicts in its `job`.
void CorrectnessTests::start_tools(const PartSpec& part, std::vector<DatasetRun>& runs,
                                   const std::vector<size_t>& order,
                                   const std::vector<bool>& picked, SanitizerRuns::Batch& tools) {
  std::vector<SanitizerRuns::Job> jobs;
  for (size_t i : order)
    if (picked[i]) jobs.push_back({&part, runs[i].d, runs[i].flags});
  const std::vector<size_t> places = tools.start(jobs);
  for (size_t k = 0, i = 0; i < order.size(); ++i)
    if (picked[order[i]]) runs[order[i]].job = static_cast<int>(places[k++]);
}

// Within the part's share of a time budget (process.h's ChildDeadline), `r`'s dataset made if it
// is not yet, then `work`: what ran when it ran out, as the student may know it. A hidden
// dataset is not named, and anything that ran on one is told only with the hidden datasets'
// results (part_budgets.h).
void CorrectnessTests::within_share(const GroupSpec& g, DatasetRun& r,
                                    const std::function<void()>& work) {
  try {
    throw_if_out_of_time();  // a dataset made past the part's share only delays its end
    if (!r.made) r.d = c_.dataset(g, *r.ds);
    r.made = true;
    work();
  } catch (OutOfTime& stop) {
    if (stop.during.empty())
      stop.during =
          "your code's run on " + (g.hidden ? "a hidden dataset" : "the dataset " + r.ds->name);
    stop.during_hidden = stop.during_hidden || g.hidden;
    throw;
  }
}

// One dataset's run (again alone where it timed out beside the tools' runs) and check, and
// what the part keeps of it: a hang, a second call gone wrong, the one error map.
void CorrectnessTests::run_dataset(const PartSpec& part, const GroupSpec& g, DatasetRun& r,
                                   SanitizerRuns::Batch* tools, std::vector<DatasetRun>& runs,
                                   PartState& state) {
  const DatasetSpec* ds = r.ds;
  c_.steps.step(part.name + " on " + ds->name);
  const auto out = c_.work / "runs" / part.name / ds->name;
  within_share(g, r, [&] {
    const bool beside_tools = tools && tools->busy();  // until they have all ended
    r.o = correctness_run(part, r.d, out, r.flags);
    if (r.o.timed_out && beside_tools) {
      // The GPU took turns with those runs: a fair limit is one the run had alone. Its own
      // runs under the tools stop, and start again if it passes in time alone; the grading's
      // stop, and each group's start where it needs them (run_group).
      c_.log << "  " << part.name << " on " << ds->name
             << " timed out beside runs under compute-sanitizer: once more, alone\n";
      if (r.job >= 0) tools->cancel(static_cast<size_t>(r.job));
      if (tools == c_.sanitizer->grading_runs()) tools->cancel(0);
      tools->settle();
      r.o = correctness_run(part, r.d, out, r.flags);
      if (r.job >= 0 && !r.o.timed_out) {
        const int stopped = r.job, again = static_cast<int>(tools->again(r.job));
        for (DatasetRun& other : runs)
          if (other.job == stopped) other.job = again;
      }
    }
  });
  if (r.o.timed_out) {
    state.timed_out = true;
    state.hung_on = g.hidden ? "a hidden dataset" : "the dataset " + ds->name;
  }
  judge(part, g, r, state);
}

// What `r`'s run says: its failure's outputs as left, or its check; and what the part keeps of
// it: a second call gone wrong, the one error map, the outputs the grader was asked to keep.
void CorrectnessTests::judge(const PartSpec& part, const GroupSpec& g, DatasetRun& r,
                             PartState& state, std::optional<CheckResult> checked) {
  const DatasetSpec* ds = r.ds;
  r.settled = true;
  r.bug_found = std::any_of(r.o.sim_findings.begin(), r.o.sim_findings.end(), fails_dataset);
  // Found when called after other datasets in one process, not alone: that call's findings count.
  if (!r.bug_found &&
      std::any_of(r.found_in_batch.begin(), r.found_in_batch.end(), fails_dataset)) {
    r.bug_found = r.found_only_in_batch = true;
    r.o.sim_findings.insert(r.o.sim_findings.end(), r.found_in_batch.begin(),
                            r.found_in_batch.end());
  }
  if (!r.o.ran && !r.o.timed_out && !r.o.outputs->names().empty()) {
    const ScopedPhase phase(GradePhase::kCheck);
    r.left = outputs_left_by_failure(c_.lab, part, r.d, *r.o.outputs);
  }
  if (!r.o.ran) return;
  r.c = checked ? std::move(*checked) : [&] {
    const ScopedPhase phase(GradePhase::kCheck);
    return check_outputs(c_.lab, part, r.d, *r.o.outputs, false, ds == state.called_twice);
  }();
  if (r.c.state_leak) state.leaked_on = ds->name;
  if (r.wrong_in_batch && r.c.pass) {  // wrong after other datasets' calls, right alone
    r.c.pass = false;
    r.c.message =
        "wrong when called after other datasets in one process: " + r.wrong_in_batch->message +
        "\nRun alone, in a process of its own, it was right. Either your code keeps something "
        "from one call to the next (a static or global variable, memory it does not clear, a "
        "size it sets once), or its results vary from run to run (a race). Every call must give "
        "the right outputs.";
  }
  // Never of a hidden dataset, whose details are the instructor's (score_group).
  if (!r.c.pass && !g.hidden && !state.mapped) {
    const ScopedPhase phase(GradePhase::kCheck);
    if (auto drawn = draw_error_map_files(c_.lab, part, r.d, *r.o.outputs, c_.o, c_.log)) {
      state.mapped = true;
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

// The datasets of `batch` (places in `runs`, in the batch's order) in one process
// (correctness_batch.h): those it settles are judged; the others are returned, in that order, to
// run alone.
std::vector<size_t> CorrectnessTests::run_batch(const PartSpec& part, const GroupSpec& g,
                                                std::vector<DatasetRun>& runs,
                                                const std::vector<size_t>& batch,
                                                PartState& state) {
  if (batch.size() < 2) return batch;
  std::vector<RunLimit> limits;
  std::vector<std::string> names;
  for (size_t i : batch) {
    within_share(g, runs[i], [] {});  // made first, within the part's share
    limits.push_back(limit_on(part, runs[i].d, runs[i].flags));
    names.push_back(runs[i].ds->name);
  }
  c_.steps.step(part.name + " on " + std::to_string(batch.size()) + " " + g.name +
                " datasets in one process");
  RunRequest run(c_.student.runner, part, runs[batch[0]].d,
                 c_.work / "batch-runs" / part.name / g.name, batch_limit(limits));
  run.batch = true;
  for (size_t k = 1; k < batch.size(); ++k) run.samples.push_back(runs[batch[k]].d);
  RunOutcome o;
  try {
    throw_if_out_of_time();
    const ScopedPhase phase(GradePhase::kRuns);
    o = run_runner(c_.place(), run);
  } catch (OutOfTime& stop) {
    if (stop.during.empty())
      stop.during = g.hidden ? "your code's runs on the hidden datasets"
                             : "your code's runs on the datasets " + joined(names);
    stop.during_hidden = stop.during_hidden || g.hidden;
    throw;
  }
  if (!o.channel_problem.empty()) state.batch_spoke[g.name] = o.channel_problem;
  std::vector<BatchedDataset> each = split_batch(o, part.outputs, batch.size(), c_.sim());
  std::vector<size_t> alone;
  for (size_t k = 0; k < batch.size(); ++k) {
    DatasetRun& r = runs[batch[k]];
    r.found_in_batch = std::move(each[k].findings);
    if (each[k].outcome) {
      r.o = std::move(*each[k].outcome);
      CheckResult c = [&] {
        const ScopedPhase phase(GradePhase::kCheck);
        return check_outputs(c_.lab, part, r.d, *r.o.outputs, false, false);
      }();
      if (c.pass && each[k].settled) {
        judge(part, g, r, state, std::move(c));
        continue;
      }
      if (!c.pass) r.wrong_in_batch = std::move(c);  // and its run alone says what it says alone
    }
    r.o = {};
    alone.push_back(batch[k]);
  }
  if (!alone.empty())
    c_.log << "  " << part.name << ": " << alone.size() << " of " << batch.size() << " " << g.name
           << " datasets run again, each alone: the run of them all "
           << (o.ran ? (o.sim_findings.empty() ? "gave wrong outputs on some"
                                               : "had findings of the CPU backend")
                     : "failed (" + (o.message.empty() ? o.process.describe() : o.message) + ")")
           << "\n";
  return alone;
}

// The limit of one correctness run of `part` on `d` (run_limit.h): by the reference's CPU time
// there where it is given, else as far as it is known without running the reference.
RunLimit CorrectnessTests::limit_on(const PartSpec& part, const DatasetDirs& d,
                                    const std::vector<std::string>& flags,
                                    std::optional<double> reference_cpu_s) {
  if (!reference_cpu_s) reference_cpu_s = kept_reference_cpu_s(part, d, flags);
  return correctness_limit(c_.o.backend, c_.o.run_timeout_s, reference_cpu_s,
                           runners_.reference_available(), c_.lab.sim_time_limit);
}

// The group's test: each dataset's row and line, in lab.json's order; all its points when every
// dataset passed (group_award). Its place in the report.
size_t CorrectnessTests::score_group(const PartSpec& part, const GroupSpec& g, double points,
                                     const std::vector<DatasetRun>& runs,
                                     const std::vector<SanitizerRuns::Verdict>& verdicts,
                                     const PartState& state) {
  int passed = 0;
  std::string details;
  std::vector<SimFindingSite> sites;  // the CPU backend's findings, for the class view
  for (const DatasetRun& r : runs) {
    if (r.skipped) {
      out_.row({part.name, r.ds->name, "skipped", INFINITY, -1, -1, -1});
      details += "FAIL " + r.ds->name + ": not run: the run on " + state.hung_on +
                 " timed out, and one hang is enough\n";
      continue;
    }
    DatasetRow row{part.name, r.ds->name, "error", INFINITY, -1, -1, -1};
    const SanitizerRuns::Verdict none;
    const SanitizerRuns::Verdict& sanitized =
        r.job < 0 ? none : verdicts.at(static_cast<size_t>(r.job));
    details += dataset_line(r, sanitized, row, sites) + "\n";
    passed += row.result == "pass";
    out_.row(row);
  }
  // Only the student's code can have spoken out of turn: its verdicts are those of the runs
  // alone, and the reader is told why they ran alone.
  if (const auto spoke = state.batch_spoke.find(g.name); spoke != state.batch_spoke.end())
    details +=
        "Note: the run of these datasets in one process failed, and each ran again alone, "
        "in a process of its own: " +
        spoke->second + "\n";
  const Award award = group_award(passed, static_cast<int>(runs.size()), points);
  const bool all = award.passed;
  std::string output = std::to_string(passed) + " of " + std::to_string(runs.size()) + " " +
                       g.name + " datasets passed" +
                       (all ? "." : "; every one must pass for these points.");
  if (!g.hidden) output += "\n" + details;
  const size_t test = out_.scored(part.name + ": correctness on the " + g.name + " datasets",
                                  award.score, points, all, std::move(output), {part.name, g.name});
  out_.test(test).on_hidden_datasets = g.hidden;
  size_t detailed = test;  // the test whose output gives the details
  if (g.hidden)            // the details, for instructors only
    detailed = out_.instructors_detail(part.name + ": " + g.name + " dataset details (instructors)",
                                       details, {part.name, g.name}, all);
  out_.test(detailed).sim_findings = std::move(sites);
  return test;
}

// One dataset's line of the group's test, its row's result filled in: what its check said,
// then what the CPU backend or compute-sanitizer found.
std::string CorrectnessTests::dataset_line(const DatasetRun& r, const SanitizerRuns::Verdict& tools,
                                           DatasetRow& row,
                                           std::vector<SimFindingSite>& sites) const {
  // Datasets that ran under the tools together share one verdict, told in full under the first
  // of them: which one showed a finding, `gpulab run --sanitize` says.
  std::string ran_with = ":";
  bool told_here = true;
  if (tools.datasets.size() > 1) {
    told_here = tools.datasets.front() == r.ds->name;
    ran_with = " (the datasets " + joined(tools.datasets) +
               " ran together under it; `gpulab run --sanitize` runs each alone)" +
               (told_here ? ":" : ": see " + tools.datasets.front() + ".");
  }
  std::string line;
  if (r.o.ran) {
    const bool pass = r.c.pass && !r.bug_found && !tools.fails;
    row.result = pass ? "pass" : "FAIL";
    row.err_over_bound = r.c.max_err_over_bound;
    line = std::string(pass ? "PASS " : "FAIL ") + r.ds->name + ": " + r.c.message;
    if (!r.map_note.empty()) line += "\n" + r.map_note;
    if (r.c.pass && r.found_only_in_batch)
      line +=
          "\nThe outputs are right, but when this dataset was called after other datasets in "
          "one process, the CPU backend found a bug there that can give wrong results on a GPU "
          "(run alone, in a process of its own, it found none: your code keeps something from "
          "one call to the next, such as a buffer sized on an earlier call, or the bug depends "
          "on timing):";
    else if (r.c.pass && r.bug_found)
      line +=
          "\nThe outputs are right, but the CPU backend found a bug that can give "
          "wrong results on a GPU:";
    else if (r.c.pass && tools.cut_short)
      line += "\nThe outputs are right, but the run under compute-sanitizer cut the tool short" +
              ran_with;
    else if (r.c.pass && tools.fails)
      line +=
          "\nThe outputs are right, but compute-sanitizer found a bug that can give wrong "
          "results" +
          ran_with;
  } else {
    line = "FAIL " + r.ds->name + ": " + r.o.message;
    if (!r.left.empty()) line += "\n" + r.left;
  }
  const std::vector<std::string> strip = {(c_.work / "submission").string() + "/",
                                          c_.paths.source.string() + "/"};
  line += describe_sim_findings(r.o.sim_findings, strip);
  if (told_here) line += describe_sanitizer_findings(tools.findings, strip) + tools.notes;
  add_sim_finding_sites(sites, r.o.sim_findings, c_.work / "submission", strip);
  return line;
}

// One correctness run of the student's code on `d`, under its time limit (run_limit.h). On
// the CPU backend the limit follows the reference's CPU time there, measured only when needed:
// a run stopped at the floor before that time was known runs again where it allows more.
RunOutcome CorrectnessTests::correctness_run(const PartSpec& part, const DatasetDirs& d,
                                             const std::filesystem::path& out,
                                             const std::vector<std::string>& flags) {
  const auto run = [&](const RunLimit& limit) {
    const ScopedPhase phase(GradePhase::kRuns);
    RunRequest run(c_.student.runner, part, d, out, limit);
    run.flags = flags;
    return run_runner(c_.place(), run);
  };
  const RunLimit first = limit_on(part, d, flags);
  RunOutcome o = run(first);
  if (!o.timed_out || !first.awaits_reference) return o;
  const RunLimit known =
      limit_on(part, d, flags,
               while_doing("the timing of the reference solution that sets your run's limit",
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
