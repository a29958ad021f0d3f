// What `gpulab run` settles before grading, on the build tree (grader/cli/run_setup.h): the backend
// when the student names none, and the lab folder of the tree the student stands in.
#include <doctest/doctest.h>

#include <fstream>

#include "device.h"
#include "e2e_util.h"

namespace e2e {

namespace {

const fs::path kScanSubmissions = kSource / "tests" / "submissions" / "scan";

struct Ran {
  gpulab::ProcessResult process;
  json report;
};

// `gpulab run scan --part exclusive --dataset int-33 --no-time <extra> --out <cwd>/r.json` in
// `cwd`: one small dataset of one part.
Ran run_scan(const fs::path& cwd, std::vector<std::string> extra) {
  std::vector<std::string> argv = {
      GPULAB_TEST_BINARY, "run",    "scan",      "--part", "exclusive",
      "--dataset",        "int-33", "--no-time", "--out",  (cwd / "r.json").string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  Ran r;
  r.process = gpulab::run_process({argv, cwd, 300, 1 << 20, 0, 0, {}});
  REQUIRE_MESSAGE(fs::is_regular_file(cwd / "r.json"), "no report was written; gpulab said:\n"
                                                           << r.process.output);
  r.report = read_report(cwd / "r.json");
  return r;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_SUITE("sim") {
  // A tree of the student's own (a copy of labs/scan holding a finished scan.cu, and a lab.json
  // that would change the rules): run from inside its labs/scan builds that file, by the
  // grader's lab.json; without a GPU on the CPU backend, said in one line.
  TEST_CASE("run picks the backend by itself and takes the files of the tree it stands in") {
    const fs::path tree = scratch("run-own-tree");
    const fs::path lab = tree / "labs" / "scan";
    fs::create_directories(lab);
    fs::copy_file(kScanSubmissions / "alt-correct" / "scan.cu", lab / "scan.cu");
    std::ofstream(lab / "lab.json") << "{\"id\": \"scan\", \"parts\": \"a student's edit\"}";
    const Ran r = run_scan(lab, {});
    INFO(r.process.output);
    CHECK(r.process.exit_code == 0);
    CHECK(score(r.report) == max_score(r.report));  // the build tree's stub would score zero
    CHECK(score(r.report) > 0);
    CHECK(r.process.output.find("your files:") == std::string::npos);  // they are right here
    const std::string backend = r.report.at("extra_data").at("gpulab").at("backend");
    if (gpulab::device_preflight().usable) {
      CHECK(backend == "cuda");
      CHECK(count(r.process.output, "running on the CPU backend") == 0);
    } else {
      CHECK(backend == "sim");
      CHECK(count(r.process.output, "running on the CPU backend (sim)") == 1);
      CHECK(r.process.output.find("--backend cuda forces the GPU") != std::string::npos);
      CHECK(r.process.output.find("not graded (no GPU)") == std::string::npos);
    }
  }
}

TEST_SUITE("cpu") {
  // Outside any gpulab tree the files come from the build's own tree, and run says which;
  // --backend cuda keeps what it did without a GPU.
  TEST_CASE("--backend cuda without a GPU leaves GPU parts out; files from the build's tree") {
    if (gpulab::device_preflight().usable) {
      MESSAGE("skipped: this machine has a GPU, so --backend cuda runs on it");
      return;
    }
    const fs::path away = scratch("run-no-tree");
    const Ran r = run_scan(away, {"--backend", "cuda"});
    INFO(r.process.output);
    CHECK(r.report.at("extra_data").at("gpulab").at("backend") == "cuda");
    CHECK(output_says(r.report, "exclusive: not graded (no GPU)"));  // information, no test
    CHECK(r.process.output.find("running on the CPU backend") == std::string::npos);
    CHECK(count(r.process.output, "your files: " + (kSource / "labs" / "scan").string()) == 1);
  }
}

}  // namespace e2e
