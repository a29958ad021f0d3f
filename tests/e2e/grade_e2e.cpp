// End-to-end: the real gpulab binary grades the shipped submissions, and the reports say what
// a student and an instructor must see. The cpu suite runs everywhere (CI); the gpu suite
// needs a CUDA GPU; the sim suite grades every part on the CPU backend (CI, where it is built).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "device.h"
#include "e2e_util.h"
#include "lab/lab_config.h"
#include "plot/figure_canvas.h"

namespace {

using namespace e2e;

const fs::path kSubmissions = kSource / "tests" / "submissions" / "scatter-gather";

Graded grade(const fs::path& submission, std::vector<std::string> extra, double timeout_s = 900) {
  return e2e::grade("scatter-gather", submission, std::move(extra), timeout_s);
}

// Grades one part of a broken submission without timing; its public-correctness test must
// score zero, and is returned so the caller can check what it tells the student.
json failing_public_test(const fs::path& submission, const std::string& part,
                         std::vector<std::string> extra = {}) {
  extra.insert(extra.end(), {"--part", part, "--no-time"});
  const Graded g = grade(submission, extra, 120);
  const json t = test_named(g.report, part + ": correctness on the public");
  CHECK_MESSAGE(t["score"] == 0, t.dump(2));
  return t;
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("the reference scores full marks on the CPU part") {
    const Graded g = grade(kSource / "reference" / "scatter-gather", {"--part", "cpu_fast"});
    CHECK(g.process.exit_code == 0);
    check_full_correctness(g.report, "cpu_fast");
    const json perf = test_named(g.report, "cpu_fast: performance");
    // The reference against itself: the ratio is about 1, whatever the machine's noise.
    CHECK(perf["extra_data"]["ratio"].get<double>() < 1.5);
    CHECK(perf["score"].get<double>() > 0);
    // A CPU part times the reference in every round, keeping nothing, unless its lab.json says
    // otherwise (tests/e2e/kept_reference_e2e.cpp).
    CHECK(perf["extra_data"]["reference_timing"]["how"] == "alternated");
  }

  TEST_CASE("the stub builds, runs and scores zero, saying nothing was written") {
    const Graded g =
        grade(kSource / "labs" / "scatter-gather", {"--part", "cpu_fast", "--no-time"});
    CHECK(g.process.exit_code == 0);
    CHECK(score(g.report) == 0);
    const json t = test_named(g.report, "cpu_fast: correctness on the public");
    CHECK(contains(t, "never written"));
    CHECK(contains(t, "Nothing was written at all"));
  }

  TEST_CASE("speedup and scalability points are scored from timed runs") {
    // A copy of the lab whose lab.json gives cpu_fast speedup points over its plain CPU loop and
    // scalability points over two small timing datasets with the same work: rows 256 points
    // long, and rows 1 point long, where the per-row and per-atom overheads of the
    // output-oriented code outweigh its vectorized sweep, so the time per atom-eval grows and
    // the scalability points are lost.
    const fs::path src = lab_source_copy("scalability-source", "scatter-gather");
    const fs::path lab_json = src / "labs" / "scatter-gather" / "lab.json";
    json lab = json::parse(std::ifstream(lab_json));
    for (auto& g : lab["dataset_groups"])
      if (g.value("timing", false))
        g["datasets"] = json::array(
            {{{"name", "s-small"},
              {"params", {{"nx", 256}, {"ny", 16}, {"nz", 4}, {"n_atoms", 64}, {"h", 0.5}}},
              {"seed", 1},
              {"parts", {"cpu_fast"}}},
             {{"name", "s-large"},
              {"params", {{"nx", 1}, {"ny", 1024}, {"nz", 16}, {"n_atoms", 64}, {"h", 0.5}}},
              {"seed", 2},
              {"parts", {"cpu_fast"}}}});
    lab.erase("bench_sweeps");  // they time the timing datasets replaced above
    lab["timing"]["cpu"] = {{"rounds", 3}, {"min_samples", 3}, {"max_samples", 3}, {"samples", 3}};
    lab["rubric"]["cpu_fast"]["speedup"] = {{"points", 4}, {"at_least", 1.0}};
    lab["rubric"]["cpu_fast"]["scalability"] = {
        {"points", 6}, {"small", "s-small"}, {"large", "s-large"}, {"max_growth", 1.25}};
    std::ofstream(lab_json) << lab.dump(2);

    const Graded g = e2e::grade("scatter-gather", kSource / "reference" / "scatter-gather",
                                {"--part", "cpu_fast"}, 900, {"GPULAB_SOURCE_DIR=" + src.string()});
    CHECK(g.process.exit_code == 0);
    const json speedup = test_named(g.report, "cpu_fast: speedup over the baseline");
    CHECK(speedup["max_score"] == 4);
    // Scored by its measured speedup (on rows of one point, either code may be the faster).
    const double measured = speedup["extra_data"]["speedup"].get<double>();
    CHECK(measured > 0.2);
    CHECK(speedup["score"] == (measured >= 1.0 ? 4 : 0));
    CHECK(contains(speedup, "a speedup of"));
    const json scal = test_named(g.report, "cpu_fast: data scalability, s-small to s-large");
    CHECK(scal["max_score"] == 6);
    CHECK(scal["score"] == 0);
    CHECK_MESSAGE(scal["extra_data"]["growth"].get<double>() > 1.25, scal.dump(2));
    CHECK(contains(scal, "does the work per point still grow"));
    // The performance test times the large dataset of the pair.
    CHECK(test_named(g.report, "cpu_fast: performance on s-large")["max_score"] == 10);
    CHECK(max_score(g.report) == 10 + 10 + 10 + 4 + 6);
  }

  TEST_CASE("an alternative correct submission gets full correctness") {
    const Graded g = grade(kSubmissions / "alt-correct", {"--part", "cpu_fast", "--no-time"});
    check_full_correctness(g.report, "cpu_fast");
  }

  TEST_CASE("x86 intrinsics in a CPU part build with nvcc and pass") {
    const Graded g =
        grade(kSubmissions / "alt-cpu-intrinsics", {"--part", "cpu_fast", "--no-time"});
    check_full_correctness(g.report, "cpu_fast");
  }

  TEST_CASE("a dropped atom fails with the worst point, expected and got values") {
    const json t = failing_public_test(kSubmissions / "bug-dropped-atom", "cpu_fast");
    CHECK(contains(t, "outside the error bound"));
    CHECK(contains(t, "expected"));
    CHECK(contains(t, "FAIL dominant-first"));
  }

  TEST_CASE("a compile error gives a valid report with the compiler's message and zero") {
    const Graded g = grade(kSubmissions / "compile-error", {});
    CHECK(g.process.exit_code == 0);
    CHECK(score(g.report) == 0);
    // Every part fails with the compiler's words, of its whole maximum: code that does not
    // build scores zero on any machine, a GPU or not (a grade of record counts GPU parts).
    for (const char* part : {"cpu_fast", "scatter", "gather"}) {
      CAPTURE(part);
      const json t = test_named(g.report, std::string(part) + ": does not build");
      CHECK(contains(t, "did not build"));
      CHECK(contains(t, "undeclared_function"));
      CHECK(t["max_score"].get<double>() > 0);
    }
  }

  TEST_CASE("without a GPU, GPU parts leave a grade unscored; --require-gpu grades nothing") {
    if (gpulab::device_preflight().usable) {
      MESSAGE("skipped: this machine has a GPU, which grades every part");
      return;
    }
    // Built, then not graded: no score on the CPU part alone, the reason and the way on said.
    const Graded g = grade(kSubmissions / "alt-correct", {"--no-time"});
    INFO(g.process.output);
    CHECK(g.process.exit_code == 1);
    CHECK_FALSE(g.report.contains("score"));
    CHECK(g.report["tests"].empty());
    CHECK(output_says(g.report, "Not graded: this machine has no usable CUDA GPU"));
    CHECK(output_says(g.report, "the parts scatter, gather need one, so no score is given"));
    CHECK(output_says(g.report, "--backend sim"));
    // --require-gpu: refused before anything is taken in or built, CPU parts too.
    const auto t0 = std::chrono::steady_clock::now();
    const Graded r = grade(kSubmissions / "alt-correct", {"--part", "cpu_fast", "--require-gpu"});
    CHECK(r.process.exit_code == 1);
    CHECK_FALSE(r.report.contains("score"));
    CHECK(output_says(r.report, "--require-gpu asks for one"));
    CHECK(r.process.output.find("building") == std::string::npos);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
  }

  TEST_CASE("a crash is reported as a crash, and the rest is still graded") {
    const json t = failing_public_test(kSubmissions / "crash", "cpu_fast");
    CHECK(contains(t, "signal 11"));
  }

  TEST_CASE("a hang is killed at the timeout and later datasets are not waited for") {
    const auto t0 = std::chrono::steady_clock::now();
    const json t = failing_public_test(kSubmissions / "hang", "cpu_fast", {"--timeout", "3"});
    CHECK(contains(t, "did not finish within the time limit"));
    CHECK(contains(t, "timed out, and one hang is enough"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60));
  }

  TEST_CASE("gigabytes of output are cut to a bound and the results still graded") {
    const Graded g = grade(kSubmissions / "spam-output", {"--part", "cpu_fast", "--no-time"});
    check_full_correctness(g.report, "cpu_fast");
    CHECK(g.report.dump().size() < 200000);
  }

  TEST_CASE("a submission without the lab's file is refused, not built: nothing to grade") {
    const fs::path empty = scratch("empty-submission") / "submission";
    fs::create_directories(empty);
    const Graded g = grade(empty, {"--no-time"});
    CHECK(score(g.report) == 0);
    const json t = test_named(g.report, "cpu_fast: submission not accepted");
    CHECK(contains(t, "holds none of this lab's files (dcs.cu)"));
    CHECK(contains(t, "nothing to grade: it is empty"));
    // A file named like the lab's, by a slip: the reason names the fix.
    std::ofstream(empty / "dcs (1).cu") << "// the student's file, renamed by a download\n";
    const Graded slip = grade(empty, {"--no-time"});
    CHECK(contains(test_named(slip.report, "cpu_fast: submission not accepted"),
                   "is there: name it dcs.cu"));
  }

  TEST_CASE("a grader failure still writes a report, with no invented score") {
    const Graded g = grade(kSource / "no-such-submission", {});
    CHECK(g.process.exit_code == 1);
    CHECK_FALSE(g.report.contains("score"));
    CHECK(g.report["output"].get<std::string>().find("does not exist") != std::string::npos);
  }

  TEST_CASE("a part the lab does not have is named in the grader's error") {
    const Graded g = grade(kSubmissions / "alt-correct", {"--part", "gahter"});
    CHECK(g.process.exit_code == 1);
    CHECK_FALSE(g.report.contains("score"));
    CHECK(g.report["output"].get<std::string>().find("no part \"gahter\"") != std::string::npos);
  }
}

TEST_SUITE("gpu") {
  TEST_CASE("the reference scores full marks on every part") {
    const Graded g = grade(kSource / "reference" / "scatter-gather", {});
    for (const char* part : {"scatter", "gather", "cpu_fast"}) {
      check_full_correctness(g.report, part);
      const json perf = test_named(g.report, std::string(part) + ": performance");
      CHECK_MESSAGE(perf["extra_data"]["ratio"].get<double>() < 1.2, perf.dump(2));
    }
    double max = 0;
    for (const auto& t : g.report["tests"]) max += t["max_score"].get<double>();
    CHECK(score(g.report) == max);
    // The leaderboard ranks the timed GPU parts only: their medians, not the CPU part's.
    std::vector<std::string> ranked;
    for (const auto& entry : g.report["leaderboard"]) ranked.push_back(entry["name"]);
    CHECK(ranked == std::vector<std::string>{"scatter time (ms)", "gather time (ms)"});
    for (const auto& entry : g.report["leaderboard"]) {
      const std::string name = entry["name"];
      const std::string part = name.substr(0, name.find(" time (ms)"));
      CHECK(entry["value"] ==
            test_named(g.report, part + ": performance")["extra_data"]["student_ms"]);
    }
  }

  TEST_CASE("the stub scores zero on the GPU") {
    const Graded g = grade(kSource / "labs" / "scatter-gather", {"--no-time"});
    CHECK(score(g.report) == 0);
    CHECK(contains(test_named(g.report, "gather: correctness on the public"), "never written"));
  }

  TEST_CASE("an alternative correct submission gets full correctness on every part") {
    const Graded g = grade(kSubmissions / "alt-correct", {"--no-time"});
    for (const char* part : {"scatter", "gather", "cpu_fast"})
      check_full_correctness(g.report, part);
  }

  TEST_CASE("a missing bounds check is caught by the guard zones") {
    const json t = failing_public_test(kSubmissions / "bug-no-bounds-check", "gather");
    CHECK(contains(t, "wrote outside the output array"));
  }

  TEST_CASE("a scatter without atomics loses updates") {
    const json t = failing_public_test(kSubmissions / "bug-scatter-no-atomics", "scatter");
    CHECK(contains(t, "outside the error bound"));
  }

  TEST_CASE("a dropped atom fails the gather") {
    const json t = failing_public_test(kSubmissions / "bug-dropped-atom", "gather");
    CHECK(contains(t, "FAIL dominant-last"));
  }

  TEST_CASE("half-precision inputs are rejected by the tolerance") {
    const json t = failing_public_test(kSubmissions / "cheat-fp16", "gather");
    CHECK(contains(t, "outside the error bound"));
  }

  TEST_CASE("an illegal address on the GPU is reported in words") {
    const json t = failing_public_test(kSubmissions / "crash", "gather");
    CHECK(contains(t, "illegal"));
    CHECK(contains(t, "your dcs_gather failed on the GPU: cudaErrorIllegalAddress"));
  }

  TEST_CASE("a spinning kernel is killed at the timeout") {
    const json t = failing_public_test(kSubmissions / "hang", "gather", {"--timeout", "5"});
    CHECK(contains(t, "did not finish within the time limit"));
  }
}

TEST_SUITE("sim") {
  const std::vector<std::string> kSim = {"--backend", "sim"};

  std::vector<std::string> sim_and(std::vector<std::string> more) {
    more.insert(more.begin(), kSim.begin(), kSim.end());
    return more;
  }

  TEST_CASE("the reference scores full marks on the CPU backend, performance left out") {
    const Graded g = grade(kSource / "reference" / "scatter-gather", kSim);
    double max = 0;
    for (const char* part : {"scatter", "gather", "cpu_fast"}) {
      check_full_correctness(g.report, part);
      // Information, not a test: said in the output, worth nothing.
      CHECK(output_says(g.report, std::string(part) + ": performance not measured"));
    }
    for (const auto& t : g.report["tests"]) max += t["max_score"].get<double>();
    CHECK(max == 60);
    CHECK(score(g.report) == max);
    CHECK(g.report["extra_data"]["gpulab"]["backend"] == "sim");
    // The reference runs clean under the detectors: no finding is quoted anywhere.
    for (const auto& t : g.report["tests"]) CHECK_FALSE(contains(t, "gpulab sim,"));
  }

  TEST_CASE("the stub scores zero on the CPU backend") {
    const Graded g = grade(kSource / "labs" / "scatter-gather", kSim);
    CHECK(score(g.report) == 0);
    CHECK(contains(test_named(g.report, "scatter: correctness on the public"), "never written"));
  }

  TEST_CASE("an alternative correct submission gets full correctness on the CPU backend") {
    const Graded g = grade(kSubmissions / "alt-correct", kSim);
    for (const char* part : {"scatter", "gather", "cpu_fast"})
      check_full_correctness(g.report, part);
  }

  TEST_CASE("a missing bounds check is caught on the CPU backend, at its line") {
    // The output's guard zones are outside it here: the first write past its end stops the
    // kernel, and the finding names the output by its own size, not the guards'.
    const json t = failing_public_test(kSubmissions / "bug-no-bounds-check", "gather", kSim);
    CHECK_MESSAGE(contains(t, "gpulab sim, error: out-of-bounds write: 4 bytes at"), t.dump(2));
    CHECK(contains(t, "are 0 bytes past the end of the 4-byte output potential"));
    CHECK(contains(t, "(at dcs.cu:14)"));
  }

  TEST_CASE("a scatter without atomics is caught as a race on the CPU backend") {
    const json t = failing_public_test(kSubmissions / "bug-scatter-no-atomics", "scatter", kSim);
    CHECK_MESSAGE(contains(t, "race"), t.dump(2));
    CHECK(contains(t, "dcs.cu:"));
  }

  TEST_CASE("a dropped atom fails on the CPU backend, with a map of where beside the report") {
    const fs::path report = scratch("error-map") / "results.json";
    const Graded g = grade_to(report, "scatter-gather", kSubmissions / "bug-dropped-atom",
                              sim_and({"--part", "gather", "--no-time"}), 120);
    const json t = test_named(g.report, "gather: correctness on the public");
    CHECK(t["score"] == 0);
    CHECK(contains(t, "FAIL dominant-last"));
    // tiny fails first, but its one value a plane shows nothing of where: the next one is
    // mapped, once for the part (grader/grade/error_map_files.h).
    const fs::path png = report.parent_path() / "results.gather.odd-33x31x5.error.png";
    // The same drawing as PNG and SVG, each as wide as the other, the SVG's words as glyphs.
    const int width = gpulab::decode_png(read_text(png)).width;
    CHECK(width > 33 * 15);  // odd-33x31x5's 33 squares of 15 pixels and the title above
    const std::string svg = read_text(png.parent_path() / "results.gather.odd-33x31x5.error.svg");
    CHECK(svg.find("width=\"" + std::to_string(width) + "px\"") != std::string::npos);
    CHECK(svg.find("<use xlink:href=\"#glyph") != std::string::npos);
    CHECK_MESSAGE(contains(t,
                           "A map of where potential is wrong on odd-33x31x5 (each value's "
                           "error over its bound; plane k = "),
                  t.dump(2));
    // By its name beside the report: the grader's folder is not the student's to see.
    CHECK(contains(t, "results.gather.odd-33x31x5.error.png beside the report"));
    CHECK_FALSE(contains(t, png.string()));
    // One map, and none of a hidden dataset, whose expected output is secret.
    std::vector<std::string> beside;
    for (const auto& f : fs::directory_iterator(report.parent_path()))
      beside.push_back(f.path().filename().string());
    std::sort(beside.begin(), beside.end());
    CHECK(beside == std::vector<std::string>{"results.gather.odd-33x31x5.error.png",
                                             "results.gather.odd-33x31x5.error.svg",
                                             "results.json"});
  }

  TEST_CASE("half-precision inputs are rejected on the CPU backend") {
    const json t = failing_public_test(kSubmissions / "cheat-fp16", "gather", kSim);
    CHECK(contains(t, "outside the error bound"));
  }

  TEST_CASE("a wild write is reported with its file and line on the CPU backend") {
    const json t = failing_public_test(kSubmissions / "crash", "gather", kSim);
    CHECK_MESSAGE(contains(t, "dcs.cu:5"), t.dump(2));
    // Said where it ran: never "on the GPU" here.
    CHECK(contains(t, "your dcs_gather failed on the CPU backend: cudaErrorIllegalAddress"));
    CHECK_FALSE(contains(t, "on the GPU"));
  }

  TEST_CASE("x86 intrinsics in a CPU part build and pass on the CPU backend") {
    const Graded g =
        grade(kSubmissions / "alt-cpu-intrinsics", sim_and({"--part", "cpu_fast", "--no-time"}));
    check_full_correctness(g.report, "cpu_fast");
  }

  TEST_CASE("a compile error on the CPU backend names the file and line") {
    const Graded g = grade(kSubmissions / "compile-error", sim_and({"--no-time"}));
    CHECK(score(g.report) == 0);
    CHECK_MESSAGE(contains(test_named(g.report, "gather: does not build"), "dcs.cu:"),
                  g.report.dump(2));
  }

  // The maximum of a report of code that did not build is that of the tests grading it would
  // have held: never the hidden groups gpulab run leaves out, nor parts --part leaves out.
  TEST_CASE("a submission that does not build states the maximum its options leave in") {
    const gpulab::LabConfig coarsening =
        gpulab::LabConfig::load(kSource / "labs" / "coarsening" / "lab.json");
    const fs::path report = scratch("run-compile-error") / "results.json";
    const gpulab::ProcessResult p = gpulab::run_process(
        {{GPULAB_TEST_BINARY, "run", "coarsening", "--src",
          (kSource / "tests" / "submissions" / "coarsening" / "compile-error").string(),
          "--backend", "sim", "--out", report.string()},
         report.parent_path(),
         300,
         1 << 20,
         0,
         0,
         {}});
    REQUIRE_MESSAGE(fs::is_regular_file(report), "no report was written; gpulab said:\n"
                                                     << p.output);
    const json run = read_report(report);
    const json t = test_named(run, "coarsened: does not build");
    // Public points only: gpulab run leaves the hidden group out, sim the timed points.
    CHECK_MESSAGE(max_score(run) == coarsening.rubric.at("coarsened").group_points.at("public"),
                  run.dump(2));
    CHECK(t["max_score"] == max_score(run));
    CHECK(score(run) == 0);

    const gpulab::LabConfig sg =
        gpulab::LabConfig::load(kSource / "labs" / "scatter-gather" / "lab.json");
    const Graded g = grade(kSubmissions / "compile-error", sim_and({"--part", "gather"}));
    REQUIRE(g.report["tests"].size() == 1);  // only the part asked for
    const auto& gather = sg.rubric.at("gather").group_points;
    CHECK_MESSAGE(max_score(g.report) == gather.at("public") + gather.at("hidden"),
                  g.report.dump(2));
  }

  // A typo in a name a student types gets the nearest valid name, and gpulab exits 1: never
  // "total 0.0 / 0.0" and exit 0 (gpulab run --dataset with no such dataset, once). Each is
  // refused before anything is built.
  TEST_CASE("gpulab run names the nearest lab, part or dataset to a misspelt one") {
    const fs::path dir = scratch("misspelt-names");
    const auto run = [&](std::vector<std::string> args) {
      args.insert(args.begin(), GPULAB_TEST_BINARY);
      return gpulab::run_process({args, dir, 120, 1 << 20, 0, 0, {}});
    };
    struct Case {
      std::vector<std::string> args;
      std::string says;
    };
    for (const Case& c : std::vector<Case>{
             {{"run", "scna", "--backend", "sim"}, "no lab \"scna\" (did you mean \"scan\"?)"},
             {{"run", "scan", "--backend", "sim", "--part", "exclsuive"},
              "no part \"exclsuive\" (did you mean \"exclusive\"?)"},
             {{"run", "scan", "--backend", "sim", "--dataset", "int-34"},
              "no dataset \"int-34\" (did you mean \"int-31\"?)"}}) {
      const gpulab::ProcessResult p = run(c.args);
      CAPTURE(p.output);
      CHECK(p.exit_code == 1);
      CHECK(p.output.find(c.says) != std::string::npos);
      CHECK(p.output.find("the ") != std::string::npos);  // and the valid names
    }
    const gpulab::ProcessResult v = run({"--version"});
    CHECK(v.exit_code == 0);
    CHECK(v.output.find(std::string("gpulab ") + GPULAB_VERSION) == 0);
  }

  TEST_CASE("a spinning kernel is killed at the timeout on the CPU backend") {
    const json t =
        failing_public_test(kSubmissions / "hang", "gather", sim_and({"--timeout", "5"}));
    CHECK(contains(t, "did not finish within the time limit"));
  }
}
