// The lines that state a score to a reader (the score given, the late penalty's and the
// submission limit's reasons, a total), each counting only the tests that reader may see now.
// A platform that shows the tests on hidden datasets later (Gradescope) must not let a
// student read their points earlier through a sum: "47 becomes 32.9" where 17 of the 47 are
// hidden tests tells how those went. Every such line of every format is made here.
#pragma once

#include <optional>
#include <string>

#include "core/report.h"

namespace gpulab {

// Whether a line counts the tests on hidden datasets: instructors, and students of a platform
// that shows every test at once (PrairieLearn, GitHub Classroom), count them; a student of a
// platform that shows them later (Gradescope, a student's terminal) does not, until then.
enum class HiddenTests { kCounted, kHeldBack };

// Whether `t`'s points count in a line for `hidden`: every test when counted; held back, only
// the tests students see now (neither on hidden datasets nor the instructors' details).
bool counts(const Test& t, HiddenTests hidden);

// The points of the tests a line counts, and whether a test worth points was left out.
struct CountedPoints {
  double score = 0, max = 0;
  bool left_out = false;
};
CountedPoints counted_points(const Report& report, HiddenTests hidden);

// `points` less a late penalty's `fraction` of them, to 4 decimals: the score given and every
// line's figure alike.
double after_late_penalty(double points, double fraction);

// The score given as a line counts it: the counted tests' sum, less a late penalty's fraction
// of it; nullopt where the reader cannot be told it yet (a score kept from an earlier
// submission, which counts that submission's hidden tests too).
std::optional<double> given_points(const Report& report, HiddenTests hidden);

// "Score given: 21 of 30 on the tests shown now", "Score given: 12 of 30"; "" without an
// adjustment.
std::string score_given_line(const Report& report, HiddenTests hidden);

// The adjustment's reason with the points it changed, as the line counts them ("... so 30%
// off: 30 becomes 21. That counts ..."); "" without an adjustment.
std::string adjustment_line(const Report& report, HiddenTests hidden);

}  // namespace gpulab
