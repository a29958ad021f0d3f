// End-to-end: the reference's timed rounds are kept per machine (kept_reference_timing.h). A
// first grading times the reference in every round and keeps its rounds; the next uses them,
// checked by one run of the reference; a kept time the check run contradicts is not used (the
// reference is timed in every round again, and kept anew), nor is a kept file gpulab did not
// write. The cpu suite shows it on a CPU part (the cuda backend times CPU parts without a GPU),
// the gpu suite on a GPU part.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "stats.h"

namespace {

using namespace e2e;

// The drift these gradings allow: wide, so that a busy CI machine does not fail the test where
// it slows one run; the tampered file below is ten times off.
constexpr double kAllowedDrift = 0.75;

// The kept files under the dataset cache `cache`.
std::vector<fs::path> kept_files(const fs::path& cache) {
  std::vector<fs::path> found;
  for (const auto& e : fs::recursive_directory_iterator(cache))
    if (e.is_regular_file() && e.path().filename().string().rfind("reference-timing.", 0) == 0)
      found.push_back(e.path());
  return found;
}

struct KeptRun {
  json perf;  // the performance test
  json how;   // its extra_data.reference_timing
};

// Grades the reference's `part`, timed, with the lab copy at `src` and the
// dataset cache `cache`.
KeptRun grade_timed(const fs::path& src, const fs::path& cache, const std::string& part) {
  const Graded g =
      e2e::grade("scatter-gather", kSource / "reference" / "scatter-gather", {"--part", part}, 900,
                 {"GPULAB_SOURCE_DIR=" + src.string(), "GPULAB_CACHE_DIR=" + cache.string()});
  CHECK(g.process.exit_code == 0);
  KeptRun r;
  r.perf = test_named(g.report, part + ": performance");
  r.how = r.perf["extra_data"]["reference_timing"];
  CHECK_MESSAGE(r.perf["score"].get<double>() > 0, r.perf.dump(2));
  return r;
}

// A copy of scatter-gather whose `kind` parts allow kAllowedDrift of a kept reference time,
// with the timing dataset of `part` small and three rounds of three samples.
fs::path lab_copy(const std::string& kind, const std::string& part) {
  const fs::path src = lab_source_copy("kept-reference-source-" + kind, "scatter-gather");
  const fs::path lab_json = src / "labs" / "scatter-gather" / "lab.json";
  json lab = json::parse(std::ifstream(lab_json));
  if (kind == "cpu")
    for (auto& g : lab["dataset_groups"])
      if (g.value("timing", false))
        for (auto& ds : g["datasets"])
          if (ds["parts"] == json::array({part}))
            ds["params"] = {{"nx", 64}, {"ny", 64}, {"nz", 8}, {"n_atoms", 300}, {"h", 0.5}};
  lab.erase("bench_sweeps");
  lab["timing"][kind] = {{"rounds", 3},      {"min_rounds", 3},
                         {"min_samples", 3}, {"max_samples", 3},
                         {"samples", 3},     {"kept_reference_drift", kAllowedDrift}};
  std::ofstream(lab_json) << lab.dump(2);
  return src;
}

void check_kept_reference(const std::string& kind, const std::string& part) {
  const fs::path src = lab_copy(kind, part);
  const fs::path cache = scratch("kept-reference-cache-" + kind);

  // None kept: timed in every round, and its rounds kept.
  const KeptRun first = grade_timed(src, cache, part);
  CHECK_MESSAGE(first.how["how"] == "first", first.perf.dump(2));
  std::vector<fs::path> files = kept_files(cache);
  REQUIRE(files.size() == 1);
  json kept = json::parse(std::ifstream(files[0]));
  const std::vector<double> rounds = kept["round_ms"].get<std::vector<double>>();
  CHECK(rounds == first.perf["extra_data"]["reference_samples_ms"].get<std::vector<double>>());
  CHECK(kept["key"]["part"] == part);
  CHECK(kept["key"]["samples"].size() == 3);
  CHECK(kept["key"]["machine"].contains(kind == "gpu" ? "uuid" : "host"));

  // Kept: the reference timed once, as a check; every round's ratio is to the kept median.
  const KeptRun second = grade_timed(src, cache, part);
  CHECK_MESSAGE(second.how["how"] == "kept", second.perf.dump(2));
  const double kept_ms = gpulab::median(rounds);
  CHECK(second.how["kept_ms"].get<double>() == doctest::Approx(kept_ms));
  CHECK(second.how["kept_rounds"] == rounds.size());
  CHECK(second.how["check_ms"].get<double>() > 0);
  CHECK(std::abs(second.how["drift"].get<double>()) <= kAllowedDrift);
  for (const double ms :
       second.perf["extra_data"]["reference_samples_ms"].get<std::vector<double>>())
    CHECK(ms == doctest::Approx(kept_ms));
  CHECK(contains(second.perf,
                 kind == "gpu" ? "the one kept for this GPU" : "the one kept for this machine"));
  CHECK(kept_files(cache).size() == 1);

  // Kept ten times slower than the machine is now (another process was loading it then): the
  // check run contradicts it, so the reference is timed in every round, and kept anew.
  for (auto& ms : kept["round_ms"]) ms = ms.get<double>() * 10;
  std::ofstream(files[0]) << kept.dump(2);
  const KeptRun third = grade_timed(src, cache, part);
  CHECK_MESSAGE(third.how["how"] == "refreshed", third.perf.dump(2));
  CHECK(third.how["drift"].get<double>() < -kAllowedDrift);
  CHECK(contains(third.perf, "was not used"));
  CHECK(third.perf["extra_data"]["student_samples_ms"].size() ==
        third.perf["extra_data"]["reference_samples_ms"].size());
  const json refreshed = json::parse(std::ifstream(files[0]));
  CHECK(gpulab::median(refreshed["round_ms"].get<std::vector<double>>()) < 10 * kept_ms / 3);

  // A file gpulab did not write (a time of the wrong type) is not used: timed again, kept anew.
  json forged = refreshed;
  forged["round_ms"] = json::array({"0.001"});
  std::ofstream(files[0]) << forged.dump(2);
  const KeptRun fourth = grade_timed(src, cache, part);
  CHECK_MESSAGE(fourth.how["how"] == "first", fourth.perf.dump(2));
  CHECK(json::parse(std::ifstream(files[0]))["round_ms"][0].is_number());
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("the reference's timed rounds are kept per host, checked, and refreshed when off") {
    check_kept_reference("cpu", "cpu_fast");
  }
}

TEST_SUITE("gpu") {
  TEST_CASE("the reference's timed rounds are kept per GPU, checked, and refreshed when off") {
    check_kept_reference("gpu", "gather");
  }
}
