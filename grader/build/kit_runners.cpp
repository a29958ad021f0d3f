#include "build/kit_runners.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>

#include "build/elf_sections.h"
#include "files/content_hash.h"
#include "files/temp_folder.h"
#include "os/process.h"
#include "sandbox/runner_recipe.h"
#include "text/joined_words.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The files a lab's runners are built against, among the kit's: the harness, the families'
// shared driver code, and the lab's folder except the files the student edits: their code, and
// the write-up they fill in (whose edits must not turn the shipped runners away).
bool built_against(const std::string& path, const LabConfig& lab) {
  const std::string folder = "labs/" + lab.id + "/";
  // sim/: the CPU backend's runtime, which its runners link.
  if (path.rfind("harness/", 0) == 0 || path.rfind("families/", 0) == 0 ||
      path.rfind("sim/", 0) == 0)
    return true;
  if (path.rfind(folder, 0) != 0) return false;
  for (const auto& f : lab.student_files)
    if (path == folder + f) return false;
  return !lab.writeup || path != folder + lab.writeup->file;
}

std::vector<LabConfig> all_labs(const Paths& paths) {
  std::vector<LabConfig> labs;
  for (const auto& file : find_lab_files(paths.source)) labs.push_back(LabConfig::load(file));
  return labs;
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `built` stripped of its symbols and debug information, checked: a CUDA runner keeps its fat
// binary.
std::string stripped(const fs::path& built, bool cuda, const fs::path& scratch) {
  const fs::path out = scratch / built.filename();
  ProcessOptions po;
  po.argv = {"strip", "--strip-all", "-o", out.string(), built.string()};
  const ProcessResult r = run_process(po);
  if (!r.ok())
    throw std::runtime_error("gpulab dist: strip " + built.string() + " " + r.describe() +
                             " (strip comes with binutils, which nvcc needs too):\n" + r.output);
  bool symbols = false, fatbin = false;
  for (const auto& name : elf_section_names(out)) {
    symbols |= name == kElfSymbolTable;
    fatbin |= name == kElfCudaFatBinary;
  }
  if (symbols || (cuda && !fatbin))
    throw std::runtime_error("gpulab dist: " + built.string() +
                             (symbols
                                  ? " still has its symbol table after strip"
                                  : " holds no CUDA fat binary (" + std::string(kElfCudaFatBinary) +
                                        "): not a runner nvcc built?"));
  return read_bytes(out);
}

}  // namespace

std::string KitArchitectures::describe() const {
  return joined(sass) + " + PTX (" + joined(ptx) + ")";
}

KitArchitectures kit_architectures(const std::vector<std::string>& cmake_architectures) {
  static const std::regex kEntry(R"(([0-9]+[a-z]?)(-real|-virtual)?)");
  const std::string rebuild =
      ": configure the build with the course's GPUs listed, e.g. "
      "-DCMAKE_CUDA_ARCHITECTURES=\"80;90\" (each entry gives sm_XX machine code and PTX; "
      "\"90-real\" gives machine code alone), rebuild it, and run gpulab dist again";
  KitArchitectures k;
  for (const std::string& a : cmake_architectures) {
    std::smatch m;
    if (a == "native")
      throw std::runtime_error(
          "gpulab dist: the build's CUDA architectures are \"native\", the GPU of the machine "
          "it was built on; the kit's runners must run on every GPU of the course" +
          rebuild);
    if (!std::regex_match(a, m, kEntry))
      throw std::runtime_error("gpulab dist: the build's CUDA architecture \"" + a +
                               "\" is not a list of GPUs the kit's README can name" + rebuild);
    if (m[2] != "-virtual") k.sass.push_back("sm_" + m[1].str());
    if (m[2] != "-real") k.ptx.push_back("compute_" + m[1].str());
  }
  if (k.sass.empty())
    throw std::runtime_error("gpulab dist: the build has no CUDA machine code (architectures: " +
                             joined(cmake_architectures) + ")" + rebuild);
  if (k.ptx.empty())
    throw std::runtime_error("gpulab dist: the build's CUDA architectures (" +
                             joined(cmake_architectures) +
                             ") give no PTX, so a GPU newer than these could not run the kit's "
                             "runners" +
                             rebuild);
  return k;
}

