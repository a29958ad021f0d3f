// gpulab datasets: a lab's datasets and expected outputs as .npy, for people to look at. By
// default the public datasets a run checks; the timing group (gigabytes) and the hidden ones
// only when asked for, the output saying what was left out and how to get it. Progress on one
// redrawn line on a terminal (plain lines in a log); each dataset is made beside its place and
// renamed into it whole (dataset_store.h), and a stop (Ctrl-C, SIGTERM) removes the one being
// made (temporaries.h) and exits with kExitStopped.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lab/lab_config.h"

namespace gpulab {

struct DatasetsOptions {
  std::string lab;
  std::filesystem::path out;
  std::string group;                // empty: the default choice below
  std::optional<std::string> seed;  // the hidden seed: the hidden groups too
};

struct DatasetGroupChoice {
  std::vector<const GroupSpec*> write;
  // One line per group left out: which, why, and the command that writes it.
  std::vector<std::string> left_out;
};

// The groups `gpulab datasets` writes: `group` alone when named (a timing group included; a
// hidden one only with the seed), else every public group that is not for timing, and the
// hidden ones where there is a seed. Throws std::runtime_error for a group the lab does not
// have (naming the valid ones) or a hidden one without the seed.
DatasetGroupChoice choose_dataset_groups(const LabConfig& lab, const std::string& group,
                                         bool seeded);

// The command, on `out` (std::cout: its progress line is redrawn when that is a terminal).
int datasets_command(const DatasetsOptions& o, std::ostream& out);

}  // namespace gpulab
