// The timed tests of one part, as its rubric asks: performance (the student's time against the
// reference's), speedup (against the lab's baseline, timed in the same rounds) and data
// scalability (the growth of the time per work unit from a small dataset to a large one). The
// runs alternate in rounds, each in a process of its own, every timed call on inputs of its own
// whose outputs are checked; scoring.h says what the times are worth.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/report_builder.h"
#include "grade/grade_context.h"
#include "grade/runner_builds.h"
#include "lab/lab_timing.h"
#include "run/runner_client.h"

namespace gpulab {

// A timed test's extra data: the student's time of each round (so its length is the rounds the
// test took), read back by the speedup test and by bench-grader.
inline constexpr const char* kStudentSamplesKey = "student_samples_ms";

class TimedTests {
 public:
  TimedTests(const GradeContext& c, RunnerBuilds& runners, ReportBuilder& out)
      : c_(c), runners_(runners), out_(out) {}

  // Adds the part's timed tests; `public_ok`: every public dataset passed, which timing needs
  // (else each test says it was not timed, and scores nothing).
  void grade(const PartSpec& part, bool public_ok);

  // What the alternating rounds on one dataset measured: each round's median time in ms (the
  // student's as the outside clock allows it, outside_clock.h), the work each runner reported,
  // or why the student's code was not timed.
  // How a performance test had the reference's time (TimingSettings::kept_reference_drift).
  struct ReferenceTiming {
    // "alternated": timed in every round (nothing kept here: a CPU part, or the drift 0);
    // "first": none was kept for this GPU, so timed in every round and kept now;
    // "kept": the kept rounds, checked by one run in the first round, within the drift;
    // "refreshed": that run was further off, so timed in every round and kept anew.
    std::string how = "alternated";
    double kept_ms = 0;   // the kept rounds' median
    double check_ms = 0;  // the check run's median, beside it
    double drift = 0;     // check_ms / kept_ms - 1
    double allowed = 0;   // the largest |drift| the kept rounds are used at
    int kept_rounds = 0;
    std::string measured;  // when the kept rounds were timed
    bool gpu = true;       // kept for a GPU (a GPU part), else for a host
    // For the student: how the kept time was used, or why not ("" when none was kept).
    std::string words() const;
    nlohmann::json to_json() const;
  };
  struct Rounds {
    // reference: empty when it was not timed; else one value per round, the kept rounds'
    // median in every round where they were used.
    std::vector<double> student, reference;
    ReferenceTiming reference_timing;
    double work = 0, reference_work = 0;
    std::string failed;  // non-empty: a timed run failed or its outputs were wrong; why
    // The student's timed runs whose inside times the outside clock contradicted, of all timed,
    // the one it contradicted most (its median inside time and the outside bound), and each
    // run's median excess and the reference's median share beside it (outside_clock.h).
    int contradicted = 0, runs = 0;
    double worst_inside_ms = 0, worst_bound_ms = 0;
    std::vector<double> excess_ms, share_ms;
    // What a student's timed run counts (its samples `student`, the reference's on the same
    // samples `reference`), as outside_checked allows it.
    double counted(const PartSpec& part, const std::vector<SampleClock>& student,
                   const std::vector<SampleClock>& reference);
  };
  // Times the student's runner on `d` in the part's rounds, the reference's (with_reference)
  // and the lab's baseline's (into `baseline`, where given) beside it in each round
  // (round_order), every run of the student's checked. `row` gets the result of the checks.
  // The performance test and gpulab time (time_command.h) time this way.
  Rounds time_rounds(const PartSpec& part, const DatasetDirs& d, bool with_reference,
                     std::vector<double>* baseline, DatasetRow& row);

 private:
  Test speedup_test(const PartSpec& part, const Test& perf, const std::vector<double>& baseline);
  bool timed_student_run(const PartSpec& part, const DatasetDirs& d, const TimingSettings& timing,
                         const std::string& out_name, RunOutcome& o, DatasetRow& row,
                         std::string& why);
  double timed_baseline_run(const PartSpec& part, const DatasetDirs& d,
                            const TimingSettings& timing);
  std::string time_scalability(const PartSpec& part, Test& t);
  std::string time_part(const PartSpec& part, const GroupSpec& g, const DatasetSpec& ds, Test& t,
                        std::vector<double>* baseline);
  const std::vector<DatasetDirs>& timing_samples(const DatasetDirs& d,
                                                 const TimingSettings& timing);
  // The reference's last timed run on `d`'s samples, as the grader saw it (timed once here where
  // no round of this grading timed it yet); empty where there is no reference.
  const std::vector<SampleClock>& reference_samples(const PartSpec& part, const DatasetDirs& d,
                                                    const TimingSettings& timing);
  RunOutcome timed_reference_run(const PartSpec& part, const DatasetDirs& d,
                                 const TimingSettings& timing);
  // What the reference's timed rounds on `d` are kept under on this machine
  // (kept_reference_timing.h); null where nothing is kept (no machine to name).
  nlohmann::json kept_timing_key(const PartSpec& part, const DatasetDirs& d,
                                 const TimingSettings& timing);

  const GradeContext& c_;
  RunnerBuilds& runners_;
  ReportBuilder& out_;
  std::map<std::string, std::vector<DatasetDirs>> samples_;  // timing_samples(), by dataset
  std::map<std::string, std::vector<SampleClock>> reference_samples_;  // by dataset
};

}  // namespace gpulab
