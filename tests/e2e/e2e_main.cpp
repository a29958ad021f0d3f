// The end-to-end tests' main: a GPU suite on a machine without a usable GPU exits 77, which
// ctest reports as skipped (never as passed: gpu_suite.h); after the tests, every report they read
// is checked against its format's schema, and a violation fails the process; when all passed, the
// tests' scratch folders are removed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "e2e_util.h"
#include "gpu_suite.h"

namespace {

// Every report the tests read (e2e::read_report kept a copy of each) against its format's schema
// (grader/schemas/): 1, naming each report and violation, where one violates.
int check_reports_read() {
  namespace fs = std::filesystem;
  const fs::path folder = e2e::reports_read_folder();
  if (!fs::is_directory(folder)) return 0;
  const auto r = e2e::run_command(
      {"python3", (e2e::kSource / "tests" / "report_schema" / "check_reports.py").string(),
       "--source", e2e::kSource.string(), folder.string()},
      e2e::kSource, {}, 600);
  std::printf("%s", r.output.c_str());
  if (r.exit_code != 0) {
    std::printf("the reports above violate their schemas (copies kept in %s)\n",
                folder.string().c_str());
    return 1;
  }
  fs::remove_all(folder);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (const int skipped = test::skip_gpu_suite_without_gpu(argc, argv)) return skipped;
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  const int status = std::max(result, check_reports_read());
  // Each run's scratch folders go with it when all passed (a suite's are hundreds of MB);
  // a failure keeps them for a look.
  if (status == 0)
    e2e::remove_scratch();
  else
    std::printf("scratch folders kept: %s/gpulab-e2e-*-%d\n",
                std::filesystem::temp_directory_path().string().c_str(),
                static_cast<int>(getpid()));
  return status;
}
