// grader/run/compute_sanitizer.h: compute-sanitizer's text reports read as findings with file and
// line (the samples follow what compute-sanitizer 2025.3 prints on an H200 for the planted bugs
// of tests/adversarial/segmented-scan/, and the older "at 0x.. in file:line:function" form),
// the command line it is run with, where the tool is found, lab.json's "sanitize", and what a
// grading decides to run under it (grader/grade/sanitizer_runs.h).
#include "run/compute_sanitizer.h"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <memory>
#include <optional>
#include <sstream>

#include "core/report_builder.h"
#include "grade/grade_context.h"
#include "grade/sanitizer_runs.h"
#include "lab/lab_config.h"
#include "test_util.h"
#include "text/safe_text.h"

namespace {

using gpulab::describe_sanitizer_findings;
using gpulab::parse_sanitizer_log;
using gpulab::sanitizer_fails;
using gpulab::SanitizerReport;
using test::contains;

const std::string kSub = "/tmp/gpulab-Ab12/submission/";

// One memcheck report of an out-of-bounds read by thread `t`, as compute-sanitizer 2025.3
// prints it without backtraces.
std::string invalid_read(int t) {
  return "========= Invalid __global__ read of size 1 bytes\n"
         "=========     at <unnamed>::load_items(const float *, const unsigned char *, long long, "
         "long long, float (&)[16], unsigned int &)+0xe60 in " +
         kSub +
         "segmented_scan.cu:83\n"
         "=========     by thread (" +
         std::to_string(t) +
         ",0,0) in block (0,0,0)\n"
         "=========     Access to 0x7f2d7080061f is out of bounds\n"
         "=========     and is 1 bytes after the nearest allocation at 0x7f2d70800600 of size 31 "
         "bytes\n"
         "========= \n";
}

const std::string kBanner = "========= COMPUTE-SANITIZER\n";

}  // namespace

TEST_CASE("memcheck: an out-of-bounds read, its reports by thread merged, file, line, function") {
  const std::string log = kBanner + invalid_read(1) + invalid_read(2) + invalid_read(3) +
                          "runner: a line of the runner's own\n"
                          "========= Target application returned an error\n"
                          "========= ERROR SUMMARY: 3 errors\n";
  const SanitizerReport r = parse_sanitizer_log(log, "memcheck");
  CHECK(r.started);
  CHECK(r.summarized);
  CHECK(r.errors == 3);
  REQUIRE(r.findings.size() == 1);  // "Target application returned an error" is no finding
  const auto& f = r.findings[0];
  CHECK(f.tool == "memcheck");
  CHECK(f.kind == "out-of-bounds read");
  CHECK(f.what == "Invalid __global__ read of size 1 bytes");
  REQUIRE(f.where.size() == 1);
  CHECK(f.where[0] == kSub + "segmented_scan.cu:83");
  CHECK(f.function == "load_items");
  CHECK(f.count == 3);
  CHECK(f.fails);
  CHECK(sanitizer_fails(r, gpulab::kSanitizerErrorExit));
  const std::string text = describe_sanitizer_findings(r.findings, {kSub});
  CHECK(contains(text,
                 "compute-sanitizer memcheck, error: out-of-bounds read at "
                 "segmented_scan.cu:83 in load_items"));
  CHECK(contains(text, "(3 times)"));
  CHECK_FALSE(contains(text, kSub));
}

TEST_CASE("memcheck: a write past an array in the older form, at 0x.. in file:line:function") {
  const std::string log =
      "========= CUDA-MEMCHECK\n"
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at 0x000000c8 in " +
      kSub +
      "segmented_scan.cu:356:void mark_row_heads<int>(const int*, int, unsigned char*)\n"
      "=========     by thread (39,0,0) in block (0,0,0)\n"
      "=========     Address 0x000370e8 is out of bounds\n"
      "=========\n"
      "========= ERROR SUMMARY: 1 error\n";
  const SanitizerReport r = parse_sanitizer_log(log, "memcheck");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == "out-of-bounds write");
  CHECK(r.findings[0].where == std::vector<std::string>{kSub + "segmented_scan.cu:356"});
  CHECK(r.findings[0].function == "mark_row_heads");
  CHECK(r.errors == 1);
}

