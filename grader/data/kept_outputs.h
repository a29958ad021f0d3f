// gpulab run --keep-outputs DIR: the student's outputs of each dataset run, beside the expected
// ones, as .npy, to look at with numpy:
//   DIR/<part>/<dataset>/<output>.npy           what the student's code gave (float32 or int32)
//   DIR/<part>/<dataset>/<output>.expected.npy  the oracle's (float64 for a float output)
// The run handed its outputs to gpulab as sealed memory files (sealed_outputs.h); gpulab reads
// each as it reads them for the check (an .npy array validated by harness/npy.h), keeps it only
// with the expected shape, and writes it anew itself, under names from lab.json, each through a
// temporary beside it and a rename (temporaries.h). Nothing of the student's chooses a path or
// reaches DIR unparsed. For run only: grade keeps nothing.
#pragma once

#include <filesystem>
#include <string>

#include "data/dataset_store.h"
#include "data/sealed_outputs.h"
#include "lab/lab_config.h"

namespace gpulab {

// The folder of one part and dataset under DIR.
std::filesystem::path kept_outputs_dir(const std::filesystem::path& keep_dir,
                                       const std::string& part, const std::string& dataset);

// Keeps the outputs of `part` on `d` that the run handed over (`got`) under `keep_dir`,
// replacing those of an earlier run. Returns "" when every output was kept, else one line per
// output of the student's that was not, saying why (the expected one is kept regardless).
std::string keep_outputs(const LabConfig& lab, const PartSpec& part, const DatasetDirs& d,
                         const SealedOutputs& got, const std::filesystem::path& keep_dir);

}  // namespace gpulab
