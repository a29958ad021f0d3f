// The pieces of gpulab grade-all: the roster's layout, the submission fingerprint that decides
// what a resumed run grades again, the GPU lock, the progress line, and atomic writes.
#include <doctest/doctest.h>

#include <sstream>

#include "class/roster.h"
#include "files/atomic_file.h"
#include "files/content_hash.h"
#include "files/file_lock.h"
#include "os/progress.h"
#include "test_util.h"

namespace {

using test::contains;
using test::TempDir;
using test::write_file;
namespace fs = std::filesystem;

}  // namespace

TEST_CASE("a roster: directories and archives per student, a folder per lab where given") {
  TempDir d;
  write_file(d / "roster/alice/scan.cu", "a");     // the student's folder
  write_file(d / "roster/bob/scan/scan.cu", "b");  // a folder per lab
  write_file(d / "roster/bob/binning/binning.cu", "b");
  write_file(d / "roster/carol.tar.gz", "c");   // an archive per student
  write_file(d / "roster/dave/scan.ZIP", "d");  // an archive per lab
  write_file(d / "roster/notes.txt", "not a student");
  write_file(d / "roster/.DS_Store", "");
  const gpulab::Roster r = gpulab::read_roster(d / "roster", "scan");
  REQUIRE(r.entries.size() == 4);
  CHECK(r.entries[0].student == "alice");
  CHECK(r.entries[0].submission == d / "roster/alice");
  CHECK(r.entries[1].student == "bob");
  CHECK(r.entries[1].submission == d / "roster/bob/scan");
  CHECK(r.entries[2].student == "carol");
  CHECK(r.entries[2].submission == d / "roster/carol.tar.gz");
  CHECK(r.entries[3].student == "dave");
  CHECK(r.entries[3].submission == d / "roster/dave/scan.ZIP");
  REQUIRE(r.ignored.size() == 1);
  CHECK(r.ignored[0] == d / "roster/notes.txt");
  CHECK(gpulab::read_roster(d / "roster", "binning").entries[1].submission ==
        d / "roster/bob/binning");

  write_file(d / "roster/alice.zip", "a second alice");
  CHECK_THROWS_WITH_AS(gpulab::read_roster(d / "roster", "scan"),
                       doctest::Contains("two entries for the student \"alice\""),
                       std::runtime_error);
  CHECK_THROWS_AS(gpulab::read_roster(d / "missing", "scan"), std::runtime_error);
}

TEST_CASE("the content hash changes with any file's name or bytes, not with time") {
  TempDir d;
  write_file(d / "s/scan.cu", "int x;");
  write_file(d / "s/sub/notes.md", "hello");
  const std::string h = gpulab::content_hash(d / "s");
  CHECK(h.rfind("fnv1a64:", 0) == 0);
  CHECK(gpulab::content_hash(d / "s") == h);
  fs::last_write_time(d / "s/scan.cu", fs::file_time_type::clock::now() - std::chrono::hours(1));
  CHECK(gpulab::content_hash(d / "s") == h);
  write_file(d / "s/scan.cu", "int y;");
  CHECK(gpulab::content_hash(d / "s") != h);
  write_file(d / "s/scan.cu", "int x;");
  CHECK(gpulab::content_hash(d / "s") == h);
  fs::rename(d / "s/sub/notes.md", d / "s/sub/notes2.md");
  CHECK(gpulab::content_hash(d / "s") != h);
  // A file is hashed by its bytes.
  write_file(d / "a.zip", "PK...");
  write_file(d / "b.zip", "PK..!");
  CHECK(gpulab::content_hash(d / "a.zip") != gpulab::content_hash(d / "b.zip"));
  CHECK_THROWS_AS(gpulab::content_hash(d / "missing"), std::runtime_error);
}

TEST_CASE("a file lock is held while its object lives, and free after") {
  TempDir d;
  const fs::path lock = d / "locks/gpu.lock";
  CHECK_FALSE(gpulab::FileLock::taken(lock));
  {
    gpulab::FileLock held(lock);
    CHECK(held.held());
    CHECK(gpulab::FileLock::taken(lock));
    gpulab::FileLock moved = std::move(held);
    CHECK_FALSE(held.held());
    CHECK(gpulab::FileLock::taken(lock));
  }
  CHECK_FALSE(gpulab::FileLock::taken(lock));
}

TEST_CASE("progress: plain lines when not a terminal, one redrawn line on a terminal") {
  std::ostringstream plain;
  {
    gpulab::Progress p(plain, false, 3, 1);
    p.started();
    p.finished("scan/alice: 8 / 10 (3 s)");
    p.started();
    p.finished("scan/bob: 0 / 10 (1 s)");
    p.close();
  }
  CHECK(plain.str() ==
        "1 of 3 already graded with this configuration: skipped\n"
        "[2/3] scan/alice: 8 / 10 (3 s)\n"
        "[3/3] scan/bob: 0 / 10 (1 s)\n");

  std::ostringstream tty;
  gpulab::Progress p(tty, true, 4, 0, 60);
  p.started();
  p.finished("scan/alice: a very long line that does not fit on the terminal at all");
  p.close();
  const std::string s = tty.str();
  CHECK(s.find('\n') == s.size() - 1);  // one line, ended by close()
  CHECK(contains(s, "\r\033[K["));
  CHECK(contains(s, "] 1/4"));
  // Each redraw fits the terminal's 60 columns.
  size_t at = 0;
  while ((at = s.find("\r\033[K", at)) != std::string::npos) {
    at += 4;
    const size_t end = std::min(s.find('\r', at), s.find('\n', at));
    CHECK(end - at < 60);
  }
}

TEST_CASE("write_file_atomically replaces a file whole and leaves no temporary file") {
  TempDir d;
  gpulab::write_file_atomically(d / "out/class.csv", "a,b\r\n");
  CHECK(test::read_file(d / "out/class.csv") == "a,b\r\n");
  gpulab::write_file_atomically(d / "out/class.csv", "c\r\n");
  CHECK(test::read_file(d / "out/class.csv") == "c\r\n");
  CHECK(std::distance(fs::directory_iterator(d / "out"), fs::directory_iterator()) == 1);
}
