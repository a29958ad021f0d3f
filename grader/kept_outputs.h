// gpulab run --keep-outputs DIR: the student's outputs of each dataset run, beside the expected
// ones, as .npy, to look at with numpy:
//   DIR/<part>/<dataset>/<output>.npy           what the student's code gave (float32 or int32)
//   DIR/<part>/<dataset>/<output>.expected.npy  the oracle's (float64 for a float output)
// The student's code wrote its outputs into its run's output folder, the one folder its sandbox
// lets it write; gpulab reads each from there as it reads them for the check (run_output.h: a
// regular file opened without following links, an .npy file validated by harness/npy.h), keeps
// it only with the expected shape, and writes it anew itself, under names from lab.json, each
// through a temporary beside it and a rename (temporaries.h). Nothing of the student's chooses
// a path or reaches DIR unparsed. For run only: grade keeps nothing.
#pragma once

#include <filesystem>
#include <string>

#include "dataset_store.h"
#include "lab_config.h"

namespace gpulab {

// The folder of one part and dataset under DIR.
std::filesystem::path kept_outputs_dir(const std::filesystem::path& keep_dir,
                                       const std::string& part, const std::string& dataset);

// Keeps the outputs of `part` on `d` from the run's output folder `run_out` under `keep_dir`,
// replacing those of an earlier run. Returns "" when every output was kept, else one line per
// output of the student's that was not, saying why (the expected one is kept regardless).
std::string keep_outputs(const LabConfig& lab, const PartSpec& part, const DatasetDirs& d,
                         const std::filesystem::path& run_out,
                         const std::filesystem::path& keep_dir);

}  // namespace gpulab