std::vector<KitRunner> kit_runners(const Paths& paths, const std::vector<LabConfig>& labs) {
  std::vector<KitRunner> out;
  const auto want = [&](const std::string& lab, const std::string& name, const fs::path& built,
                        Backend backend, const std::string& what) {
    if (!fs::is_regular_file(built))
      throw std::runtime_error(
          "gpulab dist: " + built.string() + " is missing: the kit ships " + what + " of the lab " +
          lab + " compiled. Build gpulab with its " +
          (backend == Backend::cuda ? "CUDA" : "CPU-backend") +
          " runners (the default preset: cmake --build build) before gpulab dist");
    out.push_back({lab, name, built, backend});
  };
  // The CPU backend's runners where the build has that backend: the kit's cost model shows the
  // reference's costs beside the student's (gpulab time --backend sim).
  std::vector<Backend> backends = {Backend::cuda};
  if (!paths.sim_lib.empty() && fs::exists(paths.sim_lib)) backends.push_back(Backend::sim);
  for (const Backend backend : backends) {
    for (const LabConfig& lab : labs) {
      // The build's own runner, never one a kit shipped: Paths::reference_runner would fall back.
      want(lab.id, Paths::runner_name(lab.id, "reference", backend),
           paths.built_reference_runner(lab.id, backend), backend, "the reference runner");
      // The stub runner calls no student code in a baseline run, and its driver has the
      // baseline the kit's own build lacks.
      if (!lab.reference_driver_files.empty())
        want(lab.id, Paths::runner_name(lab.id, "baseline", backend),
             paths.stub_runner(lab.id, backend), backend, "the baseline runner");
    }
  }
  return out;
}

KitRunnerFiles kit_runner_files(const Paths& paths, const std::vector<BundleFile>& shipped,
                                const std::string& prefix) {
  const std::vector<LabConfig> labs = all_labs(paths);
  KitRunnerFiles k;
  std::vector<std::string> first;
  for (const LabConfig& lab : labs) {
    const RunnerRecipe r = load_recipe(paths, lab, Backend::cuda);
    if (first.empty()) first = r.architectures;
    if (r.architectures != first)
      throw std::runtime_error(
          "gpulab dist: the build manifests disagree on the CUDA "
          "architectures (" +
          r.manifest.string() + "): rebuild gpulab");
  }
  k.architectures = kit_architectures(first);

  const fs::path scratch = make_temp_folder("gpulab-dist", "gpulab dist's builds");
  json record = {{"gpulab_version", GPULAB_VERSION},
                 {"architectures", {{"sass", k.architectures.sass}, {"ptx", k.architectures.ptx}}},
                 {"runners", json::array()},
                 {"built_from", json::object()}};
  try {
    for (const KitRunner& r : kit_runners(paths, labs)) {
      k.files.push_back({prefix + "runners/" + r.name,
                         stripped(r.built, r.backend == Backend::cuda, scratch), true});
      record["runners"].push_back(r.name);
      ++(r.backend == Backend::sim ? k.sim_runners : k.cuda_runners);
    }
  } catch (...) {
    fs::remove_all(scratch);
    throw;
  }
  fs::remove_all(scratch);
  for (const BundleFile& f : shipped)
    for (const LabConfig& lab : labs)
      if (built_against(f.path, lab)) {
        record["built_from"][f.path] = content_hash(paths.source / f.source);
        break;
      }
  k.files.push_back({prefix + "runners/" + kKitRunnerRecord, record.dump(1) + "\n", false});
  return k;
}

std::string shipped_runner_mismatch(const Paths& paths, const LabConfig& lab,
                                    const fs::path& runner) {
  if (runner.parent_path() != paths.shipped_runner_dir()) return "";
  const fs::path file = paths.shipped_runner_dir() / kKitRunnerRecord;
  const std::string take =
      "; take gpulab and its runners from the same kit (or build gpulab from a checkout with "
      "reference/)";
  json record;
  try {
    record = json::parse(read_bytes(file));
  } catch (const std::exception& e) {
    return "the kit's runner " + runner.string() + " comes without a readable " + file.string() +
           " (" + e.what() + ")" + take;
  }
  const std::string version = record.value("gpulab_version", std::string());
  if (version != GPULAB_VERSION)
    return "the kit's runner " + runner.string() + " was built by gpulab " + version +
           ", this is gpulab " + GPULAB_VERSION + take;
  if (!record.contains("built_from") || !record["built_from"].is_object())
    return file.string() + " names no files the runners were built against" + take;
  for (const auto& [path, hash] : record["built_from"].items()) {
    if (!built_against(path, lab)) continue;
    const fs::path here = paths.source / path;
    std::string now;
    try {
      now = content_hash(here);
    } catch (const std::exception&) {
      return "the kit's runner " + runner.string() + " was built against " + path +
             ", which this copy of gpulab lacks" + take;
    }
    if (!hash.is_string() || now != hash.get<std::string>())
      return "the kit's runner " + runner.string() + " was built against another " + path +
             " than this copy of gpulab has (changed since the kit was made?)" + take;
  }
  return "";
}

void check_shipped_runner(const Paths& paths, const LabConfig& lab, const fs::path& runner) {
  if (const std::string why = shipped_runner_mismatch(paths, lab, runner); !why.empty())
    throw std::runtime_error(why);
}

}  // namespace gpulab
