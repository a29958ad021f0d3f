// harness/input_sets.h, through the timing protocol of run_cpu_part: every timed sample sees its
// input afresh (what the previous call wrote into it is gone) at an address no earlier call
// saw, so results kept by input address are never found again, and the timed outputs come from
// the true inputs; and a call that wrote into its const inputs is found, the input named.
// (Outputs are not handed over here: a unit test has no grader's channel.)
#include "input_sets.h"

#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "npy.h"
#include "run_part.h"
#include "student_call.h"
#include "test_util.h"

namespace {

gpulab::RunContext timed_context(int samples) {
  gpulab::prepare_student_calls(false, true);
  gpulab::RunContext ctx{{}, true, {}, {}};
  ctx.write_outputs = false;
  ctx.policy.warmup = 2;
  ctx.policy.min_samples = samples;
  ctx.policy.max_samples = samples;
  ctx.policy.input_sets = 4;
  return ctx;
}

}  // namespace

TEST_CASE("each timed sample sees its input afresh, at an address no call saw before") {
  constexpr int kSamples = 200;  // the default policy's most
  gpulab::RunContext ctx = timed_context(kSamples);
  const std::vector<float> truth = {1, 2, 3, 4, 5, 6, 7};
  gpulab::HostInputs<float> in(ctx, "values", truth.data(), truth.size());
  gpulab::CpuOutputs out({"sums", {truth.size()}}, gpulab::input_sets(ctx));
  std::vector<const float*> addresses;
  int saw_scribbles = 0;
  gpulab::run_cpu_part(
      ctx, out,
      [&](int s) {
        const float* x = in.get(s);
        addresses.push_back(x);
        saw_scribbles += std::vector<float>(x, x + truth.size()) != truth;
        float* o = out.get(s);
        float sum = 0;
        for (size_t i = 0; i < truth.size(); ++i) o[i] = sum += x[i];
        const_cast<float*>(x)[0] = -1;  // a submission writing into its const input
      },
      "sums");
  REQUIRE(addresses.size() == 1 + 2 + kSamples);  // the checked call, warm-up, samples
  CHECK(saw_scribbles == 0);
  CHECK(std::set<const float*>(addresses.begin(), addresses.end()).size() == addresses.size());
  for (int s = 0; s < gpulab::input_sets(ctx); ++s) CHECK(out.checked(s, "sums")[6] == 28);
}

TEST_CASE("a call that wrote into its const inputs is found, the input and element named") {
  gpulab::RunContext ctx = timed_context(3);
  const std::vector<float> truth = {1, 2, 3, 4};
  gpulab::HostInputs<float> a(ctx, "atoms", truth.data(), truth.size());
  gpulab::HostInputs<float> b(ctx, "charges", truth.data(), truth.size());
  CHECK_NOTHROW(ctx.check_inputs(1, "dcs_cpu_fast"));
  const_cast<float*>(b.get(1))[2] = -1;
  try {
    ctx.check_inputs(1, "dcs_cpu_fast");
    FAIL("a changed input was not found");
  } catch (const std::exception& e) {
    CHECK(test::contains(e.what(),
                         "your dcs_cpu_fast changed its input \"charges\" (element 2 first)"));
  }
  CHECK(b.first_change(0) == -1);  // another set: untouched
  // The reference's runs (runner_flags.h, kReferenceFlag) are trusted: not checked.
  ctx.trusted = true;
  CHECK_NOTHROW(ctx.check_inputs(1, "dcs_cpu_fast"));
  ctx.trusted = false;
  // Written back as it was: nothing to find.
  const_cast<float*>(b.get(1))[2] = 3;
  CHECK_NOTHROW(ctx.check_inputs(1, "dcs_cpu_fast"));
}

TEST_CASE("an input leaves the run when it goes out of scope") {
  gpulab::RunContext ctx = timed_context(3);
  const std::vector<int> values = {1, 2, 3};
  {
    gpulab::HostInputs<int> a(ctx, "a", values.data(), values.size());
    gpulab::HostInputs<int> b(ctx, "b", values.data(), values.size());
    CHECK(ctx.moving_inputs.size() == 2);
    const int* before = a.get(1);
    ctx.refresh_inputs(1);
    CHECK(a.get(1) != before);
    CHECK(std::vector<int>(a.get(1), a.get(1) + 3) == values);
  }
  CHECK(ctx.moving_inputs.empty());
}

namespace {

// The room a set's allocation holds beyond its input, seen from outside.
struct RoomProbe : gpulab::HostInputs<float> {
  using HostInputs::HostInputs;
  using MovingInputs::room;
};

}  // namespace

TEST_CASE("untimed, an input is allocated at its exact size; a refresh is a new allocation") {
  gpulab::RunContext ctx{{}, false, {}, {}};  // a correctness run: no timing
  const std::vector<float> truth = {1, 2, 3};
  RoomProbe in(ctx, "values", truth.data(), truth.size());
  // Nothing past the end: a read one element too far leaves the allocation (sim/README.md).
  CHECK(in.room() == 0);
  const float* first = in.get(0);
  const_cast<float*>(first)[0] = -1;  // a submission writing into its const input
  ctx.refresh_inputs(0);              // the grader's second call
  CHECK(in.get(0) != first);
  CHECK(std::vector<float>(in.get(0), in.get(0) + truth.size()) == truth);
  // Timed, the allocation has the room its places need.
  gpulab::RunContext timed = timed_context(3);
  RoomProbe padded(timed, "values", truth.data(), truth.size());
  CHECK(padded.room() > 0);
}
