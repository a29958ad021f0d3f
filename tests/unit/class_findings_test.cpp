// grader/class/class_findings.h: what the class got wrong, per lab. A table of a few fabricated
// reports gives each test's failures (students, not lines), its messages grouped by all but
// their numbers with one verbatim, and the CPU backend's findings grouped by kind and line of
// code; the renderings (class.html's view, class-findings.csv) keep a hostile message text.
#include "class/class_findings.h"

#include <doctest/doctest.h>

#include "test_util.h"
#include "text/csv_text.h"

namespace {

using gpulab::ClassTable;
using gpulab::Report;
using gpulab::SimFindingSite;
using gpulab::SubmissionOutcome;
using gpulab::Test;

const char* const kPublic = "scan: correctness on the public datasets";
const char* const kHidden = "scan: correctness on the hidden datasets";
const char* const kDetails = "scan: hidden dataset details (instructors)";

Test test_of(const std::string& name, bool passed, std::string output,
             std::vector<SimFindingSite> sites = {}) {
  Test t;
  t.name = name;
  t.max_score = 10;
  t.score = passed ? 10 : 0;
  t.passed = passed;
  t.output = std::move(output);
  t.tags = {"scan", name == kPublic ? "public" : "hidden"};
  t.sim_findings = std::move(sites);
  return t;
}

// A report of the public and hidden groups; `hidden_detail` the instructors' detail output.
Report graded(Test public_test, bool hidden_passed, const std::string& hidden_detail,
              std::vector<SimFindingSite> hidden_sites = {}) {
  Report r;
  Test hidden = test_of(kHidden, hidden_passed, "1 of 2 hidden datasets passed.");
  hidden.on_hidden_datasets = true;
  Test detail = test_of(kDetails, hidden_passed, hidden_detail, std::move(hidden_sites));
  detail.max_score = detail.score = 0;
  detail.visibility = "hidden";
  detail.on_hidden_datasets = true;
  detail.tags = hidden.tags;
  r.tests = {std::move(public_test), hidden, detail};
  return r;
}

const SimFindingSite kRace = {"shared_race", "scan.cu", 41, "tile[t]  =  in[i];"};

// ann, ben and cat fail the public group on the same misconception at different indices and
// values; ann twice over (two datasets, one student). dan's code has the same race on another
// line number with other spacing; eve did not build; fay's grader failed (no verdict);
// gus passes everything.
ClassTable sample_class() {
  ClassTable t({"scan"});
  t.add("ann", "scan",
        graded(test_of(kPublic, false,
                       "1 of 3 public datasets passed; every one must pass.\n"
                       "FAIL int-1000: out: 12 of 1000 values are wrong; the first at [17]: "
                       "expected 40, got -3\n"
                       "FAIL int-2000: out: 30 of 2000 values are wrong; the first at [5]: "
                       "expected 1.5e+03, got 0.25\n",
                       {kRace, {"shared_race", "scan.cu", 52, "tile[t] = in[i];"}}),
               true, "PASS hidden-1: ok\n"));
  t.add("ben", "scan",
        graded(test_of(kPublic, false,
                       "FAIL tiny: out: 1 of 4 values are wrong; the first at [3]: expected 7, "
                       "got 9\n"),
               false, "FAIL hidden-big: the run timed out after 2.5 s\n"));
  t.add("cat", "scan",
        graded(test_of(kPublic, false,
                       "FAIL odd-13x7: out: 2 of 91 values are wrong; the first at [0]: "
                       "expected -0.5, got 0x7f\n"),
               false, "FAIL hidden-odd-45x23: the run timed out after 10 s\n"));
  t.add("dan", "scan",
        graded(test_of(kPublic, true, "3 of 3 public datasets passed."), true,
               "PASS hidden-1: ok\n", {{"shared_race", "scan.cu", 77, "tile[t] = in[i];"}}));
  Report eve;
  eve.outcome = SubmissionOutcome::kNotBuilt;
  eve.tests = {test_of("scan: does not build", false,
                       "Your code did not build, so every part scores zero.\n"
                       "compiling scan.cu failed (the compiler exited with status 1):\n"
                       "/home/eve/scan.cu:5:12: error: expected ';' at end of declaration\n")};
  t.add("eve", "scan", eve);
  Report fay;
  fay.grader_error = "gpulab grade was killed by signal 9";
  fay.tests = {test_of(kPublic, false, "FAIL tiny: counted nowhere")};
  t.add("fay", "scan", fay);
  t.add("gus", "scan", graded(test_of(kPublic, true, ""), true, ""));
  return t;
}

const gpulab::TestFailures* find_test(const gpulab::LabFindings& v, const std::string& name) {
  for (const auto& t : v.tests)
    if (t.test == name) return &t;
  return nullptr;
}

std::vector<std::vector<std::string>> rows_of(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  for (auto& r : gpulab::parse_csv(csv)) rows.push_back(std::move(r.fields));
  return rows;
}

}  // namespace

