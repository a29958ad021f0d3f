// grader/class/roster_csv.h: the roster CSV's columns, its matching rule (folder, else id), and an
// error naming the file, the row and the column for each way a spreadsheet goes wrong.
#include "class/roster_csv.h"

#include <doctest/doctest.h>

#include "test_util.h"
#include "text/csv_text.h"

namespace {

using gpulab::parse_roster_csv;

std::string error_of(const std::string& text) {
  try {
    parse_roster_csv(text, "class.csv");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("roster CSV: columns by name in any order and case, a folder column or the id") {
  // A byte order mark, CRLF, a quoted comma, a column gpulab does not read, a blank line.
  const auto people = parse_roster_csv(
      "\xEF\xBB\xBF"
      "Email,Name,ID,Folder,Notes\r\n"
      "ada@uni.example,\"Lovelace, Ada\", s001 ,ada,x\r\n"
      "\r\n"
      "bob@uni.example,Bob,s002,,y\r\n",
      "class.csv");
  REQUIRE(people.size() == 2);
  CHECK(people[0].id == "s001");  // trimmed
  CHECK(people[0].name == "Lovelace, Ada");
  CHECK(people[0].email == "ada@uni.example");
  CHECK(people[0].folder == "ada");
  CHECK(people[1].folder == "s002");  // no folder given: the id names the roster entry
  CHECK(people[1].section.empty());
}

TEST_CASE("roster CSV: each mistake named with the file, row and column") {
  const std::pair<const char*, std::vector<const char*>> cases[] = {
      {"", {"class.csv", "empty", "header"}},
      {"name,email\nAda,a@x\n", {"class.csv", "row 1", "no column \"id\""}},
      {"id,id\ns1,s1\n", {"row 1", "\"id\" appears twice"}},
      {"id,name\ns1,Ada\n,Bob\n", {"class.csv", "row 3", "column \"id\"", "empty"}},
      {"id,name\ns1,Ada\ns1,Bob\n", {"row 3", "column \"id\"", "\"s1\"", "row 2"}},
      {"id,folder\ns1,ada\ns2,ada\n", {"row 3", "column \"folder\"", "\"ada\"", "row 2"}},
      {"id,folder\nada,\ns2,ada\n", {"row 3", "column \"folder\"", "row 2"}},
      {"id,name\ns1,Lovelace, Ada\n", {"row 2", "3 fields", "header has 2", "quoted"}},
      {"id,name\ns1,\"Ada\n", {"class.csv", "line 2", "never closed"}},
      {"id,name\ns1,Ada \"the\" L\n", {"line 2", "quote inside a field"}},
  };
  for (const auto& [text, words] : cases) {
    const std::string e = error_of(text);
    INFO(text << " -> " << e);
    for (const char* w : words) CHECK(test::contains(e, w));
  }
}

TEST_CASE("read_roster_csv names a file it cannot read") {
  test::TempDir dir;
  try {
    gpulab::read_roster_csv(dir / "nope.csv");
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(test::contains(e.what(), "nope.csv"));
    CHECK(test::contains(e.what(), "cannot be read"));
  }
}

TEST_CASE("csv_row quotes what needs it, and parse_csv reads it back") {
  const std::vector<std::string> fields = {"plain", "a, b", "say \"hi\"", "two\nlines", ""};
  const std::string row = gpulab::csv_row(fields);
  CHECK(row == "plain,\"a, b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n");
  const auto back = gpulab::parse_csv(row + row);
  REQUIRE(back.size() == 2);
  CHECK(back[0].fields == fields);
  CHECK(back[1].line == 3);  // the first record spans lines 1 and 2
}

// A student named "=HYPERLINK(...)" (a folder, a platform's roster) reaches an instructor's
// spreadsheet as text, never as a formula; numbers stay numbers.
TEST_CASE("csv_row writes what a spreadsheet would run as a formula as text") {
  const std::string row = gpulab::csv_row(
      {"=HYPERLINK(\"x\",\"y\")", "+1+2", "-cmd", "@SUM(A1)", "\tx", "-1.5", "7", "a=b"});
  CHECK(row == "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",'+1+2,'-cmd,'@SUM(A1),'\tx,-1.5,7,a=b\r\n");
}
