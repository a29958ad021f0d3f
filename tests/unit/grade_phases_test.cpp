// The phase clock of one grading (grader/core/grade_phases.h): time goes to the innermost phase,
// back to the outer one when it ends, to "other" outside every phase, and nowhere when no
// grading's clock runs.
#include "core/grade_phases.h"

#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

namespace {

using gpulab::GradePhase;
using gpulab::PhaseClock;
using gpulab::ScopedPhase;

void spend(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace

TEST_CASE("a phase within a phase: the time is the innermost's, then the outer's again") {
  const PhaseClock clock;
  spend(20);  // other
  {
    const ScopedPhase timing(GradePhase::kTiming);
    spend(30);
    {
      const ScopedPhase generating(GradePhase::kGenerate);  // a timed sample made on the way
      spend(60);
    }
    spend(30);
  }
  const auto s = clock.seconds();
  CHECK(s.at("other") >= 0.015);
  CHECK(s.at("other") < 0.055);
  CHECK(s.at("generate") >= 0.055);
  CHECK(s.at("generate") < 0.095);
  CHECK(s.at("timing") >= 0.055);  // 30 + 30, never the generation's 60 besides
  CHECK(s.at("timing") < 0.095);
  CHECK(s.at("build") == 0);
}

TEST_CASE("every phase of the list is in the clock's seconds, under its own name") {
  const PhaseClock clock;
  const auto s = clock.seconds();
  CHECK(s.size() == gpulab::kGradePhaseCount);
  std::set<std::string> names;
  for (size_t i = 0; i < gpulab::kGradePhaseCount; ++i) {
    const auto p = static_cast<GradePhase>(i);
    names.insert(gpulab::phase_name(p));
    CHECK(s.count(gpulab::phase_name(p)) == 1);
    CHECK(std::string(gpulab::phase_meaning(p)).size() > 10);
  }
  CHECK(names.size() == gpulab::kGradePhaseCount);
}

TEST_CASE("without a grading's clock a phase counts nothing; another thread has none") {
  { const ScopedPhase nobody(GradePhase::kBuild); }  // no clock: nothing to charge, no crash
  const PhaseClock clock;
  std::thread other([] {
    const ScopedPhase elsewhere(GradePhase::kSanitizer);  // this thread has no clock
    spend(40);
  });
  other.join();
  CHECK(clock.seconds().at("sanitizer") == 0);
}
