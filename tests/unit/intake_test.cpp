// grader/grade/intake.h: what a submission may be (a folder, a .zip, a .tar.gz, one file), what is
// copied out of it (the lab's student files alone), and what is refused, with the reason naming
// the file: links, devices and pipes, paths leaving the folder, too much data or too many
// entries, counted as unpacked and not as claimed.
#include "grade/intake.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "hostile_archive.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using test::HostileEntry;
using Kind = HostileEntry::Kind;

const std::string kSource = "void scan_int() {}  // the student's code\n";

gpulab::IntakeSpec scan_spec() {
  return {{"scan.cu"}, {"lab.json", "scan.h", "driver.cpp", "scan.cu"}, ""};
}

struct Taken {
  gpulab::Intake intake;
  fs::path staged;
};

Taken take(const test::TempDir& dir, const fs::path& submission,
           const gpulab::IntakeLimits& limits = {}) {
  const fs::path staged = dir / "staged";
  return {gpulab::take_in_submission(submission, scan_spec(), staged, limits), staged};
}

// The submission was refused, and the reason names `name` and says `why`.
void check_refused(const Taken& t, const std::string& name, const std::string& why) {
  CHECK_FALSE(t.intake.accepted);
  CHECK_MESSAGE(test::contains(t.intake.rejection, name), t.intake.rejection);
  CHECK_MESSAGE(test::contains(t.intake.rejection, why), t.intake.rejection);
}

fs::path archive(const test::TempDir& dir, const std::string& name,
                 const std::vector<HostileEntry>& entries) {
  const fs::path file = dir / name;
  test::write_hostile_archive(file, entries);
  return file;
}

}  // namespace

TEST_CASE("a folder: the student file is copied, other files are listed, litter is not") {
  test::TempDir dir;
  test::write_file(dir / "sub" / "scan.cu", kSource);
  test::write_file(dir / "sub" / "README.md", "notes");
  test::write_file(dir / "sub" / "scan.h", "// the lab's header, never compiled from here");
  test::write_file(dir / "sub" / ".DS_Store", "litter");
  fs::create_directories(dir / "sub" / "build");
  const Taken t = take(dir, dir / "sub");
  REQUIRE(t.intake.accepted);
  CHECK(test::read_file(t.staged / "scan.cu") == kSource);
  CHECK_FALSE(fs::exists(t.staged / "scan.h"));
  CHECK(t.intake.ignored == std::vector<std::string>{"README.md", "build/"});
  const std::string note = t.intake.note(scan_spec());
  CHECK(test::contains(note, "Only scan.cu is graded"));
  CHECK(test::contains(note, "\"README.md\""));
  CHECK_FALSE(test::contains(note, "DS_Store"));
}

TEST_CASE("many entries beside the lab's file: ten are named, quoted, and the rest counted") {
  test::TempDir dir;
  for (int i = 0; i < 13; ++i) test::write_file(dir / "sub" / ("e" + std::to_string(10 + i)), "x");
  test::write_file(dir / "sub" / "scan.cu", kSource);
  const Taken t = take(dir, dir / "sub");
  REQUIRE(t.intake.accepted);
  const std::string note = t.intake.note(scan_spec());
  CHECK_MESSAGE(test::contains(note, "\"e18\", \"e19\" and 3 more."), note);
  CHECK_FALSE(test::contains(note, "\"e20\""));
  // The same listing where nothing is graded.
  fs::remove(dir / "sub" / "scan.cu");
  check_refused(take(dir, dir / "sub"), "\"e19\" and 3 more", "nothing to grade");
}

TEST_CASE("a folder holding one folder is looked into") {
  test::TempDir dir;
  test::write_file(dir / "sub" / "lab3" / "scan.cu", kSource);
  test::write_file(dir / "sub" / ".DS_Store", "litter");
  const Taken t = take(dir, dir / "sub");
  REQUIRE(t.intake.accepted);
  CHECK(test::read_file(t.staged / "scan.cu") == kSource);
  CHECK(t.intake.note(scan_spec()).empty());
}

