// End-to-end: a student's runner kept by content (grader/build/build_cache.h). The same files
// graded again are not compiled again, and get the same verdict; a changed file, or a header
// whose content is no longer what the kept build read, is built afresh (the entry replaced); a
// build that failed, or that read a device, is not kept; `gpulab cache` lists the kept builds
// and clears them with the lab's datasets. A dataset and build cache of the test's own
// (GPULAB_CACHE_DIR).
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace {

using namespace e2e;

const std::string kKeptNote = "the same files' runner, kept from an earlier build";

// The kept entries of scan's builds in `cache`.
std::vector<fs::path> entries(const fs::path& cache) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(cache / "builds" / "scan", ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().filename().string()[0] != '.') out.push_back(it->path());
  return out;
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE(
      "a runner is kept by its content, and built afresh when what it was made from changes") {
    const fs::path dir = scratch("build-cache");
    const fs::path cache = dir / "cache";
    const fs::path sub = dir / "submission";
    fs::create_directories(sub);
    fs::copy_file(kSource / "reference" / "scan" / "scan.cu", sub / "scan.cu");
    const std::vector<std::string> env = {"GPULAB_CACHE_DIR=" + cache.string()};
    const auto run = [&] {
      return run_command({GPULAB_TEST_BINARY, "run", "scan", "--backend", "sim", "--part",
                          "exclusive", "--dataset", "int-1", "--submission", sub.string(), "-v"},
                         dir, env);
    };

    const gpulab::ProcessResult first = run();
    INFO(first.output);
    REQUIRE(first.exit_code == 0);
    CHECK(said(first, "total    10.0 / 10.0"));
    CHECK_FALSE(said(first, kKeptNote));
    REQUIRE(entries(cache).size() == 1);
    const fs::path entry = entries(cache)[0];
    CHECK(fs::is_regular_file(entry / "runner"));

    // The same files: the kept runner, the same verdict.
    const gpulab::ProcessResult again = run();
    INFO(again.output);
    CHECK(again.exit_code == 0);
    CHECK(said(again, kKeptNote));
    CHECK(said(again, "total    10.0 / 10.0"));

    // A header the kept build read has other content now (as after an edit of the lab's
    // interface or an upgrade of the toolkit): built afresh, the entry replaced.
    {
      const std::string text = read_text(entry / "entry.json");
      json e = json::parse(text);
      REQUIRE(e.at("headers").size() > 10);  // the lab's header, the sim's, the system's
      bool lab_header = false;
      for (const json& h : e.at("headers"))
        lab_header |= h.at(0).get<std::string>() == (kSource / "labs" / "scan" / "scan.h").string();
      CHECK(lab_header);
      e["headers"][0][1] = std::string(64, '0');
      std::ofstream(entry / "entry.json") << e.dump();
    }
    const gpulab::ProcessResult changed_header = run();
    INFO(changed_header.output);
    CHECK(changed_header.exit_code == 0);
    CHECK_FALSE(said(changed_header, kKeptNote));
    CHECK(entries(cache).size() == 1);
    CHECK(said(run(), kKeptNote));

    // Another file: another entry, built; the first one still kept.
    { std::ofstream(sub / "scan.cu", std::ios::app) << "\n// one more line\n"; }
    const gpulab::ProcessResult edited = run();
    INFO(edited.output);
    CHECK(edited.exit_code == 0);
    CHECK_FALSE(said(edited, kKeptNote));
    CHECK(entries(cache).size() == 2);

    // A build that read something other than a regular file (a device here; a FIFO or /proc
    // alike) is not kept: the grader does not read such a thing to vouch for it.
    {
      const std::string text = read_text(sub / "scan.cu");
      std::ofstream(sub / "scan.cu") << "#include \"/dev/null\"\n" << text;
    }
    for (int i = 0; i < 2; ++i) {
      const gpulab::ProcessResult device = run();
      INFO(device.output);
      CHECK(device.exit_code == 0);
      CHECK_FALSE(said(device, kKeptNote));
    }
    CHECK(entries(cache).size() == 2);

    // A build that fails is not kept: its message comes from the compiler each time.
    { std::ofstream(sub / "scan.cu", std::ios::app) << "this does not compile\n"; }
    for (int i = 0; i < 2; ++i) {
      const gpulab::ProcessResult broken = run();
      INFO(broken.output);
      CHECK(said(broken, "does not build"));
      CHECK(said(broken, "this does not compile"));
    }
    CHECK(entries(cache).size() == 2);

    // gpulab cache lists them, and clears them with the lab's datasets.
    const gpulab::ProcessResult listed = run_command({GPULAB_TEST_BINARY, "cache"}, dir, env);
    INFO(listed.output);
    CHECK(said(listed, "2 runner builds kept by content"));
    const gpulab::ProcessResult cleared =
        run_command({GPULAB_TEST_BINARY, "cache", "--clear", "--lab", "scan"}, dir, env);
    INFO(cleared.output);
    CHECK(cleared.exit_code == 0);
    CHECK(entries(cache).empty());
    fs::remove_all(dir);
  }
}