TEST_CASE("a message groups with those that differ only in numbers") {
  using gpulab::message_pattern;
  struct Case {
    const char* message;
    const char* pattern;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"12 of 1000 values are wrong; the first at [17]: expected 40, got -3",
            "# of # values are wrong; the first at [#]: expected #, got #"},
           {"expected 1.5e+03, got -0.25 (4.97e+04 times the bound).",
            "expected #, got # (# times the bound)."},
           {"dataset odd-13x7x5 at 0x7ffd12ab", "dataset odd-#x#x# at #"},  // "-" in a name stays
           {"  two\t spaces  ", "two spaces"},
           {"float32 [-1] .5", "float# [#] #"},
       }) {
    CAPTURE(c.message);
    CHECK(message_pattern(c.message) == c.pattern);
  }
}

TEST_CASE("a failed test's message: its first failed dataset, hidden details, compiler error") {
  const ClassTable t = sample_class();
  const Report* ann = t.find("ann", "scan");
  CHECK(gpulab::failure_message(*ann, ann->tests[0]) ==
        "out: 12 of 1000 values are wrong; the first at [17]: expected 40, got -3");
  const Report* ben = t.find("ben", "scan");  // the visible hidden test says no more than a count
  CHECK(gpulab::failure_message(*ben, ben->tests[1]) == "the run timed out after 2.5 s");
  const Report* eve = t.find("eve", "scan");
  CHECK(gpulab::failure_message(*eve, eve->tests[0]) ==
        "error: expected ';' at end of declaration");
}

TEST_CASE("a dataset failed by a finding: the finding is the message, not the outputs' check") {
  const std::string sim =
      "gpulab sim, error: a read of tile[33] while another thread writes it (at scan.cu:41, "
      "7 times)";
  const std::string tool =
      "compute-sanitizer memcheck, error: out-of-bounds read at scan.cu:83 in load_items";
  const auto message = [](const std::string& output) {
    Report r;
    r.tests = {test_of(kPublic, false, output)};
    return gpulab::failure_message(r, r.tests[0]);
  };
  // Right outputs, failed by what the CPU backend or compute-sanitizer found.
  CHECK(message("PASS a: all 1 values exact\nFAIL b: all 31 values exact\nThe outputs are right, "
                "but the CPU backend found a bug that can give wrong results on a GPU:\n  " +
                sim + "\nFAIL c: all 32 values exact\n") == sim);
  CHECK(message("FAIL b: all 31 values exact\nThe outputs are right, but compute-sanitizer found "
                "a bug that can give wrong results:\n  compute-sanitizer racecheck, warning: "
                "a hazard\n  " +
                tool + "\n") == tool);
  // Wrong outputs with a finding: the finding, the likelier cause.
  CHECK(message("FAIL b: out: 3 of 31 values are wrong\n  " + sim + "\n") == sim);
  // A warning is no cause, nor is the next dataset's finding.
  CHECK(message("FAIL b: out: 3 of 31 values are wrong\n  gpulab sim, warning: a divergent "
                "barrier\nFAIL c: all 2 values exact\n  " +
                sim + "\n") == "out: 3 of 31 values are wrong");
  // As a message group: the same cause on other lines and counts groups as one.
  CHECK(gpulab::message_pattern(message("FAIL b: x\n  " + sim)) ==
        "gpulab sim, error: a read of tile[#] while another thread writes it (at scan.cu:#, # "
        "times)");
}

TEST_CASE("each test's failures are counted in students, messages grouped, one kept verbatim") {
  const gpulab::LabFindings v = gpulab::lab_findings(sample_class(), "scan");
  CHECK(v.lab == "scan");
  CHECK(v.graded == 5);  // ann, ben, cat, dan, gus: eve did not build, fay has no score
  // The class table's columns first, then the placeholder of a submission that did not build.
  REQUIRE(v.tests.size() == 3);
  CHECK(v.tests[0].test == kPublic);
  CHECK(v.tests[1].test == kHidden);
  CHECK(v.tests[2].test == "scan: does not build");

  const auto* pub = find_test(v, kPublic);
  REQUIRE(pub);
  CHECK(pub->failed == 3);  // ann (two datasets, one student), ben, cat; not fay
  CHECK(pub->of == 5);
  REQUIRE(pub->messages.size() == 1);  // one misconception, whatever the numbers
  CHECK(pub->messages[0].students == 3);
  CHECK(pub->messages[0].pattern ==
        "out: # of # values are wrong; the first at [#]: expected #, got #");
  CHECK(pub->messages[0].example ==
        "out: 12 of 1000 values are wrong; the first at [17]: expected 40, got -3");  // ann's

  const auto* hidden = find_test(v, kHidden);
  REQUIRE(hidden);
  CHECK(hidden->failed == 2);
  REQUIRE(hidden->messages.size() == 1);
  CHECK(hidden->messages[0].example == "the run timed out after 2.5 s");
  CHECK(v.tests[2].failed == 1);
  CHECK(v.tests[2].of == 1);

  // The race: ann's two lines (one student) and dan's line of the same code, whitespace aside.
  REQUIRE(v.findings.size() == 1);
  CHECK(v.findings[0].kind == "shared_race");
  CHECK(v.findings[0].part == "scan");
  CHECK(v.findings[0].key == "tile[t] = in[i];");
  CHECK(v.findings[0].where == "scan.cu:41");
  CHECK(v.findings[0].students == 2);
}

