// What the grader checks of a timed run's record (the "timing" of a runner's result.json)
// before it scores it. The runner times the student's function in the student's own process, so
// a submission that sets out to forge the record can write a consistent one: what stops that is
// the roofline floor (a time below what the hardware can do is rejected) and the checked outputs
// of the timed run. This catches the rest: a record written by hand, with a median that is not
// its samples' median, too few or too many samples for the policy, or times that are not
// positive.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "timing.h"

namespace gpulab {

// "" when the record holds together; otherwise what is wrong with it, in words. `policy` is the
// timing policy the runner was given (lab.json's timing for the part).
std::string timing_record_problem(const nlohmann::json& result, const TimingPolicy& policy);

}  // namespace gpulab
