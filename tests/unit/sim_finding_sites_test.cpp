// grader/core/sim_finding_sites.h: the CPU backend's findings as places in the student's code, each
// once, with the line of code read from the submission, and never from anywhere else: the
// findings are the graded program's to forge.
#include "core/sim_finding_sites.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json finding(const std::string& kind, const std::string& file, json line) {
  return {{"kind", kind}, {"file", file}, {"line", line}, {"message", "m"}, {"count", 1}};
}

}  // namespace

TEST_CASE("a finding's place: the file as the student knows it, and their line of code") {
  test::TempDir dir;
  const auto sub = dir / "work" / "submission", harness = dir / "source";
  fs::create_directories(sub / "src");
  fs::create_directories(harness / "harness");
  test::write_file(sub / "scan.cu", "int a;\n\t  tile[t] = in[i];   \r\nint c;\n");
  test::write_file(sub / "src" / "k.cu", "x\n");
  const std::vector<std::string> strip = {sub.string() + "/", harness.string() + "/"};
  std::vector<gpulab::SimFindingSite> sites;
  gpulab::add_sim_finding_sites(
      sites,
      {finding("shared_race", (sub / "scan.cu").string(), 2),
       finding("shared_race", (sub / "scan.cu").string(), 2),  // sent again: one place
       finding("out_of_bounds", (harness / "harness" / "device_buffer.h").string(), 18),
       finding("deadlock", (sub / "src" / "k.cu").string(), 1),
       finding("deadlock", (sub / "scan.cu").string(), 9)},  // past the end: no line
      sub, strip);
  REQUIRE(sites.size() == 4);
  CHECK(sites[0].kind == "shared_race");
  CHECK(sites[0].file == "scan.cu");
  CHECK(sites[0].line == 2);
  CHECK(sites[0].source == "tile[t] = in[i];");
  CHECK(sites[1].file == "harness/device_buffer.h");  // the harness's: not the student's line
  CHECK(sites[1].source.empty());
  CHECK(sites[2].file == "src/k.cu");
  CHECK(sites[2].source == "x");
  CHECK(sites[3].source.empty());
}

TEST_CASE("attack: forged findings read no file outside the submission and stay few") {
  test::TempDir dir;
  const auto sub = dir / "submission";
  fs::create_directories(sub / "inner");
  test::write_file(dir / "secret.txt", "the hidden seed\n");
  fs::create_symlink(dir / "secret.txt", sub / "link.cu");
  fs::create_directory_symlink(dir.path(), sub / "up");
  const std::vector<std::string> strip = {sub.string() + "/"};
  std::vector<gpulab::SimFindingSite> sites;
  gpulab::add_sim_finding_sites(
      sites,
      {finding("out_of_bounds", sub.string() + "/../secret.txt", 1),
       finding("out_of_bounds", sub.string() + "/inner/../../secret.txt", 1),
       finding("out_of_bounds", sub.string() + "/link.cu", 1),
       finding("out_of_bounds", sub.string() + "/up/secret.txt", 1),
       finding("out_of_bounds", (dir / "secret.txt").string(), 1),
       finding("out_of_bounds", sub.string() + "/", 1),
       json{{"kind", 7}, {"file", json::array()}, {"line", -3}}, json("not an object"),
       finding("out_of_bounds", sub.string() + "/scan.cu", json(1e12))},
      sub, strip);
  REQUIRE(sites.size() == 8);  // the non-object is no finding
  for (const auto& s : sites) {
    CAPTURE(s.file);
    CHECK(s.source.empty());
    CHECK(s.line >= 0);
  }
  CHECK(sites[6].kind.empty());  // a kind that is no string
  CHECK(sites[6].line == 0);
  CHECK(sites[7].line == 0);  // a line no file has

  // Thousands of distinct forged places keep a few dozen.
  std::vector<json> many;
  for (int i = 1; i <= 5000; ++i) many.push_back(finding("deadlock", "x.cu", i));
  std::vector<gpulab::SimFindingSite> capped;
  gpulab::add_sim_finding_sites(capped, many, sub, strip);
  CHECK(capped.size() < 100);
  CHECK(capped.size() >= 10);
}
