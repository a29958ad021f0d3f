// grader/grade/writeup.h: the write-up a submission holds, kept beside the report, and the report's
// test about it, 0 of 0: passed where a written one was kept, otherwise a note saying what to do;
// as the platforms' formats show it.
#include "grade/writeup.h"

#include <doctest/doctest.h>

#include <sstream>

#include "files/content_hash.h"
#include "grade/writeup_template.h"
#include "report/report_formats.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::Intake;
using gpulab::LabConfig;
using gpulab::Test;
using nlohmann::json;
using test::contains;

// A lab whose folder holds the write-up's template, `template_text`.
struct Lab {
  test::TempDir dir;
  LabConfig config;

  explicit Lab(const std::string& template_text) {
    json j =
        json::parse(test::read_file(test::source_dir() / "labs" / "scatter-gather" / "lab.json"));
    j["writeup"] = {{"file", "REPORT.md"}, {"points", 11}};
    const fs::path file = dir / "labs" / "scatter-gather" / "lab.json";
    test::write_file(file, j.dump());
    test::write_file(file.parent_path() / "REPORT.md", template_text);
    config = LabConfig::load(file);
  }
};

const std::string kTemplate = "# Lab 1: write-up\n\nName:\n";

gpulab::IntakeSpec spec() {
  return {{"dcs.cu"}, {}, "REPORT.md"};
}

Intake accepted_with(std::optional<std::string> text, bool found = true) {
  Intake in;
  in.accepted = true;
  in.writeup.found = found;
  if (text) in.writeup.bytes = text->size();
  in.writeup.text = std::move(text);
  return in;
}

struct Kept {
  Test test;
  std::string log;
};

Kept keep(const Lab& lab, const Intake& in, const fs::path& report) {
  std::ostringstream log;
  Test t = gpulab::keep_writeup(lab.config, spec(), in, report, log);
  return {std::move(t), log.str()};
}

}  // namespace

TEST_CASE("the write-up is kept beside the report, named after the report's name") {
  CHECK(gpulab::writeup_copy("/r/results.json", "REPORT.md") == "/r/results.REPORT.md");
  CHECK(gpulab::writeup_copy("/g/alice/report.json.partial", "REPORT.md") ==
        "/g/alice/report.REPORT.md");
  CHECK(gpulab::writeup_copy("out", "REPORT.md") == "out.REPORT.md");
  CHECK(gpulab::writeup_copy(".hidden", "W.md") == ".hidden.W.md");
}

TEST_CASE("a written write-up is kept, and its test passes, worth nothing") {
  const Lab lab(kTemplate);
  const fs::path report = lab.dir / "out" / "results.json";
  const std::string text = "# Lab 1: write-up\n\nName: Ada\n\n| part | ms |\n|---|---:|\n";
  const Kept k = keep(lab, accepted_with(text), report);
  CHECK(test::read_file(lab.dir / "out" / "results.REPORT.md") == text);
  CHECK(k.test.name == "write-up (graded by your instructor)");
  CHECK(k.test.passed);
  CHECK_FALSE(k.test.info);
  CHECK(k.test.max_score == 0);
  CHECK(k.test.score == 0);
  CHECK(contains(k.test.output, "REPORT.md (" + std::to_string(text.size()) + " bytes)"));
  CHECK(contains(k.test.output, "11 points"));
  CHECK(k.test.extra["kept_as"] == "results.REPORT.md");
  CHECK(k.test.extra["bytes"] == text.size());
  CHECK(contains(k.log, "kept as " + (lab.dir / "out" / "results.REPORT.md").string()));
  // Nothing of its text reaches the report.
  CHECK_FALSE(contains(k.test.output + k.test.extra.dump(), "Ada"));
}

TEST_CASE("the template unchanged, or an empty file, is kept but only noted") {
  const Lab lab(kTemplate);
  const fs::path report = lab.dir / "results.json";
  for (const std::string& text : {kTemplate, std::string()}) {
    CAPTURE(text);
    const Kept k = keep(lab, accepted_with(text), report);
    CHECK(fs::exists(lab.dir / "results.REPORT.md"));
    CHECK(k.test.info);
    CHECK_FALSE(k.test.passed);
    CHECK(contains(k.test.output, text.empty() ? "is empty" : "template, unchanged"));
    CHECK(contains(k.test.output, "fill in labs/scatter-gather/REPORT.md"));
  }
}

// The student kit: the lab's folder holds the student's own copy of the template, which they
// fill in and grade as it is (gpulab grade scan --submission labs/scan); the kit's record of the
// pristine template says what "unchanged" means.
TEST_CASE("in the student kit the template is the recorded one, not the lab folder's own file") {
  const Lab lab(kTemplate);
  const fs::path record = lab.dir / gpulab::kWriteupTemplateRecord;
  test::write_file(record, gpulab::writeup_template_record({lab.config}));
  CHECK(nlohmann::json::parse(
            test::read_file(record))["templates"]["labs/scatter-gather/REPORT.md"] ==
        gpulab::content_hash_of_bytes(kTemplate));
  // The student fills in the kit's copy and hands in that very folder.
  const std::string filled = kTemplate + "Ada\n\n| part | ms |\n|---|---:|\n";
  test::write_file(lab.config.dir / "REPORT.md", filled);
  const Kept written = keep(lab, accepted_with(filled), lab.dir / "results.json");
  CHECK(written.test.passed);
  CHECK_FALSE(written.test.info);
  CHECK_FALSE(contains(written.test.output, "unchanged"));
  const Kept pristine = keep(lab, accepted_with(kTemplate), lab.dir / "results.json");
  CHECK(pristine.test.info);
  CHECK(contains(pristine.test.output, "template, unchanged"));

  // A record that cannot be read is said, and the lab's own file compared with, as outside a kit.
  test::write_file(record, "{\"templates\": [");
  const Kept unread = keep(lab, accepted_with(filled), lab.dir / "results.json");
  CHECK(contains(unread.test.output, "template, unchanged"));
  CHECK(contains(unread.log, gpulab::kWriteupTemplateRecord + std::string(" could not be read")));
  test::write_file(record, "{\"templates\": {}}");
  CHECK(contains(keep(lab, accepted_with(filled), lab.dir / "results.json").log,
                 "names no template labs/scatter-gather/REPORT.md"));
}