TEST_CASE("a student file that is a link, a pipe or a folder is refused, and never read") {
  test::TempDir dir;
  test::write_file(dir / "secret.txt", "instructor-only text");
  SUBCASE("symbolic link") {
    fs::create_directories(dir / "sub");
    fs::create_symlink(dir / "secret.txt", dir / "sub" / "scan.cu");
    const Taken t = take(dir, dir / "sub");
    check_refused(t, "\"scan.cu\"", "symbolic link");
    CHECK_FALSE(test::contains(t.intake.rejection, "secret"));
    CHECK_FALSE(fs::exists(t.staged / "scan.cu"));
  }
  SUBCASE("hard link") {
    fs::create_directories(dir / "sub");
    fs::create_hard_link(dir / "secret.txt", dir / "sub" / "scan.cu");
    check_refused(take(dir, dir / "sub"), "\"scan.cu\"", "hard link");
  }
  SUBCASE("named pipe: refused at once, without waiting for a writer") {
    fs::create_directories(dir / "sub");
    REQUIRE(mkfifo((dir / "sub" / "scan.cu").c_str(), 0644) == 0);
    check_refused(take(dir, dir / "sub"), "\"scan.cu\"", "device, pipe or socket");
  }
  SUBCASE("folder") {
    fs::create_directories(dir / "sub" / "scan.cu");
    test::write_file(dir / "sub" / "other.txt", "x");
    check_refused(take(dir, dir / "sub"), "\"scan.cu\"", "is a folder");
  }
}

TEST_CASE("links beside the student file in a folder are listed, not followed") {
  test::TempDir dir;
  test::write_file(dir / "sub" / "scan.cu", kSource);
  fs::create_symlink("/etc", dir / "sub" / "compile_commands.json");
  const Taken t = take(dir, dir / "sub");
  REQUIRE(t.intake.accepted);
  CHECK(t.intake.ignored == std::vector<std::string>{"compile_commands.json"});
}

TEST_CASE("a student file over the size limit is refused") {
  test::TempDir dir;
  test::write_file(dir / "sub" / "scan.cu", std::string(2000, 'x'));
  gpulab::IntakeLimits small;
  small.max_file_bytes = 1024;
  check_refused(take(dir, dir / "sub", small), "\"scan.cu\"", "larger than 1 KiB");
}

TEST_CASE("one file on its own: the lab's file, or a version of it under its own name") {
  test::TempDir dir;
  test::write_file(dir / "scan.cu", kSource);
  test::write_file(dir / "scan (1).cu", kSource + "// a version\n");
  test::write_file(dir / "scan.txt", kSource);
  const Taken ok = take(dir, dir / "scan.cu");
  REQUIRE(ok.intake.accepted);
  CHECK(test::read_file(ok.staged / "scan.cu") == kSource);
  CHECK(ok.intake.note(scan_spec()).empty());
  // The lab has one file: another of its extension is graded as it, and the report says so.
  const Taken version = take(dir, dir / "scan (1).cu");
  REQUIRE(version.intake.accepted);
  CHECK(test::read_file(version.staged / "scan.cu") == kSource + "// a version\n");
  CHECK(fs::directory_iterator(version.staged)->path().filename() == "scan.cu");
  CHECK(test::contains(version.intake.note(scan_spec()),
                       "Your file \"scan (1).cu\" was graded as the lab's scan.cu"));
  CHECK(version.intake.writeup.lone_file);
  check_refused(take(dir, dir / "scan.txt"), "\"scan.txt\"", "nor one of this lab's files");
  // A lab of two files: which one a version would be is not guessed.
  const gpulab::IntakeSpec two = {{"scan.cu", "helpers.cu"}, {}, ""};
  const gpulab::Intake both = gpulab::take_in_submission(dir / "scan (1).cu", two, dir / "two");
  CHECK_FALSE(both.accepted);
  CHECK(test::contains(both.rejection, "nor one of this lab's files"));
}

