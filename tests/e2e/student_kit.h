// The student kit as a student has it: made by `gpulab dist`, unpacked into an empty
// directory and built with its README's commands for a machine without a GPU. Building it
// costs minutes, so it is made once per test process and every student-kit case works in it;
// a case that changes a lab file restores it (KitFile).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "os/process.h"

namespace e2e {

struct StudentKit {
  std::filesystem::path root;    // the scratch directory: kit.tar.gz and unpacked/
  std::filesystem::path kit;     // unpacked/gpulab: what the student works in
  std::filesystem::path gpulab;  // kit/build/gpulab
  std::string seed;              // the hidden seed `dist` saw in its environment
  double build_s = 0;            // the README's build, on the clock
  double build_cpu_s = 0;        // and its CPU time, every process of it (user and system)
};

// Made and built on first use; a failure fails every case that asks for it.
const StudentKit& student_kit();

// Runs `argv` in `cwd` (default: the kit), as a student's shell would.
gpulab::ProcessResult run_in_kit(std::vector<std::string> argv,
                                 const std::filesystem::path& cwd = {},
                                 std::vector<std::string> env = {}, double timeout_s = 900);

// Replaces a kit file for one case and puts the original back when it goes out of scope.
class KitFile {
 public:
  KitFile(const std::filesystem::path& relative, const std::filesystem::path& replacement);
  ~KitFile();
  KitFile(const KitFile&) = delete;
  KitFile& operator=(const KitFile&) = delete;

 private:
  std::filesystem::path file_;
  std::string original_;
};

}  // namespace e2e
