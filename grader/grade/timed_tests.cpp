#include "grade/timed_tests.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/grade_phases.h"
#include "core/scoring.h"
#include "data/check.h"
#include "data/kept_reference_timing.h"
#include "files/secret.h"
#include "grade/timing_machine.h"
#include "run/outside_clock.h"
#include "runner_flags.h"
#include "stats.h"

namespace gpulab {

namespace {

// What a timed sample's seed is drawn for (secret_seed's purpose).
constexpr const char* kTimedSamplePurpose = "gpulab timed sample";

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

// What the performance and speedup tests score, one value per round so far: the ratio of
// the student's time to the reference's (or the student's time, with no reference timed) and
// of the baseline's to the student's.
std::vector<std::vector<double>> scored_per_round(const TimedTests::Rounds& m,
                                                  const std::vector<double>* baseline) {
  std::vector<std::vector<double>> scored = {
      m.reference.empty() ? m.student : round_ratios(m.student, m.reference)};
  if (baseline) scored.push_back(round_ratios(*baseline, m.student));
  return scored;
}

// The key of a timing dataset in this grading's maps.
std::string dataset_key(const DatasetDirs& d) {
  return d.group + "/" + d.name;
}

// The inside times of a run's samples.
std::vector<double> inside_ms(const std::vector<SampleClock>& samples) {
  std::vector<double> ms;
  for (const SampleClock& s : samples) ms.push_back(s.inside_ms);
  return ms;
}

// What the outside clock said of the student's timed runs, for the test's message; "" where it
// contradicted none.
std::string outside_clock_note(const TimedTests::Rounds& m) {
  if (m.contradicted == 0) return "";
  return fmt("\ngpulab's own clock, outside your process, contradicted the times your process "
             "reported in %.0f of your %.0f timed runs",
             m.contradicted, m.runs) +
         fmt(" (the largest gap: a median of %.4g ms reported, while at least %.4g ms of work fit "
             "between gpulab handing over each call's inputs and receiving its outputs, beyond "
             "what the reference's own run needed for loading and capturing them)",
             m.worst_inside_ms, m.worst_bound_ms) +
         ". Each such run counts at the outside bound: work done before a call's clock starts "
         "or after it stops (in another thread, a signal or exit handler, or by rewriting "
         "gpulab's code or record) is still work done for that call.";
}

// What the outside clock saw, for the report's instructors (and docs/PERF.md's figures).
nlohmann::json outside_clock_record(const TimedTests::Rounds& m) {
  nlohmann::json j = {{"contradicted", m.contradicted}, {"runs", m.runs}};
  if (!m.excess_ms.empty()) {
    j["excess_ms_median"] = median(m.excess_ms);
    j["excess_ms_max"] = *std::max_element(m.excess_ms.begin(), m.excess_ms.end());
    j["reference_share_ms_median"] = median(m.share_ms);
  }
  return j;
}

}  // namespace

double TimedTests::Rounds::counted(const PartSpec& part, const std::vector<SampleClock>& student,
                                   const std::vector<SampleClock>& reference) {
  const OutsideChecked c = outside_checked(part.gpu, student, reference);
  ++runs;
  if (!reference.empty()) {
    excess_ms.push_back(c.excess_ms);
    share_ms.push_back(c.share_ms);
  }
  if (c.contradicted) {
    ++contradicted;
    if (c.bound_ms - median(inside_ms(student)) > worst_bound_ms - worst_inside_ms) {
      worst_inside_ms = median(inside_ms(student));
      worst_bound_ms = c.bound_ms;
    }
  }
  return c.ms;
}

namespace {

// Who is timed in a round of the performance test.
enum class Timed { student, reference, baseline };

// The order of round r's timed runs: the student's in the middle, next to the reference's and
// the baseline's (the ratio to each is taken within the round, and runs adjacent in time see
// the machine alike), reversed every other round (B S R, R S B, ...) so that neither goes first
// more often. Those not timed are left out: S R, R S, ... without a baseline, as before.
std::vector<Timed> round_order(int round, bool reference, bool baseline) {
  std::vector<Timed> order;
  if (reference) order.push_back(Timed::reference);
  order.push_back(Timed::student);
  if (baseline) order.push_back(Timed::baseline);
  if (round % 2 == 0) std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

// The performance test (time against the reference), the speedup test (time against the
// lab's baseline, timed in the same rounds) and the data-scalability test, as the rubric asks.
void TimedTests::grade(const PartSpec& part, bool public_ok) {
  const PartRubric& rubric = c_.lab.rubric.at(part.name);
  const char* not_timed = "Not timed: timed points need every public dataset to pass.";
  if (rubric.performance > 0 || rubric.speedup.points > 0) {
    const auto [g, ds] = performance_dataset(c_.lab, part, c_.scope);
    if (ds) {
      Test t;
      t.name = part.name + ": performance on " + ds->name;
      t.max_score = performance_max(rubric, c_.scope);
      t.tags = {part.name, "performance"};
      std::vector<double> baseline;
      t.output = public_ok
                     ? time_part(part, *g, *ds, t, rubric.speedup.points > 0 ? &baseline : nullptr)
                     : not_timed;
      if (rubric.speedup.points > 0) out_.add(speedup_test(part, t, baseline));
      if (rubric.performance > 0) out_.add(t);
    }
  }
  if (rubric.scalability.points > 0) {
    Test t;
    t.max_score = rubric.scalability.points;
    t.tags = {part.name, "scalability"};
    t.name = part.name + ": data scalability, " + rubric.scalability.small + " to " +
             rubric.scalability.large;
    t.output = public_ok ? time_scalability(part, t) : not_timed;
    out_.add(t);
  }
}

// The speedup over the lab's baseline, from the performance test's rounds: each round timed
// the baseline in a process of its own (baseline_runner) next to the student's run, so the
// ratio of the two is taken within the round, and the median over rounds is scored.
Test TimedTests::speedup_test(const PartSpec& part, const Test& perf,
                              const std::vector<double>& baseline) {
  const SpeedupRubric& r = c_.lab.rubric.at(part.name).speedup;
  Test t;
  t.name = part.name + ": speedup over the baseline";
  t.max_score = r.points;
  t.tags = {part.name, "speedup"};
  const std::vector<double> student = perf.extra.value(kStudentSamplesKey, std::vector<double>{});
  if (baseline.empty() || baseline.size() != student.size() ||
      perf.extra.value("implausible", false)) {
    // The performance test says why; it is in the report only when it has points.
    t.output = "Not measured: " + (c_.lab.rubric.at(part.name).performance > 0
                                       ? std::string("see the performance test.")
                                       : perf.output);
    return t;
  }
  const double s = speedup(baseline, student);
  const Award award = speedup_award(r, s);
  t.passed = award.passed;
  t.score = award.score;
  t.extra = {{"speedup", s}, {"baseline_ms", median(baseline)}, {"at_least", r.at_least}};
  t.output =
      fmt("The baseline took %.4g ms where your code took %.4g ms: ", median(baseline),
          median(student)) +
      fmt("a speedup of %.2fx (the median over %.0f rounds; each round times both, one "
          "after the other, each in a process of its own). ",
          s, static_cast<double>(student.size())) +
      fmt(t.passed ? "At least %.2fx earns these points." : "These points need at least %.2fx.",
          r.at_least);
  return t;
}

// One timed run of the student's runner whose outputs are checked too. On failure returns
// false with `why` set for the student.
bool TimedTests::timed_student_run(const PartSpec& part, const DatasetDirs& d,
                                   const TimingSettings& timing, const std::string& out_name,
                                   RunOutcome& o, DatasetRow& row, std::string& why) {
  const auto out = c_.work / "timed" / part.name / out_name;
  const TimingPolicy graded = timing.graded_policy();
  const std::vector<DatasetDirs>& samples = timing_samples(d, timing);
  RunRequest run(c_.student.runner, part, d, out, RunLimit::clock(c_.o.timed_run_timeout_s));
  run.timing = graded;
  run.samples = samples;
  o = run_runner(c_.place(), run);
  if (!o.ran) {
    row.result = "error";
    why = "Not timed: " + o.message;
    return false;
  }
  if (o.samples.size() != samples.size()) {  // the channel took them in order, each once
    row.result = "error";
    why = "Not timed: the timed run handed gpulab " + std::to_string(o.samples.size()) + " of " +
          std::to_string(samples.size()) + " timed samples.";
    return false;
  }
  // Every timed call saw inputs of its own, never seen before: a result kept from an earlier
  // call, or worked out only for some calls, is wrong here. (The run's first call and warmup,
  // on the dataset itself, write nothing: they are not timed.)
  const ScopedPhase checking(GradePhase::kCheck);
  const CheckResult sc = check_sample_outputs(c_.lab, part, samples, *o.outputs);
  row.err_over_bound = std::max(row.err_over_bound, sc.max_err_over_bound);
  if (!sc.pass) {
    row.result = "FAIL";
    why =
        "The outputs of timed calls are wrong, so no timed points. Each timed call gets "
        "inputs of its own, none seen before, and every one's outputs are checked: a "
        "result kept from an earlier call, or computed only for some calls, fails here.\n" +
        sc.message;
    return false;
  }
  return true;
}

// One timed run of the lab's baseline (baseline_runner: no student code) on `d`; its median.
// The baseline is trusted code, timed in its process by the runner's own loop (bench's), so it
// gets no samples of its own to ask for.
double TimedTests::timed_baseline_run(const PartSpec& part, const DatasetDirs& d,
                                      const TimingSettings& timing) {
  RunRequest run(runners_.baseline(), part, d, c_.work / "timed" / part.name / "baseline",
                 RunLimit::clock(c_.o.timed_run_timeout_s));
  run.timing = timing.policy;
  run.flags = {kTimeBaselineFlag};
  const RunOutcome o = run_runner(c_.place(), run);
  if (!o.ran) throw std::runtime_error("the lab's baseline failed its timed run: " + o.message);
  if (!o.result.contains("baseline"))
    throw std::runtime_error("the runner of " + part.name +
                             " timed no baseline, though the rubric gives speedup points");
  return timing_median(o.result["baseline"]);
}

// Times the student's code on the scalability pair, alternating the two datasets, and scores
// the growth of the time per work unit (the median over rounds of large over small).
std::string TimedTests::time_scalability(const PartSpec& part, Test& t) {
  const ScopedPhase phase(GradePhase::kTiming);
  const ScalabilityRubric& r = c_.lab.rubric.at(part.name).scalability;
  const TimingSettings& timing = c_.lab.timing_for(part);
  const int rounds = timing.rounds;
  const GroupSpec* groups[2] = {nullptr, nullptr};
  const DatasetSpec* specs[2] = {c_.lab.timing_dataset(r.small, part.name, &groups[0]),
                                 c_.lab.timing_dataset(r.large, part.name, &groups[1])};
  const DatasetDirs dirs[2] = {c_.dataset(*groups[0], *specs[0]),
                               c_.dataset(*groups[1], *specs[1])};
  std::vector<double> per_unit[2], ms[2];
  Rounds m;  // for the outside clock's count
  DatasetRow rows[2] = {{part.name, specs[0]->name, "pass", 0, -1, -1, -1},
                        {part.name, specs[1]->name, "pass", 0, -1, -1, -1}};
  for (int round = 0; !timing.rounds_done(round, {round_ratios(per_unit[1], per_unit[0])});
       ++round) {
    for (int n = 0; n < 2; ++n) {
      const int k = (n == 0) == (round % 2 == 0) ? 0 : 1;
      c_.steps.note("timing your " + part.name + " on " + specs[k]->name + " (round " +
                    std::to_string(round + 1) + ", at most " + std::to_string(rounds) + ")");
      RunOutcome o;
      std::string why;
      if (!timed_student_run(part, dirs[k], timing, specs[k]->name, o, rows[k], why)) {
        out_.row(rows[k]);
        return why;
      }
      const double work = o.result.value("work", 0.0);
      if (!(work > 0))
        throw std::runtime_error("the runner of " + part.name + " reports no work on " +
                                 specs[k]->name + ", so time per unit is undefined");
      ms[k].push_back(m.counted(part, o.samples, reference_samples(part, dirs[k], timing)));
      if (const double least = floor_ms(timing.ceiling_per_s, timing.floor_slack, work);
          ms[k].back() < least) {
        t.extra = {{"implausible", true}};
        out_.row(rows[k]);
        return "Your time on " + specs[k]->name +
               fmt(", %.4g ms, is less than the hardware needs for this work (%.4g ms), so "
                   "the timing is rejected as implausible.",
                   ms[k].back(), least);
      }
      per_unit[k].push_back(ms[k].back() / work);
    }
  }
  for (int k = 0; k < 2; ++k) {  // the terminal table's rows: the student's median times
    rows[k].student_ms = median(ms[k]);
    out_.row(rows[k]);
  }
  const std::string& unit = timing.work_unit;
  const double g = growth(per_unit[0], per_unit[1]);
  const Award award = growth_award(r, g);
  t.passed = award.passed;
  t.score = award.score;
  t.extra = {{"growth", g},
             {"small_ns_per_unit", median(per_unit[0]) * 1e6},
             {"large_ns_per_unit", median(per_unit[1]) * 1e6},
             {"max_growth", r.max_growth}};
  return "Your time per unit of work (" + unit +
         "): " + fmt("%.4g ns on ", median(per_unit[0]) * 1e6) + r.small +
         fmt(", %.4g ns on ", median(per_unit[1]) * 1e6) + r.large +
         fmt(": it grows %.3fx (the median over %.0f rounds). ", g,
             static_cast<double>(per_unit[0].size())) +
         fmt(t.passed ? "At most %.2fx earns these points: your code scales with the data."
                      : "These points need at most %.2fx: does the work per point still grow "
                        "with the size of the input?",
             r.max_growth) +
         outside_clock_note(m);
}

// Alternates student and reference timed runs (S R R S S R ..., with a baseline B S R R S B
// ...: round_order) so slow drifts of the machine hit both alike. The score uses the median
// over rounds of the ratio within each round: a round's runs are adjacent in time, so a busy
// spell of the machine lasting a few seconds moves a round's times together, and the median
// drops the round it split.
// (On the H100 host, 20 runs of the same CPU code spread 20% while adjacent pairs agreed:
// docs/PERF.md.)
// Where the reference's rounds on this GPU are kept (kept_reference_timing.h), the reference is
// timed in the first round only, as a check: within the drift the settings allow of the kept
// rounds' median, every round's ratio is taken to that median; further off (the GPU slower or
// faster than when they were kept: another process on it, lower clocks), the test falls back
// to timing it in every round and keeps the new rounds.
TimedTests::Rounds TimedTests::time_rounds(const PartSpec& part, const DatasetDirs& d,
                                           bool with_reference, std::vector<double>* baseline,
                                           DatasetRow& row) {
  const ScopedPhase phase(GradePhase::kTiming);
  const TimingSettings& timing = c_.lab.timing_for(part);
  const int rounds = timing.rounds;
  Rounds m;
  const nlohmann::json key = with_reference && timing.kept_reference_drift > 0
                                 ? kept_timing_key(part, d, timing)
                                 : nlohmann::json();
  const std::optional<KeptReferenceTiming> kept =
      key.is_null() ? std::nullopt : kept_reference_timing(d, key);
  ReferenceTiming& how = m.reference_timing;
  how.gpu = part.gpu;
  if (!key.is_null()) how.how = kept ? "kept" : "first";
  how.allowed = timing.kept_reference_drift;
  if (kept) {
    how.kept_ms = median(kept->round_ms);
    how.kept_rounds = static_cast<int>(kept->round_ms.size());
    how.measured = kept->measured;
  }
  std::vector<double> timed_reference;  // the reference's rounds as timed here
  for (int r = 0; !timing.rounds_done(r, scored_per_round(m, baseline)); ++r) {
    // The round's two runs of the same samples, adjacent in time: the reference's tells the
    // harness's own share of the outside clock's window on each (outside_clock.h); in a round
    // that uses the kept rounds, the check run's does.
    const bool use_kept = how.how == "kept";
    std::vector<SampleClock> student, reference;
    if (use_kept && r > 0) reference = reference_samples_[dataset_key(d)];
    for (const Timed who :
         round_order(r, with_reference && (!use_kept || r == 0), baseline != nullptr)) {
      const char* whose = who == Timed::student     ? "your "
                          : who == Timed::reference ? "reference "
                                                    : "the baseline for ";
      c_.steps.note("timing " + std::string(whose) + part.name + " on " + d.name + " (round " +
                    std::to_string(r + 1) + ", at most " + std::to_string(rounds) + ")" +
                    (who == Timed::reference && use_kept ? ", a check of its kept time" : ""));
      if (who == Timed::baseline) {
        baseline->push_back(timed_baseline_run(part, d, timing));
        continue;
      }
      if (who == Timed::reference) {
        const RunOutcome o = timed_reference_run(part, d, timing);
        reference = o.samples;
        timed_reference.push_back(median(inside_ms(o.samples)));
        m.reference_work = o.result.value("work", 0.0);
        if (use_kept) {
          how.check_ms = timed_reference.back();
          how.drift = how.check_ms / how.kept_ms - 1;
          if (!(std::abs(how.drift) <= how.allowed)) how.how = "refreshed";
        }
        continue;
      }
      RunOutcome o;
      if (!timed_student_run(part, d, timing, "student", o, row, m.failed)) return m;
      student = o.samples;
      m.work = o.result.value("work", 0.0);
    }
    if (with_reference)
      m.reference.push_back(how.how == "kept" ? how.kept_ms : timed_reference.back());
    m.student.push_back(m.counted(part, student, reference));
  }
  if (how.how == "first" || how.how == "refreshed") {
    try {
      keep_reference_timing(d, key, {timed_reference, m.reference_work, ""});
    } catch (const std::exception& e) {  // the grade stands; the next one times it again
      c_.log << "  The reference's timed rounds on " << d.name << " were not kept: " << e.what()
             << "\n";
    }
  }
  return m;
}

nlohmann::json TimedTests::kept_timing_key(const PartSpec& part, const DatasetDirs& d,
                                           const TimingSettings& timing) {
  const nlohmann::json machine = timing_machine(c_.device, part.gpu);
  runners_.reference();  // built, where it is built here, for its content
  const std::optional<std::string> build = runners_.reference_build();
  if (machine.is_null() || !build) return nullptr;
  // The samples' cache entries name their content: the generator, its parameters and each
  // sample's seed, which the instructor's secret draws.
  nlohmann::json samples = nlohmann::json::array();
  for (const DatasetDirs& sample : timing_samples(d, timing))
    samples.push_back(sample.input.parent_path().filename().string());
  return {{"machine", machine},        {"reference", *build}, {"part", part.name},
          {"dataset", dataset_key(d)}, {"samples", samples},  {"policy", timing.graded_policy()}};
}

std::string TimedTests::ReferenceTiming::words() const {
  const std::string here = gpu ? "this GPU" : "this machine";
  if (how == "kept")
    return "The reference's time is the one kept for " + here +
           fmt(", %.4g ms (the median of %.0f rounds timed ", kept_ms, kept_rounds) + measured +
           fmt("); a run of the reference beside your first round took %.4g ms, %+.1f%% of it, ",
               check_ms, 100 * drift) +
           fmt("within the %.3g%% allowed. ", 100 * allowed);
  if (how == "refreshed")
    return "The reference's time kept for " + here +
           fmt(", %.4g ms, was not used: a run of it now took %.4g ms, ", kept_ms, check_ms) +
           fmt("%+.1f%% off where at most %.3g%% is allowed", 100 * drift, 100 * allowed) + " (" +
           here +
           " is not as it was), so the reference was timed in every round instead, and that time "
           "is kept now. ";
  return "";
}

nlohmann::json TimedTests::ReferenceTiming::to_json() const {
  nlohmann::json j = {{"how", how}};
  if (how == "kept" || how == "refreshed")
    j.update({{"kept_ms", kept_ms},
              {"kept_rounds", kept_rounds},
              {"measured", measured},
              {"check_ms", check_ms},
              {"drift", drift},
              {"allowed_drift", allowed}});
  return j;
}

// One timed run of the reference on `d`'s samples: trusted, so its outputs are not checked, nor
// its inputs after its calls (kReferenceFlag), but it hands its outputs over as the student's run
// does, so that its window on the outside clock holds the same work of the harness's
// (outside_clock.h).
RunOutcome TimedTests::timed_reference_run(const PartSpec& part, const DatasetDirs& d,
                                           const TimingSettings& timing) {
  const std::vector<DatasetDirs>& samples = timing_samples(d, timing);
  RunRequest run(runners_.reference(), part, d, c_.work / "timed" / part.name / "reference",
                 RunLimit::clock(c_.o.timed_run_timeout_s));
  run.timing = timing.graded_policy();
  run.flags = {kReferenceFlag};
  run.samples = samples;
  RunOutcome o = run_runner(c_.place(), run);
  if (!o.ran) throw std::runtime_error("the reference failed its timed run: " + o.message);
  if (o.samples.size() != samples.size())
    throw std::runtime_error("the reference's timed run handed over " +
                             std::to_string(o.samples.size()) + " of " +
                             std::to_string(samples.size()) + " samples");
  reference_samples_[dataset_key(d)] = o.samples;
  return o;
}

const std::vector<SampleClock>& TimedTests::reference_samples(const PartSpec& part,
                                                              const DatasetDirs& d,
                                                              const TimingSettings& timing) {
  static const std::vector<SampleClock> none;
  if (!c_.scope.reference) return none;
  if (const auto it = reference_samples_.find(dataset_key(d)); it != reference_samples_.end())
    return it->second;
  c_.steps.note("timing reference " + part.name + " on " + d.name +
                " (for the outside clock's share)");
  timed_reference_run(part, d, timing);
  return reference_samples_[dataset_key(d)];
}

// The performance test: time_rounds against the reference where there is one (and the
// baseline, for the speedup test), scored by the curve.
std::string TimedTests::time_part(const PartSpec& part, const GroupSpec& g, const DatasetSpec& ds,
                                  Test& t, std::vector<double>* baseline) {
  const DatasetDirs d = c_.dataset(g, ds);
  const TimingSettings& timing = c_.lab.timing_for(part);
  DatasetRow row{part.name, ds.name, "pass", 0, -1, -1, -1};
  const bool with_reference = c_.scope.reference;
  const Rounds m = time_rounds(part, d, with_reference, baseline, row);
  if (!m.failed.empty()) {
    out_.row(row);
    return m.failed;
  }
  const std::vector<double>&student = m.student, &reference = m.reference;
  const double work = m.work, reference_work = m.reference_work;
  if (!with_reference) {
    row.student_ms = median(student);
    out_.row(row);
    t.extra = {{"student_ms", row.student_ms}, {"work", work}, {kStudentSamplesKey, student}};
    return fmt(
        "Your median time %.4g ms. There is no reference solution here (the student kit "
        "has none), so no time ratio: these points are left out, and given when your "
        "submission is graded.",
        row.student_ms);
  }
  const double s = median(student), ref = median(reference);
  const double ratio = time_ratio(student, reference);
  row.student_ms = s;
  row.reference_ms = ref;
  row.ratio = ratio;
  out_.row(row);
  t.extra = {{"student_ms", s},
             {"reference_ms", ref},
             {"ratio", ratio},
             {"work", work},
             {kStudentSamplesKey, student},
             {"reference_samples_ms", reference},
             {"reference_timing", m.reference_timing.to_json()},
             {"outside_clock", outside_clock_record(m)}};
  // The leaderboard ranks GPU kernels timed on a GPU; a CPU part's time says little of the work.
  if (part.gpu) out_.leaderboard({part.name + " time (ms)", s, "asc"});
  const double n = static_cast<double>(student.size());
  std::string out =
      fmt("Your median time %.4g ms, the reference's %.4g ms. ", s, ref) +
      (m.reference_timing.how == "kept"
           ? fmt("Your time over the reference's is %.3f (the median over your %.0f rounds). ",
                 ratio, n)
           : fmt("Your time over the reference's, timed one after the other in %.0f rounds, is "
                 "%.3f (the median over rounds). ",
                 n, ratio)) +
      m.reference_timing.words();
  // The floor counts the work the reference's run reported: the student's runner reports it
  // from the student's process, and the two runs did the same dataset.
  if (const double least = floor_ms(timing.ceiling_per_s, timing.floor_slack,
                                    reference_work > 0 ? reference_work : work);
      s < least || (reference_work > 0 && work != reference_work)) {
    t.score = 0;
    t.extra["implausible"] = true;
    if (reference_work > 0 && work != reference_work)
      return out +
             "Your timed run reported other work than the reference's on the same "
             "dataset, so the timing is rejected as implausible.";
    return out + fmt("That is faster than the hardware can do this work (floor %.4g ms), so "
                     "the timing is rejected as implausible.",
                     least);
  }
  const double f = curve_fraction(c_.lab.curve, ratio);
  const Award award = performance_award(c_.lab.curve, ratio, t.max_score);
  t.score = award.score;
  t.passed = award.passed;
  out += fmt("Full points at a ratio of %.2f or less; this earns %.0f%% of them.",
             c_.lab.curve.full_at_ratio, 100 * f);
  return out + outside_clock_note(m);
}

// The datasets of a graded timed run's samples on the timing dataset `d`: made by its
// generator with its parameters, each with a seed of its own drawn from the instructor's
// secret, so that no two samples share content and students cannot make them beforehand.
const std::vector<DatasetDirs>& TimedTests::timing_samples(const DatasetDirs& d,
                                                           const TimingSettings& timing) {
  auto& found = samples_[dataset_key(d)];
  if (!found.empty()) return found;
  const GroupSpec* g = nullptr;
  const DatasetSpec* spec = nullptr;
  for (const auto& group : c_.lab.groups)
    for (const auto& ds : group.datasets)
      if (group.name == d.group && ds.name == d.name) g = &group, spec = &ds;
  if (!spec) throw std::runtime_error("no dataset " + d.group + "/" + d.name + " in lab.json");
  const int n = timing.graded_policy().samples;
  for (int k = 1; k <= n; ++k) {
    DatasetSpec sample = *spec;
    sample.name = spec->name + ".sample-" + std::to_string(k);
    sample.seed = secret_seed(c_.hidden_seed, kTimedSamplePurpose, sample.name);
    c_.steps.note("preparing timed sample " + std::to_string(k) + " of " + std::to_string(n) +
                  " on " + spec->name);
    found.push_back(c_.dataset(*g, sample));
  }
  return found;
}

}  // namespace gpulab