TEST_CASE("a submission holding none of the lab's files is refused: nothing to grade") {
  test::TempDir dir;
  fs::create_directories(dir / "empty");
  check_refused(take(dir, dir / "empty"), "\"empty\"", "none of this lab's files (scan.cu)");
  CHECK(test::contains(take(dir, dir / "empty").intake.rejection, "it is empty"));
  // A file named like the lab's, by a slip: the reason says which, and the fix.
  for (const std::string slip : {"scan (1).cu", "Scan.cu", "scan_final.cu"}) {
    const fs::path folder = dir / ("named-" + std::to_string(slip.size()) + slip.substr(0, 1));
    test::write_file(folder / slip, kSource);
    test::write_file(folder / "notes.txt", "x");
    const Taken t = take(dir, folder);
    check_refused(t, "\"" + slip + "\" is there: name it scan.cu", "nothing to grade");
  }
  // Otherwise it lists what it holds.
  test::write_file(dir / "other" / "main.cpp", kSource);
  check_refused(take(dir, dir / "other"), "\"main.cpp\"", "it holds");
}

TEST_CASE("a submission that does not exist is the instructor's error") {
  test::TempDir dir;
  CHECK_THROWS_WITH_AS(take(dir, dir / "nobody"), doctest::Contains("does not exist"),
                       std::runtime_error);
}

TEST_CASE("a zip of a folder, with macOS litter and a README") {
  test::TempDir dir;
  const Taken t = take(
      dir, archive(dir, "Lab3.ZIP",
                   {HostileEntry::directory("lab3/"), HostileEntry::file("lab3/scan.cu", kSource),
                    HostileEntry::file("lab3/README.md", "notes"),
                    HostileEntry::file("lab3/scan.h", "// the lab's header"),
                    HostileEntry::file("__MACOSX/lab3/._scan.cu", "litter"),
                    HostileEntry::file("lab3/.DS_Store", "litter")}));
  REQUIRE(t.intake.accepted);
  CHECK(test::read_file(t.staged / "scan.cu") == kSource);
  CHECK(t.intake.ignored == std::vector<std::string>{"README.md"});
}

TEST_CASE("a .tar.gz made with `tar czf lab.tgz .` (entries start with ./)") {
  test::TempDir dir;
  const Taken t =
      take(dir, archive(dir, "lab.tgz",
                        {HostileEntry::directory("./"), HostileEntry::file("./scan.cu", kSource),
                         HostileEntry::file("./notes/todo.txt", "x")}));
  REQUIRE(t.intake.accepted);
  CHECK(test::read_file(t.staged / "scan.cu") == kSource);
  CHECK(t.intake.ignored == std::vector<std::string>{"notes/"});
}

TEST_CASE("a student file not at the top, nor in the one wrapping folder, is not taken") {
  test::TempDir dir;
  const Taken t = take(dir, archive(dir, "lab.zip",
                                    {HostileEntry::file("lab3/src/scan.cu", kSource),
                                     HostileEntry::file("lab3/README.md", "x")}));
  CHECK_FALSE(fs::exists(t.staged / "scan.cu"));
  check_refused(t, "\"src/\"", "none of this lab's files");
}

TEST_CASE("archive entries leaving their folder are refused, whatever the separator") {
  test::TempDir dir;
  for (const std::string name : {"../escape.cu", "lab/../../escape.cu", "..\\escape.cu"}) {
    CAPTURE(name);
    const Taken t = take(dir, archive(dir, "lab.zip",
                                      {HostileEntry::file("lab/scan.cu", kSource),
                                       HostileEntry::file(name, "int x;")}));
    check_refused(t, "escape.cu", "leads out of its folder");
    CHECK_FALSE(fs::exists(dir / "escape.cu"));
  }
  for (const std::string name : {"/tmp/escape.cu", "C:\\escape.cu"}) {
    CAPTURE(name);
    check_refused(take(dir, archive(dir, "lab.tar.gz", {HostileEntry::file(name, "int x;")})),
                  "escape.cu", "absolute path");
  }
}

