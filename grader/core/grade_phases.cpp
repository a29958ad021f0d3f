#include "core/grade_phases.h"

namespace gpulab {

namespace {

thread_local PhaseClock* running_clock = nullptr;

struct PhaseText {
  const char* name;
  const char* what;
};

constexpr PhaseText kPhaseTexts[] = {
#define GPULAB_PHASE_TEXT(e, name, what) {name, what},
    GPULAB_GRADE_PHASES(GPULAB_PHASE_TEXT)
#undef GPULAB_PHASE_TEXT
};

}  // namespace

const char* phase_name(GradePhase p) {
  return kPhaseTexts[static_cast<size_t>(p)].name;
}

const char* phase_meaning(GradePhase p) {
  return kPhaseTexts[static_cast<size_t>(p)].what;
}

PhaseClock::PhaseClock() : since_(Clock::now()), outer_(running_clock) {
  running_clock = this;
}

PhaseClock::~PhaseClock() {
  running_clock = outer_;
}

void PhaseClock::switch_to(GradePhase p) {
  const auto now = Clock::now();
  seconds_[static_cast<size_t>(current_)] += std::chrono::duration<double>(now - since_).count();
  since_ = now;
  current_ = p;
}

std::map<std::string, double> PhaseClock::seconds() const {
  std::map<std::string, double> s;
  for (size_t i = 0; i < kGradePhaseCount; ++i) {
    double t = seconds_[i];
    if (i == static_cast<size_t>(current_))
      t += std::chrono::duration<double>(Clock::now() - since_).count();
    s[phase_name(static_cast<GradePhase>(i))] = t;
  }
  return s;
}

ScopedPhase::ScopedPhase(GradePhase p) : clock_(running_clock) {
  if (!clock_) return;
  outer_ = clock_->current_;
  clock_->switch_to(p);
}

ScopedPhase::~ScopedPhase() {
  if (clock_) clock_->switch_to(outer_);
}

}  // namespace gpulab
