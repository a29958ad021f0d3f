// harness/runner_protocol.h: the runner's exit codes and statuses, each distinct, and what the
// grader reads of them.
#include "runner_protocol.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

TEST_CASE("every runner exit has a code and a status of its own") {
  std::set<int> codes;
  std::set<std::string> statuses;
  int exits = 0;
#define GPULAB_COUNT_EXIT(name, code, status, meaning) \
  ++exits;                                             \
  codes.insert(code);                                  \
  statuses.insert(status);                             \
  CHECK(std::string(meaning).size() > 0);
  GPULAB_RUNNER_EXITS(GPULAB_COUNT_EXIT)
#undef GPULAB_COUNT_EXIT
  CHECK(exits == 4);
  CHECK(codes.size() == static_cast<size_t>(exits));
  CHECK(statuses.size() == static_cast<size_t>(exits));
  // A shell reads 0 as success: only the part that ran exits 0.
  CHECK(gpulab::exit_code(gpulab::RunnerExit::ok) == 0);
  CHECK(std::string(gpulab::runner_status(gpulab::RunnerExit::ok)) == "ok");
  CHECK(std::string(gpulab::runner_status(gpulab::RunnerExit::no_gpu)) == "no-gpu");
  CHECK(std::string(gpulab::runner_status(gpulab::RunnerExit::usage)) == "usage");
}
