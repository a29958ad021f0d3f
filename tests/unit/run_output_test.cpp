// grader/run/run_output.h: the grader reads a run's output folder only as regular files with one
// link, directly in it, never through a link; anything else there fails the run, named.
#include "run/run_output.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <iterator>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::RunFile;
using gpulab::RunOutput;
using test::contains;

std::string content(RunFile& f) {
  return {std::istreambuf_iterator<char>(f.stream()), std::istreambuf_iterator<char>()};
}

// A run's output folder `out` beside a secret the grader can read and the run cannot.
struct Folders {
  test::TempDir tmp;
  fs::path out = tmp / "out", secret = tmp / "expected" / "exclusive.npy";
  Folders() {
    fs::create_directories(out);
    test::write_file(secret, "the expected output");
  }
};

}  // namespace

TEST_CASE("a regular file the run wrote is read, and a folder of them is not refused") {
  Folders f;
  test::write_file(f.out / "result.json", "{\"status\": \"ok\"}");
  test::write_file(f.out / "exclusive.npy", "");
  const RunOutput out(f.out);
  CHECK(out.refused().empty());
  RunFile file = out.open("result.json");
  REQUIRE(file.is_open());
  CHECK(file.problem().empty());
  CHECK(content(file) == "{\"status\": \"ok\"}");
  RunFile empty = out.open("exclusive.npy");
  REQUIRE(empty.is_open());
  CHECK(content(empty).empty());
}

TEST_CASE("a file the run did not write is missing, in words for the student") {
  Folders f;
  const RunOutput out(f.out);
  CHECK(out.refused().empty());
  const RunFile file = out.open("result.json");
  CHECK_FALSE(file.is_open());
  CHECK(file.problem() == "your run left no 'result.json' in its output folder");
}

TEST_CASE("a symbolic link is never followed: not to a file, nor to one the run could not see") {
  Folders f;
  fs::create_symlink(f.secret, f.out / "exclusive.npy");
  fs::create_symlink("/nonexistent/reference/result.json", f.out / "result.json");
  const RunOutput out(f.out);
  const RunFile link = out.open("exclusive.npy");
  CHECK_FALSE(link.is_open());
  CHECK(link.problem() ==
        "your run left 'exclusive.npy' in its output folder as a symbolic link; gpulab reads "
        "only plain files your code wrote there");
  CHECK(contains(out.open("result.json").problem(),
                 "'result.json' in its output folder as a "
                 "symbolic link"));
  // Both named, in order, whatever order the folder lists them in.
  CHECK(out.refused() ==
        "your run left 'exclusive.npy' in its output folder as a symbolic link; your run left "
        "'result.json' in its output folder as a symbolic link; gpulab reads only plain files "
        "your code wrote there");
  CHECK_THROWS_WITH_AS(out.read_npy("exclusive.npy", gpulab::DType::i32),
                       doctest::Contains("as a symbolic link"), gpulab::NpyError);
}

TEST_CASE("a hard link to a file elsewhere is refused, and so is its twin in the folder") {
  Folders f;
  fs::create_hard_link(f.secret, f.out / "exclusive.npy");
  const RunOutput out(f.out);
  const RunFile file = out.open("exclusive.npy");
  CHECK_FALSE(file.is_open());
  CHECK(contains(file.problem(),
                 "'exclusive.npy' in its output folder as a hard link (a file "
                 "with 2 names)"));
  CHECK(contains(out.refused(), "'exclusive.npy'"));

  Folders g;  // two names in the folder itself: either could be the other's stand-in
  test::write_file(g.out / "a.npy", "x");
  fs::create_hard_link(g.out / "a.npy", g.out / "b.npy");
  const RunOutput twins(g.out);
  CHECK(contains(twins.refused(), "'a.npy'"));
  CHECK(contains(twins.refused(), "'b.npy'"));
  CHECK_FALSE(twins.open("a.npy").is_open());
}

TEST_CASE("a directory, a named pipe and a device are refused, the pipe without blocking") {
  Folders f;
  fs::create_directories(f.out / "result.json");
  REQUIRE(mkfifo((f.out / "sim-findings.jsonl").c_str(), 0644) == 0);
  const RunOutput out(f.out);
  const RunFile dir = out.open("result.json");
  CHECK_FALSE(dir.is_open());
  CHECK(contains(dir.problem(), "'result.json' in its output folder as a directory"));
  const RunFile pipe = out.open("sim-findings.jsonl");  // no writer: a blocking open never returns
  CHECK_FALSE(pipe.is_open());
  CHECK(contains(pipe.problem(), "'sim-findings.jsonl' in its output folder as a named pipe"));
  CHECK(contains(out.refused(), "as a directory"));
  CHECK(contains(out.refused(), "as a named pipe"));
  if (geteuid() == 0) {  // only root makes device nodes
    REQUIRE(mknod((f.out / "exclusive.npy").c_str(), S_IFCHR | 0644, makedev(1, 3)) == 0);
    CHECK(contains(RunOutput(f.out).open("exclusive.npy").problem(), "as a device"));
  }
}

TEST_CASE("an output folder that is itself a link is not opened") {
  Folders f;
  fs::create_symlink(f.secret.parent_path(), f.tmp / "linked-out");
  const RunOutput out(f.tmp / "linked-out");
  CHECK_FALSE(out.refused().empty());
  CHECK_FALSE(out.open("exclusive.npy").is_open());
}

TEST_CASE("an entry's name is quoted safely: no control characters, not too long") {
  Folders f;
  fs::create_symlink("/x", f.out / "a\nb");
  fs::create_symlink("/x", f.out / std::string(200, 'z'));
  const std::string why = RunOutput(f.out).refused();
  CHECK(contains(why, "'a?b'"));
  CHECK(contains(why, std::string(64, 'z') + "...'"));
  CHECK(why.find('\n') == std::string::npos);
}

TEST_CASE("an .npy output is read from the open file, and a header that lies fails cleanly") {
  Folders f;
  const int32_t values[3] = {1, 2, 3};
  gpulab::write_npy(f.out / "exclusive.npy", {3}, values);
  const RunOutput out(f.out);
  const gpulab::NpyArray a = out.read_npy("exclusive.npy", gpulab::DType::i32);
  CHECK(a.shape == std::vector<size_t>{3});
  CHECK(a.as<int32_t>()[2] == 3);
  CHECK_THROWS_WITH_AS(out.read_npy("exclusive.npy", gpulab::DType::f32),
                       doctest::Contains("exclusive.npy: holds int32"), gpulab::NpyError);
  CHECK_THROWS_WITH_AS(out.read_npy("missing.npy", gpulab::DType::i32),
                       doctest::Contains("left no 'missing.npy'"), gpulab::NpyError);
  // A header claiming 2^40 elements: truncated, without allocating them first.
  std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (1099511627776,), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  const char length[2] = {static_cast<char>(header.size() & 0xff),
                          static_cast<char>(header.size() >> 8)};
  test::write_file(f.out / "lie.npy", std::string("\x93NUMPY\x01\x00", 8) + std::string(length, 2) +
                                          header + "twelve bytes");
  CHECK_THROWS_WITH_AS(RunOutput(f.out).read_npy("lie.npy", gpulab::DType::i32),
                       doctest::Contains("truncated data"), gpulab::NpyError);
}
