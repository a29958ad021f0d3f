// Which groups gpulab datasets writes (datasets_command.h): the public ones by default, the
// timing and hidden groups said to be left out with the command that writes them.
#include "cli/datasets_command.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "test_util.h"

namespace {

gpulab::LabConfig scan_lab() {
  return gpulab::LabConfig::load(test::source_dir() / "labs" / "scan" / "lab.json");
}

std::vector<std::string> names(const gpulab::DatasetGroupChoice& c) {
  std::vector<std::string> out;
  for (const auto* g : c.write) out.push_back(g->name);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace

TEST_CASE("by default only public groups that are not for timing are written") {
  const gpulab::LabConfig lab = scan_lab();
  const auto c = gpulab::choose_dataset_groups(lab, "", false);
  REQUIRE(!c.write.empty());
  for (const auto* g : c.write) {
    CHECK_FALSE(g->hidden);
    CHECK_FALSE(g->timing);
  }
  const std::string left = joined(c.left_out);
  CHECK(test::contains(left, "gpulab datasets scan --group timing --out DIR"));
  CHECK(test::contains(left, "the hidden group"));
  CHECK(c.write.size() + c.left_out.size() == lab.groups.size());
}

TEST_CASE("with the seed the hidden groups are written too, the timing group still left out") {
  const gpulab::LabConfig lab = scan_lab();  // the choice points into it
  const auto c = gpulab::choose_dataset_groups(lab, "", true);
  const auto written = names(c);
  CHECK(std::find(written.begin(), written.end(), "hidden") != written.end());
  CHECK(std::find(written.begin(), written.end(), "timing") == written.end());
  REQUIRE(c.left_out.size() == 1);
  CHECK(test::contains(c.left_out[0], "--group timing"));
}

TEST_CASE("--group picks one group, timing included; a wrong or hidden one is refused") {
  const gpulab::LabConfig lab = scan_lab();
  const auto timing = gpulab::choose_dataset_groups(lab, "timing", false);
  CHECK(names(timing) == std::vector<std::string>{"timing"});
  CHECK(timing.left_out.empty());
  CHECK_THROWS_WITH(gpulab::choose_dataset_groups(lab, "timng", false),
                    doctest::Contains("did you mean \"timing\"?"));
  CHECK_THROWS_WITH(gpulab::choose_dataset_groups(lab, "hidden", false),
                    doctest::Contains("--hidden-seed S"));
  CHECK(names(gpulab::choose_dataset_groups(lab, "hidden", true)) ==
        std::vector<std::string>{"hidden"});
}