TEST_CASE("racecheck: a race between two places, its hazards counted; a warning does not fail") {
  const std::string log =
      kBanner +
      "========= Error: Race reported between Write access at void ns::block_scan<(int)256>"
      "(float *, int)+0x90 in " +
      kSub +
      "segmented_scan.cu:120\n"
      "=========     and Read access at void ns::block_scan<(int)256>(float *, int)+0xa0 in " +
      kSub +
      "segmented_scan.cu:124 [256 hazards]\n"
      "=========     and Read access at void ns::block_scan<(int)256>(float *, int)+0xc0 in " +
      kSub +
      "segmented_scan.cu:125 [16 hazards]\n"
      "========= \n"
      "========= Warning: Race reported between Read access at warp_sum(float)+0x10 in " +
      kSub +
      "segmented_scan.cu:40\n"
      "=========     and Write access at warp_sum(float)+0x20 in " +
      kSub +
      "segmented_scan.cu:41 [4 hazards]\n"
      "========= \n"
      "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n";
  const SanitizerReport r = parse_sanitizer_log(log, "racecheck");
  CHECK(r.summarized);
  CHECK(r.errors == 1);
  REQUIRE(r.findings.size() == 2);
  const auto& race = r.findings[0];
  CHECK(race.kind == "shared-memory race");
  CHECK(race.fails);
  CHECK(race.function == "block_scan");
  CHECK(race.where == std::vector<std::string>{kSub + "segmented_scan.cu:120",
                                               kSub + "segmented_scan.cu:124",
                                               kSub + "segmented_scan.cu:125"});
  CHECK(race.count == 272);
  CHECK_FALSE(r.findings[1].fails);
  CHECK(r.findings[1].count == 4);
  const std::string text = describe_sanitizer_findings(r.findings, {kSub});
  CHECK(contains(text,
                 "racecheck, error: shared-memory race between segmented_scan.cu:120, "
                 "segmented_scan.cu:124 and segmented_scan.cu:125 in block_scan"));
  CHECK(contains(text, "(272 hazards)"));
  CHECK(contains(text,
                 "racecheck, warning: shared-memory race between segmented_scan.cu:40 and "
                 "segmented_scan.cu:41"));
}

TEST_CASE("synccheck and initcheck: a divergent barrier and an uninitialized read") {
  const std::string sync = kBanner +
                           "========= Barrier error detected. Divergent thread(s) in warp.\n"
                           "=========     at divergent(int *)+0x70 in " +
                           kSub +
                           "segmented_scan.cu:9\n"
                           "=========     by thread (0,0,0) in block (0,0,0)\n"
                           "========= \n"
                           "========= ERROR SUMMARY: 1 error\n";
  const SanitizerReport s = parse_sanitizer_log(sync, "synccheck");
  REQUIRE(s.findings.size() == 1);
  CHECK(s.findings[0].kind == "sync hazard");
  CHECK(s.findings[0].where == std::vector<std::string>{kSub + "segmented_scan.cu:9"});
  const std::string init = kBanner +
                           "========= Uninitialized __global__ memory read of size 4 bytes\n"
                           "=========     at uninit(const int *, int *)+0x60 in " +
                           kSub +
                           "segmented_scan.cu:7\n"
                           "=========     by thread (0,0,0) in block (0,0,0)\n"
                           "=========     Address 0x7fa5c8800200\n"
                           "========= \n"
                           "========= ERROR SUMMARY: 64 errors\n";
  const SanitizerReport i = parse_sanitizer_log(init, "initcheck");
  REQUIRE(i.findings.size() == 1);
  CHECK(i.findings[0].kind == "uninitialized read");
  CHECK(i.findings[0].function == "uninit");
  CHECK(i.errors == 64);
}

