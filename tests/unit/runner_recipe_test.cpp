// grader/sandbox/runner_recipe.h: the build manifest CMake writes per lab, the commands it makes,
// its errors; and that the runners CMake built ran the commands a student's build runs.
#include "sandbox/runner_recipe.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "build/build.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Commands = std::vector<std::vector<std::string>>;

gpulab::LabConfig lab(const std::string& id) {
  return gpulab::LabConfig::load(test::source_dir() / "labs" / id / "lab.json");
}

// A manifest for the scan lab as CMake writes it, paths made up.
json scan_manifest() {
  return json::parse(R"({
    "lab": "scan", "cxx_standard": "17", "include_dirs": ["/g/labs/scan"], "nvcc_flags": ["-O3"],
    "backends": {
      "cuda": {"compiler": "/cuda/bin/nvcc", "architectures": ["80", "90-real"],
               "warning_flags": ["-Xcompiler=-Wall"],
               "link_whole": [{"role": "harness", "path": "/b/h.a"}, {"role": "driver", "path": "/b/d.a"}]},
      "sim": {"compiler": "/b/bin/gpulab-sim-cc", "architectures": [], "warning_flags": [],
              "link_whole": [{"role": "harness", "path": "/b/hs.a"}, {"role": "driver", "path": "/b/ds.a"},
                             {"role": "runtime", "path": "/b/sim.a"}]}}})");
}

// The error parse_recipe throws for `doc` as the scan lab's manifest, for `backend`.
std::string error_of(const json& doc, gpulab::Backend backend = gpulab::Backend::cuda) {
  try {
    gpulab::parse_recipe(doc, "/b/lib/manifests/scan.json", lab("scan"), backend);
  } catch (const gpulab::RecipeError& e) {
    return e.what();
  }
  return "";
}

// `commands` with the folders a build depends on named alike: the source folder as <src>, the
// build's own folder as <work>.
Commands normalized(Commands commands, const fs::path& src, const fs::path& work) {
  const auto replace = [](std::string& s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  };
  for (auto& cmd : commands)
    for (auto& arg : cmd) {
      replace(arg, work.string(), "<work>");
      replace(arg, src.string(), "<src>");
    }
  return commands;
}

}  // namespace

