// `gpulab --help` tells what no flag shows: every environment variable gpulab's own sources
// read (found in them, so a new one that is not listed fails this test), with its value here,
// and every exit status. Subcommands' help names their defaults.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>

#include "e2e_util.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

// GPULAB_* and NO_COLOR names that the grader's and harness's sources read with getenv.
std::set<std::string> variables_read() {
  std::set<std::string> names;
  const std::regex read(
      R"re(getenv\("((GPULAB_|NO_COLOR)[A-Z_]*)"\)|env_or\("(GPULAB_[A-Z_]*)")re");
  for (const char* dir : {"grader", "harness"})  // grader/ and its rooms, each folder's files
    for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path());
      const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      for (std::sregex_iterator m(text.begin(), text.end(), read), end; m != end; ++m)
        names.insert((*m)[1].matched ? (*m)[1].str() : (*m)[3].str());
    }
  return names;
}

gpulab::ProcessResult gpulab_says(std::vector<std::string> args) {
  args.insert(args.begin(), GPULAB_TEST_BINARY);
  return run_command(std::move(args), fs::temp_directory_path(), {}, 60);
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("gpulab --help lists every environment variable gpulab reads and every exit status") {
    const auto names = variables_read();
    REQUIRE(names.size() >= 8);  // the search works
    REQUIRE(names.count("GPULAB_CACHE_DIR"));
    const auto help = gpulab_says({"--help"});
    CHECK(help.exit_code == 0);
    for (const auto& name : names) {
      INFO(name);
      CHECK(help.output.find(name) != std::string::npos);
    }
    // Where the cache is now, not only its name.
    CHECK(help.output.find("GPULAB_CACHE_DIR\n      generated datasets") != std::string::npos);
#define GPULAB_CHECK_EXIT(name, code, meaning) \
  CHECK(help.output.find("  " #code "   " meaning) != std::string::npos);
    GPULAB_EXIT_STATUSES(GPULAB_CHECK_EXIT)
#undef GPULAB_CHECK_EXIT
    // A command line gpulab does not understand gets its documented status, and says why.
    const auto unknown = gpulab_says({"run", "scan", "--no-such-option"});
    CHECK(unknown.exit_code == gpulab::kExitUsage);
    CHECK(unknown.output.find("--no-such-option") != std::string::npos);
    CHECK(gpulab_says({"no-such-command"}).exit_code == gpulab::kExitUsage);
    CHECK(gpulab_says({"grade", "scan"}).exit_code == gpulab::kExitUsage);  // --out missing
    // Never CLI11's own codes (106, 109; 105 for a value a check refuses).
    CHECK(gpulab_says({"grade", "--no-such-flag"}).exit_code == gpulab::kExitUsage);
    const auto refused =
        gpulab_says({"grade", "scan", "--submission", "s", "--out", "r.json", "--timeout", "soon"});
    CHECK(refused.exit_code == gpulab::kExitUsage);
    CHECK(refused.output.find("--timeout") != std::string::npos);
    const auto run_help = gpulab_says({"run", "--help"});
    CHECK(run_help.output.find("default: every public dataset") != std::string::npos);
    CHECK(run_help.output.find("--verbose") != std::string::npos);
  }
}
