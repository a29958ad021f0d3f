// The runners the student kit carries compiled, so that `gpulab run`, `time` and `bench` show
// ratios to the reference on the student's own GPU while no reference source leaves the
// instructor: each lab's reference runner, and the baseline runner of a lab whose baseline is the
// instructor's alone (lab.json's reference_driver_files: coarsening's is lab 1's plain gather).
// `gpulab dist` strips them and puts them in the kit's runners/ (Paths::shipped_runner_dir,
// where Paths finds them), with runners.json: the gpulab version and the content of each file
// they were built against, so that a runner never meets a harness it was not built with.
// Where the build has the CPU backend, its runners of the same two kinds ship too (`-sim`): the
// CPU backend measures no speed, but its cost model shows the reference's counts beside the
// student's (`gpulab time --backend sim`), and a run stopped at the floor of its time limit is
// given the reference's time over (run_limit.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "build/dist_policy.h"
#include "files/archive_writer.h"
#include "files/paths.h"
#include "lab/lab_config.h"

namespace gpulab {

// The record beside the shipped runners, in runners/.
constexpr const char* kKitRunnerRecord = "runners.json";

// What a CUDA fat binary holds, from CMake's architecture entries ("80", "90-real",
// "90-virtual").
struct KitArchitectures {
  std::vector<std::string> sass;  // "sm_80": machine code for that GPU
  std::vector<std::string> ptx;   // "compute_90": PTX, which the driver compiles for newer GPUs
  // "sm_80, sm_90 + PTX (compute_90)"
  std::string describe() const;
};

// Throws std::runtime_error for entries a kit cannot ship: "native" (whatever GPU the
// instructor's machine has), "all"/"all-major" (a list the kit's README could not name), none,
// or none with PTX (a GPU newer than every sm_XX could not run the runners).
KitArchitectures kit_architectures(const std::vector<std::string>& cmake_architectures);

// One runner the kit ships: `built`, the build's, goes to runners/`name`.
struct KitRunner {
  std::string lab, name;
  std::filesystem::path built;
  Backend backend = Backend::cuda;
};

// The runners the kit ships for `labs`, from the build in `paths`. Throws std::runtime_error
// naming the first one the build lacks.
std::vector<KitRunner> kit_runners(const Paths& paths, const std::vector<LabConfig>& labs);

// What `gpulab dist` adds to the kit: each runner of kit_runners, stripped, and the record,
// under `prefix` + "runners/"; `shipped` is the kit's other files (the record hashes those the
// runners are built against). Checks each stripped CUDA runner still holds its fat binary.
struct KitRunnerFiles {
  std::vector<ArchiveFile> files;  // the runners, then the record
  KitArchitectures architectures;
  size_t cuda_runners = 0, sim_runners = 0;
};
KitRunnerFiles kit_runner_files(const Paths& paths, const std::vector<BundleFile>& shipped,
                                const std::string& prefix);

// Empty, or why `runner`, one the kit ships, does not go with this copy of gpulab: the record is
// missing or from another gpulab version, or a file of harness/, families/, sim/ or labs/<lab>/
// (other than the student's files) differs from the one it was built against. A runner not in
// Paths::shipped_runner_dir() always goes (the build made it with this gpulab).
std::string shipped_runner_mismatch(const Paths& paths, const LabConfig& lab,
                                    const std::filesystem::path& runner);
// Throws std::runtime_error with shipped_runner_mismatch's message, where there is one.
void check_shipped_runner(const Paths& paths, const LabConfig& lab,
                          const std::filesystem::path& runner);

}  // namespace gpulab