TEST_CASE("a recipe's commands: flags, include folders, whole archives in the manifest's order") {
  const gpulab::RunnerRecipe cuda =
      gpulab::parse_recipe(scan_manifest(), "/m.json", lab("scan"), gpulab::Backend::cuda);
  const std::vector<std::string> arch = {"--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                                         "--generate-code=arch=compute_90,code=sm_90"};
  std::vector<std::string> compile = {"/cuda/bin/nvcc", "-std=c++17"};
  compile.insert(compile.end(), arch.begin(), arch.end());
  // The lab's flags, then line information on every CUDA build (kLineInfoFlag).
  compile.insert(compile.end(),
                 {"-O3", "-lineinfo", "-I", "/g/labs/scan", "-c", "/s/scan.cu", "-o", "/w/scan.o"});
  CHECK(gpulab::compile_command(cuda, gpulab::RecipeUse::student, "/s/scan.cu", "/w/scan.o") ==
        compile);
  // The instructor's runners add the warning flags, after the lab's.
  std::vector<std::string> trusted = compile;
  trusted.insert(trusted.begin() + 6, "-Xcompiler=-Wall");
  CHECK(gpulab::compile_command(cuda, gpulab::RecipeUse::trusted, "/s/scan.cu", "/w/scan.o") ==
        trusted);
  std::vector<std::string> link = {"/cuda/bin/nvcc"};
  link.insert(link.end(), arch.begin(), arch.end());
  link.insert(link.end(), {"-o", "/w/runner",
                           "-Xcompiler=-Xlinker,--whole-archive,-Xlinker,/b/h.a,-Xlinker,/b/d.a,"
                           "-Xlinker,--no-whole-archive",
                           "/w/scan.o"});
  CHECK(gpulab::link_command(cuda, {"/w/scan.o"}, "/w/runner") == link);

  const gpulab::RunnerRecipe sim =
      gpulab::parse_recipe(scan_manifest(), "/m.json", lab("scan"), gpulab::Backend::sim);
  CHECK(gpulab::compile_command(sim, gpulab::RecipeUse::trusted, "/s/scan.cu", "/w/scan.o") ==
        std::vector<std::string>{"/b/bin/gpulab-sim-cc", "-std=c++17", "-O3", "-I", "/g/labs/scan",
                                 "-c", "/s/scan.cu", "-o", "/w/scan.o"});
  CHECK(gpulab::link_command(sim, {"/w/scan.o"}, "/w/runner").at(3) ==
        "-Xcompiler=-Xlinker,--whole-archive,-Xlinker,/b/hs.a,-Xlinker,/b/ds.a,-Xlinker,/b/sim.a,"
        "-Xlinker,--no-whole-archive");
}

TEST_CASE("CUDA architectures as CMake writes them") {
  CHECK(gpulab::cuda_arch_flags({"90a-virtual", "all-major"}, "/m.json") ==
        std::vector<std::string>{"--generate-code=arch=compute_90a,code=compute_90a",
                                 "-arch=all-major"});
  // "native" is a GPU's own architecture, or sm_90 where none is seen.
  const auto native = gpulab::cuda_arch_flags({"native"}, "/m.json");
  REQUIRE(native.size() == 1);
  CHECK(native[0].rfind("-arch=sm_", 0) == 0);
  CHECK_THROWS_WITH_AS(gpulab::cuda_arch_flags({"sm_90"}, "/m.json"),
                       doctest::Contains("/m.json names the CUDA architecture \"sm_90\""),
                       gpulab::RecipeError);
}

TEST_CASE("a malformed manifest is refused, naming the file and the key") {
  const std::string file = "the build manifest /b/lib/manifests/scan.json";
  CHECK(test::contains(error_of(json::array()), file + " is not a JSON object"));
  json doc = scan_manifest();
  doc.erase("cxx_standard");
  CHECK(test::contains(error_of(doc), file + " has no \"cxx_standard\""));
  doc = scan_manifest();
  doc["backends"]["cuda"]["architectures"] = "80";
  CHECK(
      test::contains(error_of(doc), "\"backends.cuda.architectures\" of the wrong type (string)"));
  doc = scan_manifest();
  doc["backends"]["sim"]["link_whole"][1].erase("path");
  CHECK(test::contains(error_of(doc, gpulab::Backend::sim),
                       "has no \"backends.sim.link_whole[].path\""));
  doc = scan_manifest();
  doc["backends"]["sim"]["link_whole"][2]["role"] = "driver";
  CHECK(test::contains(error_of(doc, gpulab::Backend::sim), "no single \"driver\""));
  doc = scan_manifest();
  doc["backends"]["cuda"]["link_whole"][0]["role"] = "stdlib";
  CHECK(test::contains(error_of(doc), "unknown role \"stdlib\""));
  doc = scan_manifest();
  doc["include_dirs"][0] = 7;
  CHECK(test::contains(error_of(doc), "a non-string in \"include_dirs\""));
  doc = scan_manifest();
  doc["lab"] = "binning";
  CHECK(test::contains(error_of(doc), "is for the lab \"binning\", not \"scan\""));
  doc = scan_manifest();
  doc["backends"].erase("cuda");
  CHECK(test::contains(error_of(doc), "has no recipe for the cuda backend"));
  // lab.json's flags changed since CMake wrote the manifest.
  doc = scan_manifest();
  doc["nvcc_flags"] = {"-O2"};
  CHECK(test::contains(error_of(doc), "other nvcc_flags than"));
  CHECK(error_of(scan_manifest()).empty());
}

TEST_CASE("a missing or unparsable manifest file is refused, naming it") {
  const test::TempDir dir;
  gpulab::Paths paths;
  paths.build = dir.path();
  const fs::path file = gpulab::recipe_manifest(paths, "scan");
  CHECK(file == dir / "lib" / "manifests" / "scan.json");
  const std::string unreadable = file.string() + " cannot be read";
  CHECK_THROWS_WITH_AS(gpulab::load_recipe(paths, lab("scan"), gpulab::Backend::sim),
                       doctest::Contains(unreadable.c_str()), gpulab::RecipeError);
  test::write_file(file, "{\"lab\": ");
  const std::string malformed = file.string() + " is not valid JSON";
  CHECK_THROWS_WITH_AS(gpulab::load_recipe(paths, lab("scan"), gpulab::Backend::sim),
                       doctest::Contains(malformed.c_str()), gpulab::RecipeError);
}

TEST_CASE("this build's manifests name its own lab folders and libraries") {
  const gpulab::Paths paths = gpulab::Paths::current();
  for (const std::string id : {"scan", "scatter-gather"}) {
    INFO(id);
    for (const gpulab::Backend backend : {gpulab::Backend::cuda, gpulab::Backend::sim}) {
      INFO(gpulab::backend_name(backend));
      const bool built = fs::exists(paths.driver_lib(id, backend));
      if (!built) continue;  // a build without this backend
      const gpulab::RunnerRecipe r = gpulab::load_recipe(paths, lab(id), backend);
      CHECK(r.include_dirs.at(0) == lab(id).dir);
      CHECK(r.link_whole.at(0).path == paths.harness_lib(backend));
      CHECK(r.link_whole.at(1).path == paths.driver_lib(id, backend));
      CHECK(fs::exists(r.compiler));
    }
  }
}

// The point of the manifest: the reference a student is measured against is compiled and linked
// by the commands that build the student's runner, but for the folders they name and the
// warning flags given to the instructor's code alone. On the CPU backend (one small build).
TEST_CASE(
    "the reference runner CMake built and a student's runner are built by the same commands") {
  const gpulab::Paths paths = gpulab::Paths::current();
  if (!fs::exists(paths.sim_cc())) return;  // a build without the CPU backend
  const gpulab::LabConfig sg = lab("scatter-gather");
  const fs::path ref_dir = gpulab::trusted_build_dir(paths, "scatter-gather-reference-sim");
  const fs::path recorded = gpulab::recorded_commands(ref_dir);
  REQUIRE_MESSAGE(fs::exists(recorded),
                  (recorded.string() + " is missing: CMake's reference runner was not built "
                                       "by gpulab-build-runner"));
  const Commands reference = json::parse(test::read_file(recorded)).get<Commands>();

  const test::TempDir dir;
  fs::create_directories(dir / "submission");
  for (const auto& f : sg.student_files)
    fs::copy_file(paths.reference_dir(sg.id) / f, dir / "submission" / f);
  const gpulab::BuildResult student =
      gpulab::build_runner(sg, paths, dir / "submission", dir / "student-build",
                           gpulab::Backend::sim, gpulab::Sandbox{});
  REQUIRE_MESSAGE(student.ok, student.message);

  const gpulab::RunnerRecipe recipe = gpulab::load_recipe(paths, sg, gpulab::Backend::sim);
  Commands ref = normalized(reference, paths.reference_dir(sg.id), ref_dir);
  for (auto& cmd : ref)
    for (const auto& w : recipe.warning_flags)
      cmd.erase(std::remove(cmd.begin(), cmd.end(), w), cmd.end());
  CHECK(normalized(student.commands, dir / "submission", dir / "student-build") == ref);
  CHECK(ref.size() == sg.student_files.size() + 1);  // each file's compile, then the link
}
