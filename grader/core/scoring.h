// The scoring rules of a grading, pure: no process, file or clock. The grading measures (runs,
// checks, times: correctness_tests.cpp, timed_tests.cpp) and asks these functions what the
// measurements are worth; the report builder (report_builder.h) takes each test's points and
// maximum from here. The rules, each once:
//
//   group        a correctness group's points are all or nothing: all of them when every
//                dataset of the group passed, none otherwise
//   maximum      a part's maximum is the sum of the maxima of the tests its grading holds
//                under the grading's scope (grade_scope.h), whether its code ran or not
//   curve        lab.json's "performance_curve": all of the performance points at a time ratio
//                of full_at_ratio or less, then full_at_ratio / ratio of them, none past
//                zero_past_ratio
//   ratio        the student's time over the reference's: the median over rounds of the ratio
//                within each round
//   speedup      the rubric's "speedup": all of its points at a speedup (the median over rounds
//                of baseline / student) of at least at_least, none below
//   growth       the rubric's "scalability": all of its points when the time per work unit
//                grows (the median over rounds of large / small) by at most max_growth
//   floor        a time below work / (ceiling_per_s * floor_slack) is implausible: no points
//   placeholder  a test that could not run scores 0 of its maximum
#pragma once

#include <string>
#include <vector>

#include "core/grade_scope.h"
#include "core/report.h"
#include "lab/lab_config.h"

namespace gpulab {

// What a measurement earns: a score and whether the test passed.
struct Award {
  double score = 0;
  bool passed = false;
};

// --- group ---

// A correctness group where `passed` of its `datasets` passed, worth `points`.
Award group_award(int passed, int datasets, double points);

// --- maximum ---

// The correctness points of `group` for a part (0 where the rubric gives the group none).
double group_max(const PartRubric& rubric, const std::string& group);
// The performance test's maximum: its points, or none without a reference to time against.
double performance_max(const PartRubric& rubric, const GradeScope& scope);
// The sum of the maxima of the tests that grading `part` under `scope` holds: the correctness
// groups that run here (with a dataset the scope wants), and where timed points are measured,
// the performance and speedup tests (where the part has a performance dataset here) and the
// scalability test. A GPU part that cannot run counts only in a grade of record
// (GradeOptions::of_record). A report of a part that did not build, or was not graded, states
// this maximum.
double part_max(const LabConfig& lab, const PartSpec& part, const GradeScope& scope);

// --- performance ---

// The fraction of the performance points a time ratio (student / reference) earns; none for a
// ratio that is not a positive number.
double curve_fraction(const PerformanceCurve& curve, double ratio);
Award performance_award(const PerformanceCurve& curve, double ratio, double max);
// The student's times over the reference's, round by round (timed in turns): the median ratio.
double time_ratio(const std::vector<double>& student_ms, const std::vector<double>& reference_ms);

// --- speedup ---

// The median over rounds of baseline / student (the two timed in the same round).
double speedup(const std::vector<double>& baseline_ms, const std::vector<double>& student_ms);
Award speedup_award(const SpeedupRubric& rubric, double speedup);

// --- data scalability ---

// The median over rounds of the time per work unit on the large dataset over the small one's.
double growth(const std::vector<double>& small_per_unit, const std::vector<double>& large_per_unit);
Award growth_award(const ScalabilityRubric& rubric, double growth);

// --- floors ---

// The least time in ms the hardware needs for `work` units at `ceiling_per_s` units per second,
// with `floor_slack` over it; 0 (no floor) where the ceiling or the work is not positive.
double floor_ms(double ceiling_per_s, double floor_slack, double work);

// --- placeholders ---

// A test that could not run (the code did not build, no GPU, not timed): 0 of `max`.
Test placeholder(std::string name, double max, std::string why, std::vector<std::string> tags);

}  // namespace gpulab