TEST_CASE("a clean run finds nothing; one the tool never started is told apart") {
  const SanitizerReport clean = parse_sanitizer_log(
      kBanner + "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
      "racecheck");
  CHECK(clean.started);
  CHECK(clean.summarized);
  CHECK(clean.findings.empty());
  CHECK_FALSE(sanitizer_fails(clean, 0));
  const SanitizerReport none = parse_sanitizer_log("", "memcheck");
  CHECK_FALSE(none.started);
  CHECK_FALSE(sanitizer_fails(none, 1));
}

TEST_CASE(
    "a tool the run killed, stopped early or whose log it removed fails; a machine's does not") {
  using gpulab::sanitizer_cut_short;
  using gpulab::ToolRunEnd;
  const SanitizerReport whole =
      parse_sanitizer_log(kBanner + "========= ERROR SUMMARY: 0 errors\n", "memcheck");
  const SanitizerReport started = parse_sanitizer_log(kBanner, "memcheck");
  const SanitizerReport none = parse_sanitizer_log("", "memcheck");
  REQUIRE(whole.summarized);
  REQUIRE(started.started);
  REQUIRE_FALSE(started.summarized);
  // A whole log, the tool ended by itself: nothing to say.
  CHECK(sanitizer_cut_short(whole, {0, 0, false, true}).empty());
  // The runner killed its parent, the tool (or the sandbox says a child was killed).
  CHECK(sanitizer_cut_short(whole, {0, 9, false, true}) ==
        ", or the run under it, was killed by signal 9");
  CHECK(sanitizer_cut_short(started, {137, 0, false, true}) ==
        ", or the run under it, was killed by signal 9");
  // The tool started, then stopped without its summary.
  CHECK(test::contains(sanitizer_cut_short(started, {0, 0, false, true}), "no summary"));
  // No log of the tool's, though the runner under it ran: removed or rewritten.
  CHECK(test::contains(sanitizer_cut_short(none, {0, 0, false, true}), "removed or rewritten"));
  // Not the student's doing: gpulab's own limit, or a tool that never started here while the
  // runner stayed silent.
  CHECK(sanitizer_cut_short(started, {137, 9, true, true}).empty());
  CHECK(sanitizer_cut_short(none, {1, 0, false, false}).empty());
}

TEST_CASE(
    "a log the student rewrote: lines without the tool's prefix are no reports, and the "
    "tool's exit status still fails the dataset") {
  // The runner printed look-alike lines and emptied the log; the tool's exit status stands.
  const std::string forged =
      "Invalid __global__ read of size 4 bytes\n"
      "    at k()+0x10 in x.cu:1\n"
      "ERROR SUMMARY: 0 errors\n";
  const SanitizerReport r = parse_sanitizer_log(forged, "memcheck");
  CHECK(r.findings.empty());
  CHECK_FALSE(r.started);
  CHECK(sanitizer_fails(r, gpulab::kSanitizerErrorExit));
  CHECK_FALSE(sanitizer_fails(r, 0));
  // A summary that counts errors fails the dataset though no report survived.
  const SanitizerReport counted =
      parse_sanitizer_log(kBanner + "========= ERROR SUMMARY: 1,025 errors\n", "memcheck");
  CHECK(counted.errors == 1025);
  CHECK(sanitizer_fails(counted, 0));
}

TEST_CASE("a hostile log: bounded findings, bounded and safe text") {
  std::string log = kBanner;
  for (int i = 0; i < 5000; ++i)
    log +=
        "========= Invalid __global__ write of size 4 bytes\n"
        "=========     at k()+0x10 in " +
        kSub + "dir\x1b[31m/f" + std::to_string(i) + ".cu:" + std::to_string(i) + "\n" +
        "========= \n";
  log += std::string(3 << 20, 'x');
  const SanitizerReport r = parse_sanitizer_log(log, "memcheck");
  CHECK(r.findings.size() == 64);
  const std::string text = describe_sanitizer_findings(r.findings, {kSub});
  CHECK(gpulab::is_safe_text(text));
  CHECK(text.size() < 4000);
  CHECK(contains(text, "... and 59 more findings"));
}