TEST_CASE("findings of the harness group by file and line; most students first") {
  ClassTable t({"scan"});
  const SimFindingSite harness = {"out_of_bounds", "harness/device_buffer.h", 18, ""};
  const SimFindingSite mine = {"deadlock", "scan.cu", 9, "__syncthreads();"};
  t.add("a", "scan", graded(test_of(kPublic, false, "FAIL x: y", {mine}), true, ""));
  t.add("b", "scan", graded(test_of(kPublic, false, "FAIL x: y", {harness}), true, ""));
  t.add("c", "scan", graded(test_of(kPublic, false, "FAIL x: y", {harness}), true, ""));
  const auto v = gpulab::lab_findings(t, "scan");
  REQUIRE(v.findings.size() == 2);
  CHECK(v.findings[0].key == "harness/device_buffer.h:18");
  CHECK(v.findings[0].students == 2);
  CHECK(v.findings[0].source.empty());
  CHECK(v.findings[1].kind == "deadlock");
  CHECK(v.findings[1].students == 1);
}

TEST_CASE("class-findings.csv: a row per test, message group and finding") {
  const auto rows = rows_of(gpulab::class_findings_csv(sample_class()));
  REQUIRE(rows.size() == 1 + 3 + 3 + 1);  // header; 3 tests with a message group each; a finding
  CHECK(rows[0] == std::vector<std::string>{"lab", "test", "row", "students", "of", "kind", "where",
                                            "group", "example"});
  CHECK(rows[1] == std::vector<std::string>{"scan", kPublic, "failed", "3", "5", "", "", "", ""});
  CHECK(rows[2][2] == "message");
  CHECK(rows[2][3] == "3");
  CHECK(rows[2][4] == "3");
  CHECK(rows[2][8] == "out: 12 of 1000 values are wrong; the first at [17]: expected 40, got -3");
  CHECK(rows.back() == std::vector<std::string>{"scan", "scan", "finding", "2", "5", "shared_race",
                                                "scan.cu:41", "tile[t] = in[i];",
                                                "tile[t]  =  in[i];"});
}

TEST_CASE("class.html's view: failures, messages and findings of each lab") {
  const std::string html = gpulab::class_html(sample_class(), "class");
  CHECK(test::contains(html, "<h3>What the class got wrong</h3>"));
  CHECK(test::contains(html, "<td class=\"num\">3 of 5</td>"));  // the public group
  CHECK(test::contains(
      html,
      "<li>3: <code>out: 12 of 1000 values are wrong; the first at [17]: expected 40, "
      "got -3</code></li>"));
  CHECK(test::contains(html,
                       "<td>shared_race</td><td>scan</td><td>scan.cu:41: "
                       "<code>tile[t]  =  in[i];</code></td><td class=\"num\">2 of 5</td>"));
  // A lab where nobody failed says so.
  ClassTable clean({"scan"});
  clean.add("gus", "scan", graded(test_of(kPublic, true, ""), true, ""));
  CHECK(test::contains(gpulab::class_html(clean, "class"), "No student with a score failed"));
}

TEST_CASE("attack: a student's message and code with HTML and a spreadsheet formula") {
  const std::string script = "<script>alert(1)</script>";
  const std::string formula = "=HYPERLINK(\"http://evil.example\",\"x\")";
  ClassTable t({"scan"});
  // The message is the student's (their runner's words); so is their line of code.
  t.add("mal", "scan",
        graded(test_of(kPublic, false, "FAIL tiny: " + formula + "\n",
                       {{"shared_race\"><img src=x>", "scan.cu", 3, script}}),
               true, ""));
  t.add("tom", "scan", graded(test_of(kPublic, false, "FAIL tiny: " + script + "\n"), true, ""));

  const std::string html = gpulab::class_html(t, "class");
  CHECK_FALSE(test::contains(html, "<script>"));
  CHECK_FALSE(test::contains(html, "<img"));
  CHECK(test::contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));

  const std::string csv = gpulab::class_findings_csv(t);
  CHECK_FALSE(test::contains(csv, "," + formula));  // no cell starts with "="
  CHECK_FALSE(test::contains(csv, ",\"" + std::string("=")));
  bool formula_kept_as_text = false;
  for (const auto& row : rows_of(csv))
    for (const auto& cell : row) {
      CHECK(cell.rfind("=", 0) != 0);
      formula_kept_as_text = formula_kept_as_text || cell == "'" + formula;
    }
  CHECK(formula_kept_as_text);
}
