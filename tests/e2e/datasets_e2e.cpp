// End-to-end, the student's data: gpulab datasets writes the public datasets only by default
// and leaves no temporary when interrupted; gpulab cache lists and clears the dataset cache and
// refuses a folder that is not one; gpulab run --keep-outputs keeps the student's outputs beside
// the expected ones.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "e2e_util.h"
#include "npy.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

gpulab::ProcessResult gpulab_cmd(std::vector<std::string> args, std::vector<std::string> env = {},
                                 double timeout_s = 300) {
  args.insert(args.begin(), GPULAB_TEST_BINARY);
  return gpulab::run_process({args, fs::temp_directory_path(), timeout_s, 1 << 20, 0, 0, env});
}

// Entries under `dir` whose name holds ".tmp": a dataset or file left half made.
std::vector<std::string> temporaries_in(const fs::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().find(".tmp") != std::string::npos)
      found.push_back(it->path().string());
  return found;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("datasets writes only the public datasets by default and says what it left out") {
    const fs::path out = scratch("datasets-public");
    const auto p = gpulab_cmd({"datasets", "scatter-gather", "--out", out.string()});
    INFO(p.output);
    REQUIRE(p.exit_code == gpulab::kExitOk);
    CHECK(fs::is_directory(out / "public" / "tiny"));
    CHECK_FALSE(fs::exists(out / "timing"));
    CHECK_FALSE(fs::exists(out / "hidden"));
    CHECK(has(p.output, "gpulab datasets scatter-gather --group timing --out DIR"));
    CHECK(has(p.output, "[1/7] public/tiny: "));  // a plain line per dataset in a log
    CHECK(temporaries_in(out).empty());
    fs::remove_all(out);
  }

  TEST_CASE("an interrupted datasets run leaves no temporary and exits with the stopped status") {
    const fs::path out = scratch("datasets-stopped");
    // scan's timing dataset takes a gigabyte: it is still being made when the signal comes.
    const std::vector<std::string> args = {GPULAB_TEST_BINARY, "datasets", "scan",      "--group",
                                           "timing",           "--out",    out.string()};
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      execv(argv[0], argv.data());
      _exit(127);
    }
    // Once its temporary is there, and a second later.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (temporaries_in(out).empty() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const bool started = !temporaries_in(out).empty();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    REQUIRE(kill(pid, SIGINT) == 0);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK_MESSAGE(started, "gpulab datasets never started making the timing dataset");
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == gpulab::kExitStopped);
    const auto left = temporaries_in(out);
    CHECK_MESSAGE(left.empty(), "left behind: " << (left.empty() ? "" : left[0]));
    fs::remove_all(out);
  }

  TEST_CASE("cache lists the dataset cache and clears it, only where it is gpulab's") {
    const fs::path cache = scratch("cache-command");
    const std::vector<std::string> env = {"GPULAB_CACHE_DIR=" + cache.string()};
    // The cache's own layout: datasets/<lab>/<group>/<dataset>/<key>/.
    REQUIRE(gpulab_cmd({"datasets", "scatter-gather", "--out",
                        (cache / "datasets" / "scatter-gather").string()})
                .exit_code == 0);
    const auto shown = gpulab_cmd({"cache"}, env);
    INFO(shown.output);
    CHECK(shown.exit_code == 0);
    CHECK(has(shown.output, cache.string()));
    CHECK(has(shown.output, "scatter-gather: "));
    CHECK(has(shown.output, "public/medium"));
    const auto cleared = gpulab_cmd({"cache", "--clear", "--lab", "scatter-gather"}, env);
    CHECK(cleared.exit_code == 0);
    CHECK_FALSE(fs::exists(cache / "datasets" / "scatter-gather"));
    CHECK(has(gpulab_cmd({"cache"}, env).output, "empty"));
    // Pointed at a folder of other things by mistake: nothing is deleted.
    std::ofstream(cache / "notes.txt") << "mine";
    fs::create_directories(cache / "datasets" / "scan");
    const auto refused = gpulab_cmd({"cache", "--clear"}, env);
    CHECK(refused.exit_code == gpulab::kExitFailed);
    CHECK(has(refused.output, "notes.txt"));
    CHECK(fs::exists(cache / "notes.txt"));
    CHECK(fs::exists(cache / "datasets" / "scan"));
    fs::remove_all(cache);
  }
}

TEST_SUITE("sim") {
  TEST_CASE("run --keep-outputs keeps the student's outputs beside the expected ones") {
    const fs::path dir = scratch("keep-outputs");
    // A correct submission's outputs equal the expected ones; the stub's (nothing written)
    // do not.
    const std::pair<const char*, fs::path> runs[] = {
        {"right", kSource / "tests" / "submissions" / "scan" / "alt-correct"},
        {"stub", kSource / "labs" / "scan"}};
    for (const auto& [name, submission] : runs) {
      CAPTURE(name);
      const fs::path keep = dir / name;
      const auto p = gpulab_cmd(
          {"run", "scan", "--backend", "sim", "--part", "exclusive", "--dataset", "int-33",
           "--no-time", "--submission", submission.string(), "--keep-outputs", keep.string()},
          {}, 600);
      INFO(p.output);
      const fs::path at = keep / "exclusive" / "int-33";
      const auto got = gpulab::read_npy(at / "exclusive.npy", gpulab::DType::i32);
      const auto expected = gpulab::read_npy(at / "exclusive.expected.npy", gpulab::DType::i32);
      CHECK((got.bytes == expected.bytes) == (std::string(name) == "right"));
      CHECK(temporaries_in(keep).empty());
    }
    fs::remove_all(dir);
  }
}
