// gpulab bench-grader (grader/bench/bench_grader.h) on the CPU backend: each grading's phases from
// its report, the warm grading generating nothing the cold one made, the reference's full marks,
// and a lab that is not one refused by name. Coarsening: its reference grades in seconds on sim.
#include <doctest/doctest.h>

#include "e2e_util.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

double phase_sum(const json& run) {
  double sum = 0;
  for (const auto& [name, s] : run.at("phase_seconds").items()) {
    CHECK_MESSAGE(s.get<double>() >= 0, name);
    sum += s.get<double>();
  }
  return sum;
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("bench-grader: phases of a cold and a warm grading; the warm one generates nothing") {
    const fs::path dir = scratch("bench-grader");
    const gpulab::ProcessResult p =
        run_command({GPULAB_TEST_BINARY, "bench-grader", "--labs", "coarsening", "--backend", "sim",
                     "--no-time", "--json", (dir / "bench.json").string()},
                    dir, {});
    INFO(p.output);
    REQUIRE(p.exit_code == gpulab::kExitOk);
    CHECK(said(p, "coarsening  cold"));
    CHECK(said(p, "coarsening  warm"));
    CHECK(said(p, "30/30"));  // the reference's full marks, each time
    CHECK(said(p, "oracle: the oracle's expected outputs"));  // the phases explained
    const json j = json::parse(read_text(dir / "bench.json"));
    REQUIRE(j.at("runs").size() == 2);
    const json &cold = j["runs"][0], &warm = j["runs"][1];
    CHECK(cold["cache"] == "cold");
    CHECK(warm["cache"] == "warm");
    for (const json* run : {&cold, &warm}) {
      CHECK((*run)["failed"] == "");
      CHECK((*run)["score"] == (*run)["max_score"]);
      CHECK((*run)["phase_seconds"]["build"].get<double>() > 0);
      CHECK((*run)["phase_seconds"]["runs"].get<double>() > 0);
      // The phases share out the grading's own clock: never more than the wall time around it.
      CHECK(phase_sum(*run) <= (*run)["wall_s"].get<double>());
      CHECK(phase_sum(*run) > 0.5 * (*run)["wall_s"].get<double>());
    }
    CHECK(cold["phase_seconds"]["oracle"].get<double>() > 0);
    CHECK(warm["phase_seconds"]["generate"] == 0);  // every dataset found in the cold one's cache
    CHECK(warm["phase_seconds"]["oracle"] == 0);
  }

  TEST_CASE("bench-grader: a lab that is not one is refused by name") {
    const gpulab::ProcessResult p =
        run_command({GPULAB_TEST_BINARY, "bench-grader", "--labs", "coarsenin", "--backend", "sim"},
                    scratch("bench-grader-bad"), {});
    INFO(p.output);
    CHECK(p.exit_code == gpulab::kExitFailed);
    CHECK(said(p, "coarsenin"));
    CHECK(said(p, "coarsening"));  // the nearest lab's name
  }
}
