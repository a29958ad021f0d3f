// PrairieLearn's external grader results.json, written from the internal report (report.h).
// PrairieLearn shows every field of it to the student, and has no per-test visibility and no
// results held back until a due date, so:
//  - score: final_score() over max_score(), a fraction in [0, 1];
//  - gradable false, with a message that says why, where the submission could not be graded:
//    not accepted, did not build (as PrairieLearn's own graders treat a compile error: the
//    compiler's words in `output`, no tests), the grader failed or was stopped, or nothing graded
//    here carries points (a question set up for parts this backend leaves out);
//  - tests: each test a student sees, its message the first line of its output and its output
//    the rest; information lines (Test::info) are no tests but lines of the top-level output;
//    instructors-only tests (visibility "hidden") are left out, since students would see them;
//    tests on hidden datasets are shown at once with their points and how many datasets passed
//    (their score is in the total anyway), never the datasets' details, which are those
//    instructors-only tests.
//  - images: the maps of where failing outputs are wrong (report.h's ReportImage), each a PNG
//    inline as a data URL with its label, in the report's order while their URLs total at most
//    kPrairieLearnImageBytes: PrairieLearn takes a results.json of up to 1 MB, and the tests'
//    output needs the rest. A map left out is still named in its test's output.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

#include "core/report.h"

namespace gpulab {

constexpr size_t kPrairieLearnImageBytes = 400 * 1024;

nlohmann::json prairielearn_results(const Report& report);

}  // namespace gpulab
