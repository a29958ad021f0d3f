// Where one grading's time goes, phase by phase, for `gpulab bench-grader` and the instructor's
// copy of the report (Report::phase_seconds). A phase is entered with a ScopedPhase where its
// work is done (building a runner, generating a dataset, a correctness run...); phases nest,
// and time is the innermost's: a dataset generated for a timed sample counts as generation, not
// as timing. Time in no phase is "other" (loading the lab, intake, process start-up, the
// report). With no clock running (gpulab's other commands), a ScopedPhase does nothing.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace gpulab {

// X(enumerator, name in reports and tables, what it holds)
#define GPULAB_GRADE_PHASES(X)                                                                   \
  X(kOther, "other", "loading the lab and the machine, intake, process start-up, the report")    \
  X(kBuild, "build", "compiling runners: the student's, and the reference's where not prebuilt") \
  X(kGenerate, "generate", "generating dataset inputs (cache misses only)")                      \
  X(kOracle, "oracle", "the oracle's expected outputs of generated datasets")                    \
  X(kRuns, "runs", "correctness runs of the student's and the reference's runners")              \
  X(kCheck, "check", "comparing outputs with the expected ones")                                 \
  X(kTiming, "timing", "timed rounds: the student's, the reference's and the baseline's runs")   \
  X(kStaging, "staging",                                                                         \
    "putting a run's runner and inputs where it sees them, collecting outputs")                  \
  X(kSanitizer, "sanitizer", "runs under compute-sanitizer")

enum class GradePhase {
#define GPULAB_PHASE_ENUM(e, name, what) e,
  GPULAB_GRADE_PHASES(GPULAB_PHASE_ENUM)
#undef GPULAB_PHASE_ENUM
};

constexpr size_t kGradePhaseCount = 0
#define GPULAB_PHASE_COUNT(e, name, what) +1
    GPULAB_GRADE_PHASES(GPULAB_PHASE_COUNT)
#undef GPULAB_PHASE_COUNT
    ;

const char* phase_name(GradePhase p);
const char* phase_meaning(GradePhase p);

// The clock of one grading: started by grade() on its thread, stopped by its destructor.
class PhaseClock {
 public:
  PhaseClock();  // starts counting, in kOther, on this thread
  ~PhaseClock();
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;

  // Seconds so far, by phase name; every phase is there, zero where none was spent.
  std::map<std::string, double> seconds() const;

 private:
  friend class ScopedPhase;
  using Clock = std::chrono::steady_clock;
  void switch_to(GradePhase p);  // charges the time since the last switch to the phase running

  std::array<double, kGradePhaseCount> seconds_{};
  GradePhase current_ = GradePhase::kOther;
  Clock::time_point since_;
  PhaseClock* outer_;  // the clock this one hid (a grading inside a grading: none today)
};

// The innermost phase while it lives, on this thread's clock.
class ScopedPhase {
 public:
  explicit ScopedPhase(GradePhase p);
  ~ScopedPhase();
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseClock* clock_;
  GradePhase outer_ = GradePhase::kOther;
};

}  // namespace gpulab