TEST_CASE("links, devices and pipes in an archive are refused, wherever they are") {
  test::TempDir dir;
  struct Case {
    HostileEntry entry;
    std::string why;
  };
  const std::vector<Case> cases = {
      {HostileEntry::link("lab/scan.cu", Kind::symlink, "/etc/passwd"), "symbolic link"},
      {HostileEntry::link("lab/notes", Kind::symlink, "/"), "symbolic link"},
      {HostileEntry::link("lab/scan.cu", Kind::hardlink, "/etc/passwd"), "hard link"},
      {HostileEntry::special("lab/scan.cu", Kind::char_device), "device, pipe or socket"},
      {HostileEntry::special("lab/fifo", Kind::fifo), "device, pipe or socket"}};
  for (const auto& c : cases) {
    CAPTURE(c.entry.path);
    const Taken t =
        take(dir, archive(dir, "lab.tar.gz", {HostileEntry::file("lab/README.md", "x"), c.entry}));
    check_refused(t, c.entry.path, c.why);
    CHECK_FALSE(test::contains(t.intake.rejection, "/etc/passwd"));
  }
  check_refused(take(dir, archive(dir, "lab.zip",
                                  {HostileEntry::link("scan.cu", Kind::symlink, "/etc/passwd")})),
                "\"scan.cu\"", "symbolic link");
}

TEST_CASE("a zip bomb is stopped by the bytes unpacked, whatever its headers say") {
  test::TempDir dir;
  // 64 MiB of zeros deflate to about 64 KB.
  const fs::path bomb =
      archive(dir, "bomb.zip", {HostileEntry::file("scan.cu", kSource, size_t{64} << 20)});
  CHECK(fs::file_size(bomb) < (size_t{1} << 20));
  check_refused(take(dir, bomb), "\"scan.cu\"", "larger than 1 MiB");
  // Extras are never read, but count towards the total as their headers state.
  check_refused(take(dir, archive(dir, "extras.tar.gz",
                                  {HostileEntry::file("scan.cu", kSource),
                                   HostileEntry::file("data.bin", "", size_t{20} << 20)})),
                "extras.tar.gz", "more than 16 MiB unpacked");
}

TEST_CASE("too many entries, a file twice, an archive that is not one: refused") {
  test::TempDir dir;
  std::vector<HostileEntry> many = {HostileEntry::file("scan.cu", kSource)};
  for (int i = 0; i < 20; ++i) many.push_back(HostileEntry::file("junk/" + std::to_string(i), "x"));
  gpulab::IntakeLimits few;
  few.max_entries = 10;
  check_refused(take(dir, archive(dir, "many.zip", many), few), "many.zip", "more than 10 entries");
  check_refused(take(dir, archive(dir, "twice.tgz",
                                  {HostileEntry::file("scan.cu", kSource),
                                   HostileEntry::file("./scan.cu", "int evil;")})),
                "\"./scan.cu\"", "appears twice");
  test::write_file(dir / "garbage.zip", "this is not a zip archive at all");
  check_refused(take(dir, dir / "garbage.zip"), "garbage.zip", "could not be read as a .zip");
  archive(dir, "zip-named.zip", {HostileEntry::file("scan.cu", kSource)});
  fs::rename(dir / "zip-named.zip", dir / "zip-named.tar.gz");
  check_refused(take(dir, dir / "zip-named.tar.gz"), "zip-named.tar.gz",
                "could not be read as a .tar.gz");
}

TEST_CASE("an archive larger than the limit is not opened") {
  test::TempDir dir;
  test::write_file(dir / "big.zip", std::string(4096, 'x'));
  gpulab::IntakeLimits small;
  small.max_archive_bytes = 1024;
  check_refused(take(dir, dir / "big.zip", small), "big.zip", "larger than 1 KiB");
}

namespace {

// The write-up where the spec names one (writeup.h keeps it).
gpulab::IntakeSpec spec_with_writeup() {
  gpulab::IntakeSpec s = scan_spec();
  s.writeup_file = "REPORT.md";
  return s;
}

Taken take_with_writeup(const test::TempDir& dir, const fs::path& submission,
                        const gpulab::IntakeLimits& limits = {}) {
  const fs::path staged = dir / "staged";
  return {gpulab::take_in_submission(submission, spec_with_writeup(), staged, limits), staged};
}

const std::string kWriteup = "# Lab 4: write-up\n\n| items | ms |\n|---|---:|\n| 8 | 0.91 |\n";

}  // namespace

