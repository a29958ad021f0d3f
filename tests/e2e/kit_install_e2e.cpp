// The student's install, in an unpacked student kit built with its README's one command (the
// student preset): how long that takes, what it builds, and `gpulab run` taking the student's
// files from the tree they stand in (grader/lab/lab_tree.h), on the CPU backend by itself, and
// `gpulab grade` telling the write-up filled in the kit from its template.
#include <doctest/doctest.h>

#include <fstream>

#include "e2e_util.h"
#include "student_kit.h"

namespace e2e {

namespace {

// The bar for the set-up (README, "Student install"): issue 41's 300 s of CPU time, with 10% for
// the machine (330 s), under 3 minutes of a 2-core machine's clock. Counted in CPU time, which
// other work on a shared machine inflates far less than the clock (CI runs this suite alone all
// the same: tests/CMakeLists.txt), though not by nothing: fresh clones of nearly one tree
// measured 285 to 331 s in CI. With gpulab's tools at -O1 the student preset's build of gpulab
// took 292 s here (362 s without: docs/PERF.md, "The student kit's build: the tools at -O1"),
// and the kit's build 294 s in a fresh clone's CI run (2026-12-07).
constexpr double kKitBuildCpuLimitS = 330;

struct Ran {
  gpulab::ProcessResult process;
  json report;
};

// The kit's `gpulab run scan --part exclusive --dataset int-33 --out <report> <extra>` in `cwd`.
Ran kit_run_scan(const fs::path& cwd, const fs::path& report, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {student_kit().gpulab.string(),
                                   "run",
                                   "scan",
                                   "--part",
                                   "exclusive",
                                   "--dataset",
                                   "int-33",
                                   "--out",
                                   report.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  Ran r;
  r.process = run_in_kit(argv, cwd, {}, 300);
  REQUIRE_MESSAGE(fs::is_regular_file(report), "no report was written; gpulab said:\n"
                                                   << r.process.output);
  r.report = read_report(report);
  return r;
}

bool says(const gpulab::ProcessResult& p, const std::string& text) {
  return p.output.find(text) != std::string::npos;
}

}  // namespace

TEST_SUITE("student-kit") {
  TEST_CASE("the kit's build is the student preset: within the bar, the command and no more") {
    const StudentKit& k = student_kit();
    CHECK_MESSAGE(k.build_cpu_s <= kKitBuildCpuLimitS,
                  "the student kit's build took " << k.build_cpu_s << " s of CPU time ("
                                                  << k.build_s << " s on the clock); the bar is "
                                                  << kKitBuildCpuLimitS << " s");
    CHECK(k.build_cpu_s > 10);  // it was measured: a build of gpulab takes minutes
    CHECK(fs::is_regular_file(k.kit / "CMakePresets.json"));
    CHECK(fs::is_regular_file(k.kit / "build" / "bin" / "gpulab-sim-cc"));
    CHECK(fs::is_regular_file(k.kit / "build" / "bin" / "gpulab-sim-rewrite"));
    // No test binaries, no runners CMake would prebuild, no fuzzers, nothing compiled by nvcc.
    CHECK_FALSE(fs::exists(k.kit / "build" / "tests"));
    CHECK_FALSE(fs::exists(k.kit / "build" / "runners"));
    CHECK_FALSE(fs::exists(k.kit / "build" / "bin" / "gpulab-build-runner"));
    for (const auto& e : fs::recursive_directory_iterator(k.kit / "build")) {
      INFO(e.path());
      CHECK(e.path().string().find(".cu.o") == std::string::npos);
    }
  }

  // The student works in a tree of their own: a copy of the kit's labs/scan, their finished
  // scan.cu in it, and a lab.json they loosened. Run from the top of that tree and from its
  // labs/scan, the kit's gpulab builds their file by the kit's own lab.json; from a folder in
  // no tree, it takes the kit's labs/scan and says so.
  TEST_CASE("run takes the files of the tree it stands in, never its lab.json") {
    const StudentKit& k = student_kit();
    const fs::path tree = k.root / "my-tree";
    const fs::path lab = tree / "labs" / "scan";
    fs::remove_all(tree);
    fs::create_directories(tree / "labs");
    fs::copy(k.kit / "labs" / "scan", lab, fs::copy_options::recursive);
    fs::copy_file(kSource / "tests" / "submissions" / "scan" / "alt-correct" / "scan.cu",
                  lab / "scan.cu", fs::copy_options::overwrite_existing);
    std::ofstream(lab / "lab.json") << "{\"id\": \"scan\", \"tolerance\": \"anything goes\"}";

    for (const fs::path& cwd : {tree, lab}) {
      CAPTURE(cwd);
      const Ran r = kit_run_scan(cwd, k.root / "tree.json");
      INFO(r.process.output);
      CHECK(r.process.exit_code == 0);
      CHECK(score(r.report) == max_score(r.report));  // the kit's own scan.cu is the stub
      CHECK(score(r.report) > 0);
      CHECK(r.report.at("extra_data").at("gpulab").at("backend") == "sim");
      CHECK(says(r.process, "running on the CPU backend (sim)"));
      CHECK_FALSE(says(r.process, "your files:"));
    }

    const fs::path away = k.root / "no-tree";
    fs::create_directories(away);
    const Ran stub = kit_run_scan(away, k.root / "away.json");
    INFO(stub.process.output);
    CHECK(stub.process.exit_code != 0);  // the kit's stub fails
    CHECK(score(stub.report) == 0);
    CHECK(says(stub.process, "your files: " + (k.kit / "labs" / "scan").string()));

    // --submission names the folder wherever the student stands.
    const Ran named = kit_run_scan(away, k.root / "named.json", {"--submission", lab.string()});
    INFO(named.process.output);
    CHECK(score(named.report) == max_score(named.report));
    CHECK_FALSE(says(named.process, "your files:"));
  }

  // Self-grading as the issue found it: the student fills in the kit's own labs/scan/REPORT.md
  // and grades that folder. The kit's record of the template (writeup_template.h) says it is
  // written, where the lab folder's file, now the student's, would call it unchanged.
  TEST_CASE("grade in the kit tells a filled write-up from the template it was handed") {
    const StudentKit& k = student_kit();
    REQUIRE(fs::is_regular_file(k.kit / "writeup-templates.json"));
    // A build that fails is quick, and the write-up is looked at whatever became of the code.
    const KitFile code("labs/scan/scan.cu",
                       kSource / "tests" / "submissions" / "scan" / "compile-error" / "scan.cu");
    const auto graded = [&](const std::string& name) {
      const fs::path report = k.root / name;
      const auto p =
          run_in_kit({k.gpulab.string(), "grade", "scan", "--submission", "labs/scan", "--out",
                      report.string(), "--backend", "sim", "--no-time", "--format", "gpulab"},
                     {}, {}, 300);
      INFO(p.output);
      REQUIRE(fs::is_regular_file(report));
      return test_named(read_report(report), "write-up");
    };
    const json pristine = graded("pristine.json");
    CHECK(contains(pristine, "is the lab's template, unchanged"));

    const fs::path filled = k.root / "REPORT.filled.md";
    std::ofstream(filled) << read_text(k.kit / "labs" / "scan" / "REPORT.md")
                          << "\nName: Ada\n\n| n | ms |\n|---:|---:|\n| 4097 | 0.1 |\n";
    const KitFile writeup("labs/scan/REPORT.md", filled);
    const json written = graded("written.json");
    INFO(written.dump());
    CHECK_FALSE(contains(written, "unchanged"));
    CHECK(contains(written, "REPORT.md ("));
    CHECK(contains(written, "was found and kept for your instructor"));
  }
}

}  // namespace e2e