TEST_CASE("the record of the templates: each lab's write-up template, a missing one refused") {
  const Lab lab(kTemplate);
  const std::string text = "the same bytes, from a file or from memory\n";
  test::write_file(lab.dir / "bytes", text);
  CHECK(gpulab::content_hash_of_bytes(text) == gpulab::content_hash(lab.dir / "bytes"));
  CHECK(gpulab::content_hash_of_bytes(text) != gpulab::content_hash_of_bytes(text + " "));
  LabConfig none = lab.config;
  none.writeup.reset();
  CHECK(nlohmann::json::parse(gpulab::writeup_template_record({none}))["templates"].empty());
  fs::remove(lab.config.dir / "REPORT.md");
  CHECK_THROWS_WITH_AS(gpulab::writeup_template_record({lab.config}),
                       doctest::Contains("REPORT.md, which"), std::runtime_error);
}

TEST_CASE("no write-up: a note, and an earlier grading's copy is not left beside the report") {
  const Lab lab(kTemplate);
  const fs::path report = lab.dir / "results.json";
  test::write_file(lab.dir / "results.REPORT.md", "another submission's write-up");
  Intake in = accepted_with(std::nullopt, false);
  in.ignored = {"report.md"};
  const Kept k = keep(lab, in, report);
  CHECK_FALSE(fs::exists(lab.dir / "results.REPORT.md"));
  CHECK(k.test.info);
  CHECK(k.test.max_score == 0);
  CHECK(contains(k.test.output, "No REPORT.md was found beside dcs.cu"));
  CHECK(contains(k.test.output, "\"report.md\" is there"));
  CHECK(contains(k.test.output, "11 points, graded by your instructor"));
  CHECK(contains(k.log, "write-up: No REPORT.md was found"));
  CHECK(k.test.extra["found"] == false);

  Intake lone = accepted_with(std::nullopt, false);
  lone.writeup.lone_file = true;
  CHECK(contains(keep(lab, lone, report).test.output, "one file, dcs.cu, so it holds no write-up"));
  Intake refused;
  CHECK(contains(keep(lab, refused, report).test.output, "not accepted"));
}

TEST_CASE("a write-up the intake would not keep is named with the reason, and not kept") {
  const Lab lab(kTemplate);
  Intake in = accepted_with(std::nullopt);
  in.writeup.bytes = 300 * 1024;
  in.writeup.problem = "\"REPORT.md\" is larger than 256 KiB, the limit for a write-up";
  const Kept k = keep(lab, in, lab.dir / "results.json");
  CHECK_FALSE(fs::exists(lab.dir / "results.REPORT.md"));
  CHECK(k.test.info);
  CHECK(contains(k.test.output, "REPORT.md (300.0 KiB) was not kept: \"REPORT.md\" is larger"));
  CHECK(contains(k.log, "was not kept"));
}

TEST_CASE("the write-up's test on Gradescope and PrairieLearn: a test of 0, or a note") {
  const Lab lab(kTemplate);
  const fs::path report = lab.dir / "results.json";
  Test code;
  code.name = "gather: correctness on the public datasets";
  code.score = code.max_score = 10;
  code.passed = true;
  gpulab::Report r;
  r.tests = {code, keep(lab, accepted_with("my answers"), report).test};
  const json gs = gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
  REQUIRE(gs["tests"].size() == 2);
  CHECK(gs["score"] == 10);
  CHECK(gs["tests"][1]["name"] == "write-up (graded by your instructor)");
  CHECK(gs["tests"][1]["max_score"] == 0);
  CHECK(gs["tests"][1]["status"] == "passed");
  CHECK(gs["tests"][1]["extra_data"]["kept_as"] == "results.REPORT.md");
  const json pl = gpulab::report_json(r, gpulab::ReportFormat::kPrairieLearn);
  REQUIRE(pl["tests"].size() == 2);
  CHECK(pl["score"] == 1.0);
  CHECK(pl["tests"][1]["max_points"] == 0);
  CHECK(pl["tests"][1]["message"].get<std::string>().find('\n') == std::string::npos);

  // Missing: no failed test anywhere, a line of the output instead.
  r.tests = {code, keep(lab, accepted_with(std::nullopt, false), report).test};
  const json gs_missing = gpulab::report_json(r, gpulab::ReportFormat::kGradescope);
  CHECK(gs_missing["tests"].size() == 1);
  CHECK(contains(gs_missing["output"].get<std::string>(), "No REPORT\\.md was found"));
  const json pl_missing = gpulab::report_json(r, gpulab::ReportFormat::kPrairieLearn);
  CHECK(pl_missing["tests"].size() == 1);
  CHECK(contains(pl_missing["output"].get<std::string>(), "write-up (graded by your instructor)"));
}
