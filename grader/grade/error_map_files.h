// The maps of where an output is wrong (error_map.h) that gpulab grade and gpulab run draw for
// a failing dataset: where they go, what the dataset's message says of them, and the picture
// the report carries (report.h's ReportImage).
//  - Where: beside the report (GradeOptions::error_maps_beside, grade's and run's --out), as
//    <report's name up to its first dot>.<part>.<dataset>.error.png and .svg
//    (results.gather.medium.error.png); under gpulab run --keep-outputs DIR, beside the kept
//    outputs instead, DIR/<part>/<dataset>/<output>.error.png and .svg. Nowhere else: without
//    either, the message says how to get one.
//  - Which: one a part, of the first dataset whose check failed on an output that maps (a
//    float32 output of rank 2 or 3, error_map.h). Never a hidden dataset's: its expected output,
//    and where the student's differs from it, are the instructor's (correctness_tests.h gives
//    those datasets' details to instructors alone).
//  - Each grading first removes the maps an earlier one left at those places.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "core/report.h"
#include "data/dataset_store.h"
#include "data/sealed_outputs.h"
#include "grade/grade.h"
#include "lab/lab_config.h"

namespace gpulab {

// How the line a map adds to its dataset's message begins (gpulab run shows it even where it
// leaves that dataset's message out: failure_messages.h).
inline const std::string kErrorMapNote = "A map of where ";

struct DrawnErrorMap {
  std::string note;                  // the line for the dataset's message, kErrorMapNote first
  std::optional<ReportImage> image;  // where the map was kept
};

// Removes the maps an earlier grading left where `o` puts them, for every part and dataset of
// `lab`, so that none of another submission stays there.
void remove_error_maps(const LabConfig& lab, const GradeOptions& o);

// The map of the first output of `part` on `d` that maps, read from the outputs the run handed
// over (`got`) as the check reads them, and kept where `o` puts it; nothing where no
// output maps (all passed, or none is a float32 output of rank 2 or 3) or `d` is hidden. A map
// that cannot be drawn or kept is said on `log`, and the note says where to look.
std::optional<DrawnErrorMap> draw_error_map_files(const LabConfig& lab, const PartSpec& part,
                                                  const DatasetDirs& d, const SealedOutputs& got,
                                                  const GradeOptions& o, std::ostream& log);

}  // namespace gpulab