TEST_CASE("the write-up is read beside the student files, and never staged with them") {
  test::TempDir dir;
  SUBCASE("a folder") {
    test::write_file(dir / "sub" / "scan.cu", kSource);
    test::write_file(dir / "sub" / "REPORT.md", kWriteup);
    const Taken t = take_with_writeup(dir, dir / "sub");
    REQUIRE(t.intake.accepted);
    CHECK(t.intake.writeup.found);
    CHECK(t.intake.writeup.text == kWriteup);
    CHECK(t.intake.writeup.bytes == kWriteup.size());
    CHECK(t.intake.ignored.empty());  // not "not graded": it is kept
    // Asked for by no one (gpulab run), it is neither read nor listed.
    CHECK_FALSE(take(dir, dir / "sub").intake.writeup.found);
  }
  SUBCASE("a zip of a folder") {
    const Taken t = take_with_writeup(
        dir, archive(dir, "lab4.zip",
                     {HostileEntry::file("lab4/scan.cu", kSource),
                      HostileEntry::file("lab4/REPORT.md", kWriteup),
                      HostileEntry::file("lab4/notes/REPORT.md", "an older draft")}));
    REQUIRE(t.intake.accepted);
    CHECK(t.intake.writeup.text == kWriteup);
    CHECK(t.intake.ignored == std::vector<std::string>{"notes/"});
  }
  CHECK(fs::exists(dir / "staged" / "scan.cu"));
  CHECK_FALSE(fs::exists(dir / "staged" / "REPORT.md"));
}

TEST_CASE(
    "a write-up that is a link, or too large, is not kept, and the code is taken all the same") {
  test::TempDir dir;
  test::write_file(dir / "secret.txt", "instructor-only text");
  gpulab::IntakeLimits small;
  small.max_writeup_bytes = 1024;
  SUBCASE("a symbolic link in a folder") {
    test::write_file(dir / "sub" / "scan.cu", kSource);
    fs::create_symlink(dir / "secret.txt", dir / "sub" / "REPORT.md");
    const Taken t = take_with_writeup(dir, dir / "sub");
    REQUIRE(t.intake.accepted);
    CHECK(t.intake.writeup.found);
    CHECK_FALSE(t.intake.writeup.text);
    CHECK(test::contains(t.intake.writeup.problem, "\"REPORT.md\" is a symbolic link"));
  }
  SUBCASE("a hard link in a folder: the instructor's file under the write-up's name") {
    test::write_file(dir / "sub" / "scan.cu", kSource);
    fs::create_hard_link(dir / "secret.txt", dir / "sub" / "REPORT.md");
    const Taken t = take_with_writeup(dir, dir / "sub");
    REQUIRE(t.intake.accepted);
    CHECK(t.intake.writeup.found);
    CHECK_FALSE(t.intake.writeup.text);
    CHECK(test::contains(t.intake.writeup.problem, "\"REPORT.md\" is a hard link"));
  }
  SUBCASE("too large, in a folder") {
    test::write_file(dir / "sub" / "scan.cu", kSource);
    test::write_file(dir / "sub" / "REPORT.md", std::string(2000, 'x'));
    const Taken t = take_with_writeup(dir, dir / "sub", small);
    REQUIRE(t.intake.accepted);
    CHECK_FALSE(t.intake.writeup.text);
    CHECK(t.intake.writeup.bytes == 2000);
    CHECK(test::contains(t.intake.writeup.problem, "larger than 1 KiB, the limit for a write-up"));
  }
  SUBCASE("too large, in a .tar.gz: its bytes unpacked counted, not its header") {
    const Taken t =
        take_with_writeup(dir,
                          archive(dir, "lab.tgz",
                                  {HostileEntry::file("scan.cu", kSource),
                                   HostileEntry::file("REPORT.md", "", size_t{1} << 20)}),
                          small);
    REQUIRE(t.intake.accepted);
    CHECK_FALSE(t.intake.writeup.text);
    CHECK(test::contains(t.intake.writeup.problem, "larger than 1 KiB"));
  }
  CHECK(test::read_file(dir / "staged" / "scan.cu") == kSource);
}

TEST_CASE("a lab file submitted on its own holds no write-up") {
  test::TempDir dir;
  test::write_file(dir / "scan.cu", kSource);
  const Taken t = take_with_writeup(dir, dir / "scan.cu");
  REQUIRE(t.intake.accepted);
  CHECK(t.intake.writeup.lone_file);
  CHECK_FALSE(t.intake.writeup.found);
}