TEST_CASE(
    "the command line: the tool, its exit status on errors, a bounded log in the run's "
    "folder, then the runner") {
  const auto cmd = gpulab::sanitizer_command("/opt/cuda/bin/compute-sanitizer", "racecheck",
                                             {"/gpulab/runner", "--part", "spmv"});
  const std::vector<std::string> want = {"/opt/cuda/bin/compute-sanitizer",
                                         "--tool",
                                         "racecheck",
                                         "--error-exitcode",
                                         std::to_string(gpulab::kSanitizerErrorExit),
                                         "--print-limit",
                                         std::to_string(gpulab::kSanitizerPrintLimit),
                                         "--show-backtrace",
                                         "no",
                                         "--report-api-errors",
                                         "no",
                                         "--log-file",
                                         gpulab::kSanitizerLog,
                                         "/gpulab/runner",
                                         "--part",
                                         "spmv"};
  CHECK(cmd == want);
}

TEST_CASE(
    "where compute-sanitizer is found: GPULAB_COMPUTE_SANITIZER, beside nvcc; what to "
    "install where it is nowhere") {
  const test::TempDir dir;
  const auto tool = dir.path() / "bin" / "compute-sanitizer";
  test::write_file(tool, "#!/bin/sh\n");
  chmod(tool.c_str(), 0755);
  std::string why;
  CHECK(gpulab::find_compute_sanitizer(dir.path() / "bin" / "nvcc", why) == tool);
  REQUIRE(setenv("GPULAB_COMPUTE_SANITIZER", (dir.path() / "missing").c_str(), 1) == 0);
  CHECK(gpulab::find_compute_sanitizer(dir.path() / "bin" / "nvcc", why).empty());
  CHECK(contains(why, "GPULAB_COMPUTE_SANITIZER names"));
  REQUIRE(setenv("GPULAB_COMPUTE_SANITIZER", tool.c_str(), 1) == 0);
  CHECK(gpulab::find_compute_sanitizer("", why) == tool);
  unsetenv("GPULAB_COMPUTE_SANITIZER");
  const std::string path = getenv("PATH") ? getenv("PATH") : "";
  REQUIRE(setenv("PATH", "", 1) == 0);
  why.clear();
  const auto found = gpulab::find_compute_sanitizer(dir.path() / "none" / "nvcc", why);
  setenv("PATH", path.c_str(), 1);
  if (std::filesystem::exists("/usr/local/cuda/bin/compute-sanitizer")) {
    CHECK(found == "/usr/local/cuda/bin/compute-sanitizer");
  } else {
    CHECK(found.empty());
    CHECK(contains(why, "install the CUDA toolkit's compute-sanitizer"));
  }
}

