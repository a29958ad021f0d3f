// grader/package/gradescope_package.h: the autograder's run_autograder grades within the
// assignment's autograder timeout less a margin (--time-budget, platform_time.h), Gradescope's
// default or the course's own.
#include "package/gradescope_package.h"

#include <doctest/doctest.h>

#include <sstream>

#include "files/archive_reader.h"
#include "test_util.h"

namespace {

// The zip's run_autograder, as Gradescope runs it.
std::string run_autograder(const std::filesystem::path& zip) {
  gpulab::ArchiveReader reader(zip, gpulab::ArchiveFormat::zip);
  gpulab::ArchiveEntry entry;
  while (reader.next(entry))
    if (entry.path == "run_autograder") {
      std::string text;
      REQUIRE(reader.read(1 << 20, text));
      return text;
    }
  FAIL("the zip has no run_autograder");
  return "";
}

}  // namespace

TEST_CASE("gradescope package: run_autograder grades within the timeout less a margin") {
  test::TempDir dir;
  std::ostringstream log;
  REQUIRE(gpulab::make_gradescope_package("scan", "seed", dir / "default.zip", log) == 0);
  const std::string script = run_autograder(dir / "default.zip");
  CHECK(test::contains(script, "--allow-unsandboxed \\\n  --time-budget 540 "));
  CHECK(test::contains(log.str(), "It grades within 540 s, for an autograder timeout of 600 s"));
  // A course that gives its assignment 20 minutes.
  REQUIRE(gpulab::make_gradescope_package("scan", "seed", dir / "long.zip", log, 1200) == 0);
  CHECK(test::contains(run_autograder(dir / "long.zip"), "--time-budget 1140 "));
}
