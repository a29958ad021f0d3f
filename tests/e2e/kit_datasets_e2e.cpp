// The kit README's public-datasets command, run in the unpacked kit as a student types it:
// it writes the public datasets only (not the gigabytes of the timing group, no hidden ones),
// says what it left out and how to get it, and leaves no temporary behind.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "e2e_util.h"
#include "student_kit.h"

namespace {

using namespace e2e;

// The README's `build/gpulab datasets ...` line, split into words, its # comment left out.
std::vector<std::string> readme_datasets_command(const fs::path& readme) {
  std::ifstream in(readme);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("build/gpulab datasets ", 0) != 0) continue;
    std::istringstream words(line.substr(0, line.find(" #")));
    std::vector<std::string> argv;
    for (std::string w; words >> w;) argv.push_back(w);
    return argv;
  }
  return {};
}

}  // namespace

TEST_SUITE("student-kit") {
  TEST_CASE("the kit README's datasets command writes the public datasets only") {
    const StudentKit& kit = student_kit();
    std::vector<std::string> argv = readme_datasets_command(kit.kit / "README.md");
    REQUIRE_MESSAGE(argv.size() >= 4, "the kit README shows no build/gpulab datasets command");
    const auto out_at = std::find(argv.begin(), argv.end(), "--out");
    REQUIRE(out_at + 1 < argv.end());
    const fs::path out = kit.kit / *(out_at + 1);
    fs::remove_all(out);
    const gpulab::ProcessResult p = run_in_kit(argv);
    INFO(p.output);
    CHECK(p.exit_code == 0);
    CHECK(fs::is_directory(out / "public"));
    CHECK_FALSE(fs::exists(out / "timing"));
    CHECK_FALSE(fs::exists(out / "hidden"));
    CHECK(p.output.find("--group timing") != std::string::npos);
    for (const auto& e : fs::recursive_directory_iterator(out))
      CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
    fs::remove_all(out);
  }
}