TEST_CASE(
    "the tools a grade runs: lab.json's where it names them; else memcheck and initcheck, and "
    "racecheck and synccheck where the student's files spell __shared__") {
  const auto seg =
      gpulab::LabConfig::load(test::source_dir() / "labs" / "segmented-scan" / "lab.json");
  CHECK(seg.sanitize_tools == gpulab::sanitizer_tools());
  const test::TempDir dir;
  CHECK(gpulab::grade_sanitizer_tools(seg, dir.path()) == gpulab::sanitizer_tools());
  CHECK(seg.sanitize_datasets == 3);  // the default
  const auto lab = gpulab::LabConfig::load(test::source_dir() / "labs" / "coarsening" / "lab.json");
  CHECK(lab.sanitize_tools.empty());
  CHECK(lab.sanitize_datasets == 7);
  REQUIRE(lab.student_files.size() == 1);
  const auto file = dir.path() / lab.student_files[0];
  test::write_file(file, "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n");
  CHECK(gpulab::grade_sanitizer_tools(lab, dir.path()) ==
        std::vector<std::string>{"memcheck", "initcheck"});
  test::write_file(file, "#define SHARED __shared__\n__global__ void k() { SHARED int t[32]; }\n");
  CHECK(gpulab::grade_sanitizer_tools(lab, dir.path()) ==
        std::vector<std::string>{"memcheck", "initcheck", "racecheck", "synccheck"});
  // The file is read in pieces of 64 KiB: the word is found across their seam, and far on.
  for (const size_t at : {size_t{65536} - 5, size_t{65536} - 10, size_t{3} << 20}) {
    INFO("__shared__ at byte " << at);
    test::write_file(file, std::string(at, ' ') + "__shared__ int t[32];\n");
    CHECK(gpulab::grade_sanitizer_tools(lab, dir.path()).size() == 4);
  }
  // Beyond what is read (8 MiB: the intake's cap on a submission), it is not looked for.
  test::write_file(file, std::string(size_t{9} << 20, ' ') + "__shared__\n");
  CHECK(gpulab::grade_sanitizer_tools(lab, dir.path()).size() == 2);
  std::filesystem::remove(file);  // a missing file is read as empty, never an error
  CHECK(gpulab::grade_sanitizer_tools(lab, dir.path()).size() == 2);
}

// grader/grade/sanitizer_runs.h's choices before anything runs: whether a grading sanitizes, the
// note where it cannot, the error where run --sanitize asked and the tool is missing, and which
// datasets a grading runs under the tools.
namespace {

struct Grading {
  gpulab::GradeOptions o;
  std::ostringstream log;
  std::unique_ptr<gpulab::GradeContext> c;
  gpulab::Report report;
  gpulab::GradeScope scope;
  std::unique_ptr<gpulab::ReportBuilder> out;

  Grading(gpulab::Backend backend, std::optional<bool> sanitize, bool gpu) {
    o.lab = "segmented-scan";
    o.backend = backend;
    o.sanitize = sanitize;
    c = std::make_unique<gpulab::GradeContext>(o, log);
    c->lab = gpulab::LabConfig::load(test::source_dir() / "labs" / "segmented-scan" / "lab.json");
    c->paths = gpulab::Paths::current();  // gpulab-confine, which the tool starts the runner by
    c->device.usable = gpu;
    c->device.problem = "no GPU in this test";
    out = std::make_unique<gpulab::ReportBuilder>(report, c->lab, scope);
  }
  std::shared_ptr<gpulab::SanitizerRuns> sanitizer() {
    return gpulab::SanitizerRuns::for_grading(*c, *out);
  }
  std::string notes() const {
    std::string all;
    for (const auto& t : report.tests) all += t.name + ": " + t.output + "\n";
    return all;
  }
};

// The lab's group of that name; the test stops where it has none.
const gpulab::GroupSpec* group_named(const gpulab::LabConfig& lab, const std::string& name) {
  for (const auto& g : lab.groups)
    if (g.name == name) return &g;
  FAIL("the lab has no group " << name);
  return nullptr;
}

// A compute-sanitizer that does nothing, in `dir`, as GPULAB_COMPUTE_SANITIZER names it.
void stand_in_tool(const std::filesystem::path& dir) {
  const auto tool = dir / "compute-sanitizer";
  test::write_file(tool, "#!/bin/sh\n");
  chmod(tool.c_str(), 0755);
  REQUIRE(setenv("GPULAB_COMPUTE_SANITIZER", tool.c_str(), 1) == 0);
}

}  // namespace

