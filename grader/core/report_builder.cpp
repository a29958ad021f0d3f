#include "core/report_builder.h"

#include "core/review_flags.h"
#include "core/scoring.h"

namespace gpulab {

size_t ReportBuilder::scored(std::string name, double score, double max, bool passed,
                             std::string output, std::vector<std::string> tags) {
  Test t;
  t.name = std::move(name);
  t.score = score;
  t.max_score = max;
  t.passed = passed;
  t.output = std::move(output);
  t.tags = std::move(tags);
  return add(std::move(t));
}

size_t ReportBuilder::add(Test t) {
  report_.tests.push_back(std::move(t));
  return report_.tests.size() - 1;
}

size_t ReportBuilder::placeholder(std::string name, double max, std::string why,
                                  std::vector<std::string> tags) {
  return add(gpulab::placeholder(std::move(name), max, std::move(why), std::move(tags)));
}

size_t ReportBuilder::part_not_run(const PartSpec& part, const std::string& what, std::string why) {
  const size_t at = placeholder(part.name + ": " + what, part_max(lab_, part, scope_),
                                std::move(why), {part.name});
  // A part worth nothing here (a GPU part where no GPU grades) is information, not a failure.
  test(at).info = test(at).max_score == 0;
  return at;
}

void ReportBuilder::parts_not_run(const std::string& what, const std::string& why) {
  for (const auto& part : lab_.parts)
    if (scope_.part_selected(part.name)) part_not_run(part, what, why);
}

size_t ReportBuilder::info(std::string name, std::string output, std::vector<std::string> tags) {
  Test t = gpulab::placeholder(std::move(name), 0, std::move(output), std::move(tags));
  t.info = true;
  return add(std::move(t));
}

size_t ReportBuilder::instructors_detail(std::string name, std::string output,
                                         std::vector<std::string> tags, bool passed) {
  Test t = gpulab::placeholder(std::move(name), 0, std::move(output), std::move(tags));
  t.passed = passed;
  t.visibility = "hidden";
  t.on_hidden_datasets = true;
  return add(std::move(t));
}

void ReportBuilder::to_review(std::vector<ReviewFlagSite> sites) {
  if (sites.empty()) return;
  const size_t at = info(review_title(sites), review_text(sites), {});
  test(at).visibility = "hidden";
  test(at).review_flags = std::move(sites);
}

}  // namespace gpulab
