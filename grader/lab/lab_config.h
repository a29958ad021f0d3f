// lab.json, parsed and validated: everything an instructor changes about grading lives there.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend_words.h"
#include "lab/bench_sweep_spec.h"
#include "lab/gradescope_policy.h"
#include "lab/lab_timing.h"
#include "lab/library_policy.h"
#include "lab/run_limit.h"

namespace gpulab {

// A broken lab.json: what() names the file and the field.
struct LabConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ToleranceSpec {
  // "sum_magnitude" (float32 outputs, harness/compare.h), "exact" (int32 outputs: bit-exact,
  // the oracle's int64 result reduced to 32 bits, so wrap-around is defined) or "segment_sets"
  // (int32 outputs whose segments are compared as sets, below).
  std::string model;
  bool exact() const { return model == "exact"; }
  bool segment_sets() const { return model == "segment_sets"; }
  // segment_sets: segment s is the elements [starts[s], starts[s] + counts[s]), where `starts`
  // and `counts` name two other int32 outputs of the lab, read from the expected outputs (a
  // grid's cell_start and cell_count); the order of the values inside a segment is free.
  // Messages call a segment `segment_noun` and, where `segment_shape` names dataset parameters
  // (outermost first: nz, ny, nx), give its id's coordinates in that shape.
  std::string starts, counts;
  std::string segment_noun = "segment";
  std::vector<std::string> segment_shape;
  double K = 0;
  double unit_roundoff = 0;
  // What counts the summed terms n: a dataset parameter (the same n for every element), or
  // "expected:<name>": an array <name>.npy the oracle writes beside the expected output, one n
  // per element (a cutoff sum adds a different number of terms at every point), or, when
  // lab.json gives a number, that constant (1: no sqrt(n) factor, for sums whose order of adds
  // is known to keep the error small, or whose K covers the worst order), or "prefix": the
  // output is a prefix sum (a scan) and element k's count is its prefix's terms up to k, with
  // prefixes restarting where the dataset's input array `heads` (<heads>.npy, uint8, the
  // output's shape) is nonzero, if given (harness/compare.h, PerElementBound::prefix).
  std::string terms;
  std::string heads;
  static constexpr const char* kPrefixTerms = "prefix";
  bool prefix_terms() const { return terms == kPrefixTerms; }
  double terms_constant = 0;  // > 0 when lab.json gives a number
  static constexpr const char* kPerElementPrefix = "expected:";
  bool per_element_terms() const { return terms.rfind(kPerElementPrefix, 0) == 0; }
  std::string terms_file() const {
    return terms.substr(std::char_traits<char>::length(kPerElementPrefix));
  }
  // The oracle also writes <output>_position.npy, each element's position sensitivity
  // (harness/compare.h), and the bound allows for one rounding of the output's coordinates.
  bool position = false;
};

struct OutputSpec {
  std::string name;
  std::string dtype;  // "float32" or "int32"
  ToleranceSpec tolerance;
};

struct PartSpec {
  std::string name, title;
  bool gpu = false;
  std::vector<std::string> outputs;
  // The environment a runner of this part gets: a CPU part sees no GPU, so its code cannot move
  // its work there (CPU parts are timed as CPU code: wall time plus other threads' CPU time).
  std::vector<std::string> runner_env() const;
};

struct DatasetSpec {
  std::string name;
  nlohmann::json params;
  std::optional<uint64_t> seed;    // fixed seed (public); none: derived from the instructor's
  std::vector<std::string> parts;  // empty: every part
  bool applies_to(const std::string& part) const;
};

struct GroupSpec {
  std::string name;
  bool hidden = false;
  bool timing = false;
  std::vector<Backend> backends;
  std::vector<DatasetSpec> datasets;
  bool on_backend(Backend backend) const;
  nlohmann::json backends_json() const;  // ["cuda"], as lab.json spells them
};

// Points for a speedup over the lab's trusted baseline (the driver's own plain version),
// timed in each round of the performance test beside the student's run, in a process of its
// own by a runner with no student code: full points at a speedup of at_least or more, none
// below.
struct SpeedupRubric {
  double points = 0;
  double at_least = 1;
};

// Points for data scalability: the time per work unit (a lattice point, say) on the timing
// dataset `large` over that on `small` must be at most max_growth.
struct ScalabilityRubric {
  double points = 0;
  std::string small, large;
  double max_growth = 1.25;
};

struct PartRubric {
  std::map<std::string, double> group_points;  // correctness points per dataset group
  double performance = 0;
  SpeedupRubric speedup;
  ScalabilityRubric scalability;
  // The points that need timing on a GPU.
  double timed_points() const { return performance + speedup.points + scalability.points; }
};

struct PerformanceCurve {
  double full_at_ratio = 1.2;
  double zero_past_ratio = 10.0;
  // What a time ratio earns on this curve: grader/core/scoring.h's curve_fraction.
};

// lab.json's "writeup": the report students hand in beside their code, its template
// labs/<id>/<file> (the student kit ships it), graded by the instructor and never by gpulab,
// which only keeps it with the results (writeup.h).
struct WriteupSpec {
  std::string file;   // a Markdown file's plain name: REPORT.md
  double points = 0;  // what the instructor grades it out of; not in the autograder's total
};

struct LabConfig {
  std::filesystem::path dir;  // labs/<id>
  std::string id, title, interface;
  int number = 0;       // the lab's place in the course; 0: none given (listed after those)
  std::string summary;  // what students write, for the README's table of labs (rubric.h)
  std::vector<std::string> student_files;
  std::vector<std::string> nvcc_flags;
  // The lab's trusted driver sources in labs/<id>/ (CMake builds them into the driver library;
  // a .cu among them holds the baseline kernel a speedup is measured against).
  std::vector<std::string> driver_files = {"driver.cpp"};
  // Driver sources kept with the solution, in reference/<id>/ (lab.json's
  // "reference_driver_files"): a baseline that would answer another lab (coarsening's is lab 1's
  // plain gather). CMake links them into the driver where reference/ is there; the student kit
  // has them only compiled, in the baseline runner it ships (grader/build/kit_runners.h).
  std::vector<std::string> reference_driver_files;
  std::vector<PartSpec> parts;
  std::map<std::string, OutputSpec> outputs;
  std::vector<GroupSpec> groups;
  LabTiming timing;  // lab.json's "timing", resolved per part kind (lab_timing.h)
  std::map<std::string, PartRubric> rubric;
  PerformanceCurve curve;
  SimTimeLimit sim_time_limit;  // a correctness run's limit on the CPU backend (run_limit.h)
  // lab.json's "cost_dataset": where gpulab time --backend sim costs a part (time_command.h);
  // empty: each part's last public dataset.
  std::string cost_dataset;
  // lab.json's "sanitize": {"tools": [...], "datasets": N}: the compute-sanitizer tools gpulab
  // grade runs on a GPU (empty: gpulab's choice, sanitizer_runs.h), on the N smallest public
  // datasets of each GPU part that passed.
  std::vector<std::string> sanitize_tools;
  int sanitize_datasets = 3;
  // lab.json's "gradescope": the course's policy on Gradescope (gradescope_policy.h).
  GradescopePolicy gradescope;
  // lab.json's "writeup"; none without the key.
  std::optional<WriteupSpec> writeup;
  // lab.json's "bench_sweeps" (bench_sweep_spec.h); none without the key.
  std::vector<BenchSweep> bench_sweeps;
  // lab.json's "library" (library_policy.h): the library work a student's files may not bring
  // in, which the build refuses; nothing without the key.
  LibraryPolicy library;

  static LabConfig load(const std::filesystem::path& lab_json);
  // The lab `id` of the tree at source_root (labs/<id>/lab.json); an unknown id is refused with
  // the nearest lab's name and the list of labs.
  static LabConfig load_id(const std::filesystem::path& source_root, const std::string& id);
  // The same from lab.json's content; `lab_json` is where it belongs (the lab's folder, and
  // what messages call it).
  static LabConfig parse(const std::string& text, const std::filesystem::path& lab_json);
  const PartSpec* part(const std::string& name) const;
  double part_points(const std::string& part) const;  // correctness and timed points
  // The dataset of a timing group with this name that applies to `part`; null when none.
  // `group`, when given, receives its group.
  const DatasetSpec* timing_dataset(const std::string& name, const std::string& part,
                                    const GroupSpec** group = nullptr) const;
  // The timing settings of a part: those of its kind (GPU or CPU), with every default filled
  // in.
  const TimingSettings& timing_for(const PartSpec& part) const { return timing.of(part.gpu); }
};

// Labs found under <source>/labs/*/lab.json, sorted by id.
std::vector<std::filesystem::path> find_lab_files(const std::filesystem::path& source_root);

}  // namespace gpulab
