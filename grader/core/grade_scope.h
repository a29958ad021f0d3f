// What one grading covers, from its options and the machine it runs on: which parts, dataset
// groups and datasets run, and whether timed points are measured. Pure: the grading
// (correctness_tests.cpp, timed_tests.cpp) runs what this selects, and the scoring (scoring.h)
// counts the same selection in a part's maximum, so the two cannot disagree.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lab/lab_config.h"

namespace gpulab {

struct GradeScope {
  Backend backend = Backend::cuda;
  std::vector<std::string> parts;  // empty: every part (--part)
  std::string dataset;             // non-empty: only this dataset (gpulab run --dataset)
  bool include_hidden = true;      // gpulab run leaves hidden groups out
  bool performance = true;         // false: --no-time
  bool gpu_parts_run = true;       // a usable GPU, or the CPU backend
  bool gpu_parts_count = false;    // GPU parts that cannot run here stay in the maximum (grade.h)
  // A reference to time against: the student kit has none, and then the performance test's
  // points are left out (the speedup is timed against the lab's baseline, which every copy has).
  bool reference = true;

  bool sim() const { return backend == Backend::sim; }
  // Timed points are measured: on a GPU backend, unless timing was switched off.
  bool timed() const { return performance && !sim(); }
  bool part_selected(const std::string& part) const;
  // A GPU part that cannot run here and is left out of the maximum (gpulab run) or not (a grade
  // of record, which then has no score unless the code did not build or was not accepted).
  bool part_left_out(const PartSpec& part) const {
    return part.gpu && !gpu_parts_run && !gpu_parts_count;
  }
  bool wanted(const DatasetSpec& ds, const std::string& part) const;
  // A correctness group whose datasets run here: not a timing group, on this backend, and not
  // hidden where hidden groups are left out.
  bool group_runs(const GroupSpec& g) const;
  // A correctness group with points for `part` that lab.json does not run on this backend (the
  // report says so in a test worth nothing).
  bool group_off_backend(const GroupSpec& g, const PartRubric& rubric) const;
  // The datasets of group `g` that `part` runs here, in lab.json's order.
  std::vector<const DatasetSpec*> datasets(const GroupSpec& g, const std::string& part) const;
};

// The names --dataset may give here: the datasets of the selected parts in the groups on this
// backend (timing groups too; hidden ones only where hidden groups run), in lab.json's order.
std::vector<std::string> dataset_names(const LabConfig& lab, const GradeScope& scope);

// The correctness runs a grading makes: one per dataset of each selected part that runs here
// (gpulab run's step counter counts them, grade_steps.h).
size_t correctness_runs(const LabConfig& lab, const GradeScope& scope);

// The dataset on which a part's function is called twice in one process: the second wanted
// dataset of the part's first public group that runs here, or its only one. Not the first,
// which is often a single element, where kept state can hide (an exclusive scan of one element
// is 0 whatever an earlier call left behind); one small dataset, since runs on the CPU backend
// are slow. Null where no public group runs.
const DatasetSpec* called_twice_on(const LabConfig& lab, const PartSpec& part,
                                   const GradeScope& scope);

// The part's performance dataset: its first timing dataset that runs here, passing over the
// small one of a scalability pair when there is another. {null, null} where there is none.
std::pair<const GroupSpec*, const DatasetSpec*> performance_dataset(const LabConfig& lab,
                                                                    const PartSpec& part,
                                                                    const GradeScope& scope);

}  // namespace gpulab
