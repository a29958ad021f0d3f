#include "build.h"

#include "device.h"
#include "process.h"

namespace gpulab {

namespace {

// The address space of one compiler process: several times what nvcc's and g++'s largest
// passes use on the labs, far below a grading machine's memory.
constexpr size_t kBuildAddressSpace = size_t{8} << 30;
// The largest file a build may write (a `static char big[1 << 40] = {1};` would fill the disk):
// far above any object file or runner of the labs.
constexpr size_t kBuildFileSize = size_t{1} << 30;

}  // namespace

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
                         const Sandbox& sandbox, double timeout_s) {
  BuildResult b;
  // Fresh, so that nothing of an earlier build (owned by an earlier sandbox's user) is in the way.
  std::filesystem::remove_all(work_dir);
  std::filesystem::create_directories(work_dir);
  const SandboxSpec box = build_sandbox(lab, paths, src_dir, work_dir, backend);
  const auto compile = [&](const std::vector<std::string>& cmd) {
    ProcessOptions po;
    po.argv = cmd;
    po.cwd = work_dir;
    po.timeout_s = timeout_s;
    po.output_limit = 32 * 1024;
    // `#include "/dev/zero"` makes the compiler read without end: its memory is bounded here.
    po.address_space_limit = kBuildAddressSpace;
    po.file_size_limit = kBuildFileSize;
    po.cpu_limit_s = timeout_s;
    return sandbox.run(po, box);
  };
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
    const ProcessResult r = compile(cmd);
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
  const ProcessResult r = compile(cmd);
  if (!r.ok()) {
    b.message = "linking the runner failed (the linker " + r.describe() + "):\n" + r.output +
                "\nDid you define every function declared in " + lab.interface + ", once?";
    return b;
  }
  b.ok = true;
  return b;
}

}  // namespace gpulab
