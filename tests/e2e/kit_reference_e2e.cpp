// The student kit carries the reference only compiled (grader/build/kit_runners.h): a stripped
// runner per lab and coarsening's baseline runner, for the architectures the build named and for
// the CPU backend, no reference source and no plain gather; in the kit a CPU part is timed
// against the shipped runner, and the cost model shows the shipped reference's costs.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <set>

#include "build/elf_sections.h"
#include "build/kit_runners.h"
#include "e2e_util.h"
#include "lab/lab_config.h"
#include "student_kit.h"

namespace {

using namespace e2e;

bool has_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The instructor's build, whose runners and manifests `gpulab dist` shipped.
const fs::path kBuild = fs::path(GPULAB_TEST_BINARY).parent_path();

}  // namespace

TEST_SUITE("student-kit") {
  TEST_CASE(
      "the kit's reference is compiled only: stripped runners for every lab and "
      "coarsening's baseline, every recorded architecture, no reference or gather source") {
    const StudentKit& k = student_kit();
    const fs::path runners = k.kit / "runners";
    const json record = json::parse(read_text(runners / gpulab::kKitRunnerRecord));

    // The architectures the build's manifests name, as dist names them.
    std::set<std::string> expected;
    std::vector<std::string> cmake_archs;
    // The CPU backend's runners too, where the instructor's build has that backend.
    std::vector<std::string> suffixes = {""};
    if (fs::exists(kBuild / "lib" / "libgpulab_sim.a")) suffixes.push_back("-sim");
    for (const auto& lab_json : gpulab::find_lab_files(kSource)) {
      const gpulab::LabConfig lab = gpulab::LabConfig::load(lab_json);
      for (const std::string& suffix : suffixes) {
        expected.insert(lab.id + "-reference" + suffix);
        if (!lab.reference_driver_files.empty()) expected.insert(lab.id + "-baseline" + suffix);
      }
      const json manifest = json::parse(read_text(kBuild / "lib/manifests" / (lab.id + ".json")));
      cmake_archs =
          manifest.at("backends").at("cuda").at("architectures").get<decltype(cmake_archs)>();
    }
    REQUIRE(expected.count("coarsening-baseline") == 1);
    const gpulab::KitArchitectures archs = gpulab::kit_architectures(cmake_archs);
    CHECK(record.at("architectures").at("sass").get<std::vector<std::string>>() == archs.sass);
    CHECK(record.at("architectures").at("ptx").get<std::vector<std::string>>() == archs.ptx);
    CHECK(read_text(k.kit / "README.md").find(archs.describe()) != std::string::npos);

    std::set<std::string> shipped;
    for (const auto& e : fs::directory_iterator(runners))
      if (e.path().filename() != gpulab::kKitRunnerRecord) shipped.insert(e.path().filename());
    CHECK(shipped == expected);
    const fs::path cuobjdump = "/usr/local/cuda/bin/cuobjdump";
    for (const std::string& name : expected) {
      INFO(name);
      const fs::path runner = runners / name;
      CHECK((fs::status(runner).permissions() & fs::perms::owner_exec) != fs::perms::none);
      const auto sections = gpulab::elf_section_names(runner);
      CHECK_FALSE(has(sections, gpulab::kElfSymbolTable));  // stripped
      const bool sim = has_text(name, "-sim");
      CHECK(has(sections, gpulab::kElfCudaFatBinary) != sim);
      if (sim || !fs::exists(cuobjdump))
        continue;  // else the record, checked against the build above
      for (const auto& [flag, want] :
           {std::pair{"--list-elf", archs.sass}, {"--list-ptx", archs.ptx}}) {
        gpulab::ProcessOptions po;
        po.argv = {cuobjdump.string(), flag, runner.string()};
        const auto listed = gpulab::run_process(po);
        REQUIRE_MESSAGE(listed.ok(), listed.output);
        for (const std::string& a : want)
          CHECK_MESSAGE(has_text(listed.output, a), flag << ": " << a);
      }
    }

    // No reference source, and no plain gather: no kit file holds a file of reference/, nor
    // the baseline kernel's definition.
    std::vector<std::string> secrets;
    for (const auto& e : fs::recursive_directory_iterator(kSource / "reference"))
      if (e.is_regular_file()) secrets.push_back(read_text(e.path()));
    const fs::path gather = kSource / "reference/coarsening/driver_baseline.cu";
    REQUIRE(fs::is_regular_file(gather));
    secrets.push_back("__global__ void plain_gather_kernel(");
    REQUIRE(has_text(read_text(gather), secrets.back()));
    for (const auto& e : fs::recursive_directory_iterator(k.kit)) {
      if (!e.is_regular_file() || e.path().string().find("/build/") != std::string::npos) continue;
      const std::string text = read_text(e.path());
      for (const auto& secret : secrets)
        CHECK_MESSAGE(text.find(secret) == std::string::npos, e.path().string()
                                                                  << " holds reference source");
    }
    CHECK_FALSE(fs::exists(k.kit / "labs/coarsening/driver_baseline.cu"));
  }

  TEST_CASE("in the kit the cost model shows the shipped reference's costs beside the student's") {
    const StudentKit& k = student_kit();
    REQUIRE(fs::exists(k.kit / "runners" / "scan-reference-sim"));
    // The kit's own build (the CPU backend alone, no reference runners): the stub's costs and
    // the shipped runner's.
    const auto costed =
        run_in_kit({k.gpulab.string(), "time", "scan", "--part", "exclusive", "--backend", "sim"},
                   {}, {}, 300);
    INFO(costed.output);
    CHECK(costed.exit_code == 0);
    CHECK(has_text(costed.output, "yours beside the reference's"));
    CHECK(has_text(costed.output, "  reference  all kernels"));
    CHECK_FALSE(has_text(costed.output, "No reference here"));
  }

  TEST_CASE("in the kit a CPU part is timed against the shipped reference runner, no GPU") {
    // A sim-only build (the README's build-sim block) cannot build the student's code for the
    // cuda backend, which a CPU part is timed on; a kit build with CUDA runners can, GPU or not.
    // Its libraries are the instructor build's: a build folder with those and no runners/, so
    // the reference is the kit's shipped one.
    const StudentKit& k = student_kit();
    const fs::path build = scratch("kit-cuda-build");
    fs::create_directories(build);
    fs::create_directory_symlink(kBuild / "lib", build / "lib");
    fs::create_directory_symlink(kBuild / "bin", build / "bin");
    const KitFile done("labs/scatter-gather/dcs.cu",
                       kSource / "tests/submissions/scatter-gather/alt-correct/dcs.cu");
    const auto timed = run_in_kit(
        {k.gpulab.string(), "time", "scatter-gather", "--part", "cpu_fast", "--dataset", "tiny",
         "--backend", "cuda"},
        {},
        {"GPULAB_BUILD_DIR=" + build.string(), "GPULAB_CACHE_DIR=" + (build / "cache").string()},
        300);
    INFO(timed.output);
    CHECK(timed.exit_code == 0);
    CHECK(has_text(timed.output, "reference ms"));
    CHECK(has_text(timed.output, "ratio"));
    CHECK(has_text(timed.output, "cpu_fast"));
    CHECK_FALSE(has_text(timed.output, "No reference here"));

    // A runner that does not go with the kit's harness is refused, by name.
    const fs::path harness_file = "harness/runner_main.cpp";
    const fs::path changed = build / "runner_main.cpp";
    std::ofstream(changed) << read_text(k.kit / harness_file) << "\n// changed\n";
    const KitFile edited(harness_file, changed);
    const auto refused = run_in_kit(
        {k.gpulab.string(), "bench", "scatter-gather", "--part", "cpu_fast"}, {},
        {"GPULAB_BUILD_DIR=" + build.string(), "GPULAB_CACHE_DIR=" + (build / "cache").string()},
        300);
    INFO(refused.output);
    CHECK(refused.exit_code != 0);
    CHECK(has_text(refused.output, harness_file.string()));
    CHECK(has_text(refused.output, "same kit"));
  }
}
