// grader/core/sim_finding_kinds.h: the grader's own copy of the sim's finding kinds decides which
// findings fail a dataset, by the kind's name alone.
#include "core/sim_finding_kinds.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using gpulab::sim_finding_fails;
using gpulab::sim_finding_kinds;

TEST_CASE("every sim finding kind has one name, and every error fails grading") {
  REQUIRE_FALSE(sim_finding_kinds().empty());
  std::set<std::string> names;
  for (const auto& k : sim_finding_kinds()) {
    CAPTURE(k.name);
    CHECK(names.insert(k.name).second);
    CHECK(sim_finding_fails(k.name) == k.fails_grading);
    // The kernel was stopped: its outputs say nothing.
    if (k.error) CHECK(k.fails_grading);
  }
}

TEST_CASE("the warnings that fail grading: races, lost updates, uninitialised reads") {
  std::set<std::string> failing_warnings, passing;
  for (const auto& k : sim_finding_kinds()) {
    if (!k.error && k.fails_grading) failing_warnings.insert(k.name);
    if (!k.fails_grading) passing.insert(k.name);
  }
  // Races lose updates on a GPU even where the CPU's order gave the right sums; memory nothing
  // wrote holds what a GPU happens to leave there, zeros in one block and not in the next.
  CHECK(failing_warnings ==
        std::set<std::string>{"global_race", "shared_race", "lost_update", "uninitialised_read"});
  CHECK(passing == std::set<std::string>{"warp_lockstep", "not_instrumented"});
}

TEST_CASE("a kind the runtime never sends fails: only the graded program could have written it") {
  CHECK(sim_finding_fails("no_such_kind"));
  CHECK(sim_finding_fails(""));
  CHECK(sim_finding_fails("Shared_race"));
  CHECK(sim_finding_fails("uninitialised_read"));
  CHECK_FALSE(sim_finding_fails("warp_lockstep"));
}
