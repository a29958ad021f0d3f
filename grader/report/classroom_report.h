// The result GitHub Classroom's autograding reporter reads (the format of its command grader's
// `result` output, before base64), written from the internal report (report.h). The reporter
// adds up the tests' scores and the results' max_score, and prints the message of each test
// that did not pass; so here:
//  - status "error" (the result's and every test's) where the submission was not graded (not
//    accepted, did not build) or there is no score (the grader failed, or was stopped; then
//    every test scores 0); else "pass" when every test passed, "fail" otherwise;
//  - a test per test of the report that students see and that is worth something to pass:
//    information lines (Test::info) and instructors' details (visibility "hidden") are not tests;
//    information lines and the report's headline open the message of the first test that did
//    not pass; a test that says nothing gets its points as its message;
//  - an adjustment of the score (a late penalty) is a test "score adjustment" carrying the
//    difference, so that the reporter's sum is the score given;
//  - messages share a budget, so that the encoded result fits in one environment variable.
#pragma once

#include <nlohmann/json.hpp>

#include "core/report.h"

namespace gpulab {

nlohmann::json classroom_result(const Report& report);

}  // namespace gpulab
