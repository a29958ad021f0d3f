// gpulab run's terminal output: the colour rule (terminal_style.h), the table's columns, the
// failing tests' messages (failure_messages.h), the compiler's paths under the student's names
// (shown_paths.h) and the step counter (grade_steps.h).
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "core/report.h"
#include "grade/failure_messages.h"
#include "grade/grade_steps.h"
#include "test_util.h"
#include "text/safe_text.h"
#include "text/shown_paths.h"
#include "text/terminal_style.h"

namespace {

using gpulab::Report;
using gpulab::TerminalStyle;
using test::contains;
namespace fs = std::filesystem;

constexpr const char* kEsc = "\033[";

gpulab::Test failing(const std::string& name, const std::string& output) {
  gpulab::Test t;
  t.name = name;
  t.max_score = 10;
  t.output = output;
  return t;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("colour on a terminal only, and never where NO_COLOR is set to something") {
  CHECK(TerminalStyle::decide(true, nullptr).colour());
  CHECK(TerminalStyle::decide(true, "")
            .colour());  // empty counts as unset, as NO_COLOR's convention says
  CHECK_FALSE(TerminalStyle::decide(true, "1").colour());
  CHECK_FALSE(TerminalStyle::decide(true, "0").colour());  // any value at all
  CHECK_FALSE(TerminalStyle::decide(false, nullptr).colour());

  const TerminalStyle plain, colour(true);
  CHECK(plain.fail("FAIL") == "FAIL");
  CHECK(contains(colour.fail("FAIL"), kEsc));
  CHECK(colour.pass("pass") != colour.fail("pass"));

  Report r;
  r.tests = {failing("gather: correctness on the public datasets", "FAIL tiny: wrong")};
  r.rows = {{"gather", "tiny", "FAIL", 2.0, -1, -1, -1}};
  CHECK_FALSE(contains(r.table(plain) + r.summary(plain), kEsc));
  CHECK_FALSE(contains(gpulab::failure_messages(r, plain), kEsc));
  CHECK(contains(r.table(colour), kEsc));
  CHECK(contains(r.summary(colour), kEsc));
  CHECK(contains(gpulab::failure_messages(r, colour), kEsc));
}

TEST_CASE("the table's columns are as wide as their longest value") {
  Report r;
  r.rows = {{"scan", "int-1", "pass", 0.5, 1.5, 1.25, 1.2},
            {"exclusive_with_a_long_name", "a-much-longer-dataset-name-than-usual", "FAIL", 3, 12.5,
             10, 0.8}};
  const auto lines = lines_of(r.table());
  REQUIRE(lines.size() == 3);
  // Every column starts where the header's does, on every line: the ratio column, the last,
  // ends at the same place everywhere.
  for (const char* header : {"dataset", "result"}) {  // text: on the left
    const size_t at = lines[0].find(header);
    REQUIRE(at != std::string::npos);
    for (size_t i = 1; i < 3; ++i) {
      CHECK(lines[i][at - 1] == ' ');
      CHECK(lines[i][at] != ' ');
    }
  }
  for (const std::string header : {"err/bound", "time ms", "ratio"}) {  // numbers: on the right
    const size_t end = lines[0].find(header) + header.size();
    for (size_t i = 1; i < 3; ++i) {
      CHECK(lines[i][end - 1] != ' ');
      CHECK((end == lines[i].size() || lines[i][end] == ' '));
    }
  }
  CHECK(lines[1].find("int-1") == lines[0].find("dataset"));
  CHECK(lines[2].find("a-much-longer") == lines[0].find("dataset"));
  CHECK(lines[1].size() == lines[0].size());
  CHECK(lines[2].size() == lines[0].size());
  // A coloured table lines up the same: escapes take no columns.
  const auto coloured = lines_of(r.table(TerminalStyle(true)));
  CHECK(coloured[2].find("a-much-longer") != std::string::npos);
}

TEST_CASE("the failing tests' messages: the first failing dataset in full, the rest by name") {
  Report r;
  r.tests = {
      failing("scan: correctness on the public datasets",
              "1 of 3 public datasets passed; every one must pass for these points.\n"
              "PASS int-1: out: all 1 values within tolerance\n"
              "FAIL int-31: out: 1 of 31 values are outside the error bound; the worst is at [7]: "
              "expected 12, got 13, error 1, allowed 0 (inf times the bound).\n"
              "FAIL int-1000: your code failed: it wrote outside the output array\n"
              "Its output:\n"
              "runner: it wrote outside the output array\n"),
      failing("scan: performance", "These points need at least 1.20x."),
  };
  gpulab::Test passed = failing("other: correctness", "all good");
  passed.passed = true;
  gpulab::Test hidden = failing("scan: hidden dataset details (instructors)", "secret-dataset");
  hidden.visibility = "hidden";
  gpulab::Test note = failing("scan: not graded", "worth nothing");
  note.max_score = 0;
  r.tests.push_back(passed);
  r.tests.push_back(hidden);
  r.tests.push_back(note);
  const std::string s = gpulab::failure_messages(r, TerminalStyle());
  CAPTURE(s);
  CHECK(contains(s, "FAIL scan: correctness on the public datasets"));
  CHECK(contains(s, "expected 12, got 13"));
  CHECK(contains(s, "also failed: int-1000"));
  CHECK_FALSE(contains(s, "PASS int-1"));
  CHECK_FALSE(contains(s, "wrote outside"));  // int-1000's lines: by name only
  CHECK(contains(s, "These points need at least 1.20x."));
  CHECK_FALSE(contains(s, "all good"));
  CHECK_FALSE(contains(s, "secret-dataset"));
  CHECK_FALSE(contains(s, "worth nothing"));

  Report ok;
  ok.tests = {passed, note};
  CHECK(gpulab::failure_messages(ok, TerminalStyle()).empty());
  CHECK_FALSE(ok.any_failed());
  CHECK(r.any_failed());
}

TEST_CASE("a failing message: repeats left out, long ones bounded, hostile bytes made safe") {
  const auto repeated = gpulab::shortened_message(
      "FAIL tiny: your code failed: your dcs_gather wrote outside the output array: 0 before\n"
      "Its output:\n"
      "runner: your dcs_gather wrote outside the output array: 0 before\n\n"
      "No points: a second call of your function gave wrong outputs.\n");
  CHECK(repeated == std::vector<std::string>{
                        "FAIL tiny: your code failed: your dcs_gather wrote outside the output "
                        "array: 0 before",
                        "No points: a second call of your function gave wrong outputs."});

  std::string compiler = "compiling scan.cu failed:\n";
  for (int i = 0; i < 100; ++i) compiler += "scan.cu:" + std::to_string(i) + ": error\n";
  compiler += "\x1b[31m" + std::string(5000, 'x') + "\n";
  const auto shown = gpulab::shortened_message(compiler);
  CHECK(shown.size() == gpulab::kFailureLinesShown);
  CHECK(shown.front() == "compiling scan.cu failed:");
  CHECK(contains(shown.back(), "more lines"));
  for (const auto& line : shown) CHECK(line.size() <= gpulab::kFailureLineBytes + 3);

  Report r;
  r.tests = {failing("scan: does not build", "\x1b[2Jbad\xff")};
  const std::string s = gpulab::failure_messages(r, TerminalStyle(true));
  CHECK(gpulab::is_safe_text(gpulab::failure_messages(r, TerminalStyle())));
  CHECK_FALSE(contains(s, "\x1b[2J"));
}

TEST_CASE("tests with the same message share one block") {
  Report r;
  const std::string why = "Your code did not build.\nscan.cu:3:1: error: x";
  r.tests = {failing("exclusive: does not build", why), failing("inclusive: does not build", why)};
  const std::string s = gpulab::failure_messages(r, TerminalStyle());
  CHECK(contains(s, "FAIL exclusive: does not build; inclusive: does not build\n"));
  CHECK(s.find("scan.cu:3:1") == s.rfind("scan.cu:3:1"));
}

TEST_CASE("the compiler's paths name the student's own files") {
  const fs::path dir = fs::temp_directory_path() / "gpulab-shown-paths";
  fs::remove_all(dir);
  fs::create_directories(dir / "labs" / "scan");
  const std::string staged_output =
      "/tmp/gpulab-Ab12/submission/scan.cu:5:12: error: expected ';'\n"
      "In file included from /tmp/gpulab-Ab12/submission/scan.cu:1:\n";
  const auto shown = [&](const fs::path& submission, const fs::path& cwd) {
    return gpulab::with_student_paths(staged_output, "/tmp/gpulab-Ab12/submission",
                                      gpulab::shown_submission_prefix(submission, cwd));
  };
  // The lab folder under the current directory: relative, as the student types it.
  const std::string in_tree = shown(dir / "labs" / "scan", dir);
  CHECK(contains(in_tree, "labs/scan/scan.cu:5:12: error"));
  CHECK(contains(in_tree, "from labs/scan/scan.cu:1:"));
  CHECK_FALSE(contains(in_tree, "gpulab-Ab12"));
  // Elsewhere: the folder as given.
  CHECK(contains(shown(dir / "labs" / "scan", "/nowhere"), (dir / "labs/scan/scan.cu:5").string()));
  // One file given on its own: its folder; an archive: the names inside it.
  CHECK(contains(shown(dir / "labs" / "scan" / "scan.cu", dir), "labs/scan/scan.cu:5:12"));
  CHECK(contains(shown(dir / "my-scan.zip", dir), "\nIn file included from scan.cu:1:"));
  CHECK(gpulab::with_student_paths("/tmp/w/submission/a.cu", "/tmp/w/submission/", "x/") ==
        "x/a.cu");
  fs::remove_all(dir);
}

TEST_CASE("the step counter: one line redrawn on a terminal, nothing in a log") {
  std::ostringstream tty_out;
  {
    gpulab::StepCounter c(tty_out, true, 30);
    c.planned(2);
    c.step("scan on int-1");
    c.step("scan on a-dataset-with-a-very-long-name");
    c.log() << "WARNING: something\n";
    c.note("timing your scan");
    c.clear();
  }
  const std::string t = tty_out.str();
  CAPTURE(t);
  CHECK(contains(t, "\r\033[K[1/2] scan on int-1"));
  CHECK(contains(t, "\r\033[K[2/2] scan on a-dataset-with"));
  CHECK_FALSE(contains(t, "very-long-name"));          // cut at the terminal's width
  CHECK(contains(t, "\r\033[KWARNING: something\n"));  // the counter cleared first
  CHECK(t.find('\n') == t.rfind('\n'));                // no line per step
  CHECK(t.size() >= 4);
  CHECK(t.substr(t.size() - 4) == "\r\033[K");  // cleared at the end

  std::ostringstream log_out;
  gpulab::StepCounter quiet(log_out, false, 80);
  quiet.planned(1);
  quiet.step("scan on int-1");
  quiet.log() << "WARNING: something\n";
  CHECK(log_out.str() == "WARNING: something\n");

  std::ostringstream grade_log;
  gpulab::LogSteps lines(grade_log);
  lines.step("scan on int-1");
  lines.note("timing your scan");
  CHECK(grade_log.str() == "  scan on int-1\n  timing your scan\n");
}