TEST_CASE("sanitizing: asked or not, where it cannot run a note says why, and grade fails no one") {
  {
    Grading g(gpulab::Backend::sim, std::nullopt,
              false);  // lab.json asks; the CPU backend checks by itself
    CHECK(g.sanitizer() == nullptr);
    CHECK(g.report.tests.empty());
  }
  {
    Grading g(gpulab::Backend::sim, true, false);
    CHECK(g.sanitizer() == nullptr);
    CHECK(contains(g.notes(),
                   "compute-sanitizer not run: the CPU backend checks for the same "
                   "bugs itself: compute-sanitizer runs on a GPU"));
  }
  {
    Grading g(gpulab::Backend::cuda, std::nullopt, false);  // GPU parts are not graded anyway
    CHECK(g.sanitizer() == nullptr);
    CHECK(g.report.tests.empty());
  }
  {
    Grading g(gpulab::Backend::cuda, true, false);
    CHECK(g.sanitizer() == nullptr);
    CHECK(contains(g.notes(),
                   "compute-sanitizer not run: no usable GPU: There is no usable "
                   "CUDA GPU here (no GPU in this test)"));
  }
  REQUIRE(setenv("GPULAB_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1) == 0);
  {
    Grading g(gpulab::Backend::cuda, std::nullopt, true);
    CHECK(g.sanitizer() == nullptr);
    CHECK(contains(g.notes(),
                   "compute-sanitizer not run: not installed: lab.json asks grading "
                   "to run compute-sanitizer"));
    CHECK(contains(g.notes(), "no dataset fails for it"));
  }
  {
    Grading g(gpulab::Backend::cuda, true, true);
    CHECK_THROWS_WITH_AS(g.sanitizer(), doctest::Contains("--sanitize: GPULAB_COMPUTE_SANITIZER"),
                         std::runtime_error);
  }
  {
    Grading g(gpulab::Backend::cuda, false,
              true);  // gpulab run without --sanitize: lab.json is grade's
    CHECK(g.sanitizer() == nullptr);
    CHECK(g.report.tests.empty());
  }
  unsetenv("GPULAB_COMPUTE_SANITIZER");
}

TEST_CASE(
    "sanitizing: public datasets of GPU parts; for grade the three smallest, for run --sanitize "
    "all") {
  const test::TempDir dir;
  stand_in_tool(dir.path());
  Grading grade(gpulab::Backend::cuda, std::nullopt, true), run(gpulab::Backend::cuda, true, true);
  const auto by_grade = grade.sanitizer();
  const auto by_run = run.sanitizer();
  unsetenv("GPULAB_COMPUTE_SANITIZER");
  REQUIRE(by_grade != nullptr);
  REQUIRE(by_run != nullptr);
  const gpulab::LabConfig& lab = grade.c->lab;
  const gpulab::PartSpec& spmv = *lab.part("spmv");
  const gpulab::GroupSpec* pub = group_named(lab, "public");
  const gpulab::GroupSpec* hidden = group_named(lab, "hidden");
  // Which groups: public datasets of a GPU part only.
  CHECK(by_grade->applies(spmv, *pub));
  CHECK_FALSE(by_grade->applies(spmv, *hidden));
  gpulab::PartSpec cpu = spmv;
  cpu.gpu = false;
  CHECK_FALSE(by_run->applies(cpu, *pub));
  gpulab::GroupSpec timing = *pub;
  timing.timing = true;
  CHECK_FALSE(by_run->applies(spmv, timing));
  // Five datasets: inputs of 500, 100, 300, 100 and 200 bytes.
  std::vector<std::filesystem::path> inputs;
  for (int bytes : {500, 100, 300, 100, 200}) {
    const auto input = dir.path() / ("input-" + std::to_string(inputs.size()));
    test::write_file(input / "a.npy", std::string(static_cast<size_t>(bytes) - 10, 'x'));
    test::write_file(input / "sub" / "b.npy", std::string(10, 'y'));
    inputs.push_back(input);
  }
  using V = std::vector<size_t>;
  // grade: the three smallest (ties in order), told in their order.
  CHECK(by_grade->pick(inputs) == V{1, 3, 4});
  CHECK(by_run->pick(inputs) == V{0, 1, 2, 3, 4});  // run --sanitize: every one
  inputs.resize(2);
  CHECK(by_grade->pick(inputs) == V{0, 1});  // fewer than three: all of them
}

TEST_CASE("sanitizing: without gpulab-confine nothing runs under the tool, and the note says so") {
  const test::TempDir dir;
  stand_in_tool(dir.path());
  Grading grade(gpulab::Backend::cuda, std::nullopt, true), run(gpulab::Backend::cuda, true, true);
  grade.c->paths.build = run.c->paths.build = dir.path();  // a build without it
  CHECK(grade.sanitizer() == nullptr);
  CHECK(contains(grade.notes(),
                 "gpulab-confine, which starts the runner under the tool, is missing"));
  CHECK_THROWS_WITH_AS(run.sanitizer(), doctest::Contains("gpulab-confine"), std::runtime_error);
  unsetenv("GPULAB_COMPUTE_SANITIZER");
}

// A grade's runs under the tools (SanitizerRuns::grading_runs_for): started by the first GPU
// part's public group, one process per tool for the picked public datasets of that part and
// those after it, never a hidden group's nor an earlier part's; decided once. A tool that runs
// nothing (the stand-in) leaves a verdict that is not clean, so each group would run its own.
TEST_CASE("sanitizing: a grade's runs under the tools cover the parts from the first on, once") {
  const test::TempDir dir;
  stand_in_tool(dir.path());
  REQUIRE(setenv("GPULAB_CACHE_DIR", (dir.path() / "cache").c_str(), 1) == 0);
  Grading grade(gpulab::Backend::cuda, std::nullopt, true);
  grade.c->work = dir.path() / "work";
  const auto s = grade.sanitizer();
  REQUIRE(s != nullptr);
  const gpulab::LabConfig& lab = grade.c->lab;
  const gpulab::GroupSpec* pub = group_named(lab, "public");
  const gpulab::GroupSpec* hidden = group_named(lab, "hidden");
  const gpulab::PartSpec& inclusive = *lab.part("inclusive");
  const gpulab::PartSpec& exclusive = *lab.part("exclusive");
  const gpulab::PartSpec& spmv = *lab.part("spmv");
  // Asked before any part started them (a timed CPU part ahead of the GPU parts), the verdict
  // is clean and kept for no one: the runs a later part starts are waited for.
  CHECK(s->grading_verdict().clean());
  gpulab::SanitizerRuns::Batch* runs = s->grading_runs_for(exclusive, *pub);
  REQUIRE(runs != nullptr);
  CHECK(runs == s->grading_runs());
  CHECK(runs->covers(exclusive, "public"));
  CHECK(runs->covers(spmv, "public"));
  CHECK_FALSE(runs->covers(inclusive, "public"));  // graded before: not run again
  CHECK_FALSE(runs->covers(spmv, "hidden"));
  CHECK(s->grading_runs_for(inclusive, *pub) == nullptr);
  CHECK(s->grading_runs_for(spmv, *hidden) == nullptr);
  CHECK(s->grading_runs_for(spmv, *pub) == runs);  // the same runs: started once
  const gpulab::SanitizerRuns::Verdict v = s->grading_verdict();
  unsetenv("GPULAB_COMPUTE_SANITIZER");
  unsetenv("GPULAB_CACHE_DIR");
  // Three datasets of each part, exclusive's first, in one verdict.
  CHECK(v.datasets.size() == 6);
  CHECK_FALSE(v.clean());
  CHECK(contains(v.notes, "compute-sanitizer memcheck did not run here"));
  gpulab::SanitizerRuns::Verdict clean;
  CHECK(clean.clean());
  clean.cancelled = true;  // a stopped run tells nothing
  CHECK_FALSE(clean.clean());
}
