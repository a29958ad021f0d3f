// lab.json's "timing", typed. Each setting's default is written once: the runner's sampling
// in harness/timing.h (TimingPolicy), the grader's settings below. A lab.json gives only what
// differs from them, and may give a part kind ("gpu", "cpu") settings of its own over the
// lab's: CPU runs vary more from process to process than GPU runs, so a lab can give its CPU
// parts more, shorter rounds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "timing.h"

namespace gpulab {

class LabJsonReader;

// The timing settings of one part kind, every field resolved.
struct TimingSettings {
  TimingPolicy policy;  // the runner's sampling (defaults in harness/timing.h)
  // A graded performance test times student and reference (and baseline) in turns, round
  // after round, the scalability test each of its two datasets; the score takes the median
  // over rounds. It takes `min_rounds` of them, and stops there when the values it scores, one
  // per round (the ratios within rounds, or the times where there is nothing to compare with),
  // agree within `rounds_agree` of their median; otherwise it takes all `rounds` (a spread only
  // widens as rounds are added, so it stops at one or the other). On an H100 a GPU part's
  // ratios agree within 1% where its call takes milliseconds and within 2-5% where it takes
  // about one or less (docs/PERF.md), so they stop at `min_rounds`; host work in the timed
  // call, or a busy machine, spreads them wider and earns the test every round. With
  // `rounds_agree` 0 a test takes all of its rounds unless they are exactly alike.
  int rounds = 7;
  int min_rounds = 3;
  double rounds_agree = 0.05;
  // The throughput the hardware cannot beat, in work units per second (0: none given): a time
  // below work / (ceiling_per_s * floor_slack) is rejected as implausible.
  double ceiling_per_s = 0;
  double floor_slack = 1.5;
  // The reference's rounds are timed once per GPU and kept (kept_reference_timing.h); a later
  // performance test times the reference in one round only, and uses the kept times while that
  // round's is within this fraction of theirs, else falls back to timing it in every round and
  // keeps the new times. 0: the reference is timed in every round. CPU parts default to 0
  // (LabTiming::parse): runs of the same CPU code vary by up to 20% from process to process on
  // a busy host (docs/PERF.md), so only adjacent runs compare fairly there.
  double kept_reference_drift = 0.03;
  // What the runner counts as work (prose, for readers of lab.json) and the unit messages
  // name.
  std::string work;
  std::string work_unit = "work unit";

  // Whether a timed test is done after `done` rounds, where `scored` holds the series of values
  // it scores, each with one value per round so far.
  bool rounds_done(int done, const std::vector<std::vector<double>>& scored) const;

  // The policy a graded timed run is held to: `warmup` calls, then exactly `samples` samples
  // (harness/sample_protocol.h).
  TimingPolicy graded_policy() const;
};

struct LabTiming {
  TimingSettings gpu, cpu;
  const TimingSettings& of(bool gpu_part) const { return gpu_part ? gpu : cpu; }
  // Lab-wide (a part kind cannot give its own).
  const std::string& work_unit() const { return gpu.work_unit; }

  // From lab.json's "timing" (absent: null, every default), checked key by key.
  static LabTiming parse(const nlohmann::json& timing, const LabJsonReader& r);
};

}  // namespace gpulab
