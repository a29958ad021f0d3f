// grader/run/runner_client.h's run_runner, in the sandbox: what of the system a run sees. A plain
// run sees only the files its runner loads (run_libraries.h); a run under a wrapper
// (compute-sanitizer, which starts the runner and loads the CUDA toolkit's libraries, and is never
// scored) sees the whole system, as a build does.
#include <doctest/doctest.h>

#include "run/runner_client.h"
#include "sandbox/run_libraries.h"
#include "test_util.h"
#include "tool_output.h"

namespace {

namespace fs = std::filesystem;
using test::contains;

// A runner that says which of the system's folders it sees, whatever its arguments.
constexpr const char* kRunner = R"(#include <cstdio>
#include <unistd.h>
int main() {
  const char* const folders[] = {"/usr/bin", "/usr/include", "/bin/sh"};
  for (const char* p : folders) std::printf("%s: %s\n", p, access(p, F_OK) == 0 ? "seen" : "unseen");
  return 1;
}
)";

}  // namespace

TEST_CASE("a run sees its runner's libraries; a run under a wrapper sees the whole system") {
  const gpulab::Paths paths = gpulab::Paths::current();
  gpulab::Sandbox sandbox = gpulab::Sandbox::detect(paths, false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  test::TempDir tmp;
  for (const fs::path& dir : {tmp.path(), tmp / "work", tmp / "input"}) {
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
  }
  test::write_file(tmp / "runner.cpp", kRunner);
  test::tool_output({"c++", (tmp / "runner.cpp").string(), "-o", (tmp / "runner").string()});
  sandbox.stage_runs_in(tmp / "work");
  gpulab::RunLibraries libs;
  libs.runner = gpulab::system_files(
      gpulab::library_closure(tmp / "runner", gpulab::LibrarySearch::current()).files);
  sandbox.show_runs(libs);

  gpulab::PartSpec part;
  part.name = "p";
  gpulab::DatasetDirs ds{"public", "d", false, tmp / "input", tmp / "expected"};
  const auto run = [&](const gpulab::RunWrapper& wrapper) {
    gpulab::RunRequest request(tmp / "runner", part, ds, tmp / "out", gpulab::RunLimit::clock(60));
    request.wrapper = wrapper;
    const gpulab::RunOutcome o =
        gpulab::run_runner({sandbox, paths, gpulab::Backend::cuda}, request);
    return o.process.output;
  };
  const std::string plain = run({});
  INFO(plain);
  CHECK(contains(plain, "/usr/bin: unseen"));
  CHECK(contains(plain, "/usr/include: unseen"));
  CHECK(contains(plain, "/bin/sh: unseen"));
  // The wrapper is a shell that starts the runner, as compute-sanitizer does.
  const std::string wrapped = run({{"/bin/sh", "-c", "\"$@\"", "sh"}, {}});
  INFO(wrapped);
  CHECK(contains(wrapped, "/usr/bin: seen"));
  CHECK(contains(wrapped, "/usr/include: seen"));
  CHECK(contains(wrapped, "/bin/sh: seen"));
}
