// Tests of a report as the report writers' unit tests build them.
#pragma once

#include <string>
#include <utility>

#include "core/report.h"

namespace test {

inline gpulab::Test make_test(std::string name, double score, double max, bool passed,
                              std::string output) {
  gpulab::Test t;
  t.name = std::move(name);
  t.score = score;
  t.max_score = max;
  t.passed = passed;
  t.output = std::move(output);
  return t;
}

}  // namespace test
