#include "build.h"

#include "device.h"
#include "process.h"

namespace gpulab {

std::string build_arch(const Paths& paths) {
  const DeviceInfo dev = device_preflight();
  if (dev.usable) return dev.arch();
  std::string first = paths.cuda_architectures.substr(0, paths.cuda_architectures.find(','));
  const auto dash = first.find('-');  // "90-real" -> "90"
  if (dash != std::string::npos) first = first.substr(0, dash);
  if (first.empty() || first == "native" || first == "all") first = "90";
  return "sm_" + first;
}

BuildResult build_runner(const LabConfig& lab, const Paths& paths,
                         const std::filesystem::path& src_dir,
                         const std::filesystem::path& work_dir, const std::string& backend,
                         double timeout_s) {
  BuildResult b;
  std::filesystem::create_directories(work_dir);
  const bool sim = backend == "sim";
  const std::filesystem::path compiler = sim ? paths.sim_cc() : paths.nvcc;
  for (const auto& needed :
       {paths.harness_lib(backend), paths.driver_lib(lab.id, backend), compiler})
    if (!std::filesystem::exists(needed)) {
      b.message = "gpulab is not fully built for the " + backend + " backend: " + needed.string() +
                  " is missing (run cmake --build" +
                  (sim ? "; the sim backend needs the packages scripts/setup.sh installs)" : ")");
      return b;
    }
  // The CPU backend compiles for no GPU architecture.
  const std::vector<std::string> arch =
      sim ? std::vector<std::string>{} : std::vector<std::string>{"-arch=" + build_arch(paths)};
  std::vector<std::string> objects;
  for (const auto& file : lab.student_files) {
    const auto src = src_dir / file;
    if (!std::filesystem::is_regular_file(src)) {
      b.message = "the submission has no " + file + " (expected files: ";
      for (size_t i = 0; i < lab.student_files.size(); ++i)
        b.message += (i ? ", " : "") + lab.student_files[i];
      b.message += ")";
      return b;
    }
    const auto obj = work_dir / (file + ".o");
    std::vector<std::string> cmd = {compiler.string(), "-std=c++17"};
    cmd.insert(cmd.end(), arch.begin(), arch.end());
    cmd.insert(cmd.end(), lab.nvcc_flags.begin(), lab.nvcc_flags.end());
    cmd.insert(cmd.end(), {"-I", lab.dir.string(), "-c", src.string(), "-o", obj.string()});
    const ProcessResult r = run_process({cmd, work_dir, timeout_s, 32 * 1024, 0, 0, {}});
    if (!r.ok()) {
      b.message = "compiling " + file + " failed (the compiler " + r.describe() + "):\n" + r.output;
      return b;
    }
    objects.push_back(obj.string());
  }
  b.runner = work_dir / "runner";
  std::vector<std::string> cmd = {compiler.string()};
  cmd.insert(cmd.end(), arch.begin(), arch.end());
  cmd.insert(cmd.end(), {"-o", b.runner.string()});
  cmd.insert(cmd.end(), objects.begin(), objects.end());
  // The driver registers its parts from static initializers nothing else references, so the
  // linker must keep the whole archive.
  // nvcc reorders separate -Xlinker options, so the three go as one.
  cmd.insert(cmd.end(), {"-Xlinker=--whole-archive," + paths.driver_lib(lab.id, backend).string() +
                             ",--no-whole-archive",
                         paths.harness_lib(backend).string()});
  const ProcessResult r = run_process({cmd, work_dir, timeout_s, 32 * 1024, 0, 0, {}});
  if (!r.ok()) {
    b.message = "linking the runner failed (the linker " + r.describe() + "):\n" + r.output +
                "\nDid you define every function declared in " + lab.interface + ", once?";
    return b;
  }
  b.ok = true;
  return b;
}

}  // namespace gpulab
