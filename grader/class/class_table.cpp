#include "class/class_table.h"

#include <algorithm>

#include "text/number_text.h"

namespace gpulab {

namespace {

// A test that is a column: worth points, not a line of information.
bool counts(const Test& t) {
  return !t.info && t.max_score > 0;
}

// A report that gives points: one with a score, of something. A maximum of 0 graded nothing
// worth points (no part that carries points ran), which no gradebook may read as a zero.
bool gives_points(const Report& r) {
  return r.scored() && r.max_score() > 0;
}

void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

}  // namespace

std::string part_of(const Test& test) {
  if (!test.tags.empty()) return test.tags.front();
  return test.name.substr(0, test.name.find(": "));
}

void ClassTable::add_student(RosterPerson person) {
  const std::string folder = person.folder;
  people_[folder] = std::move(person);
}

void ClassTable::add(const std::string& folder, const std::string& lab, Report report) {
  reports_[{folder, lab}] = std::move(report);
}

std::vector<std::string> ClassTable::students() const {
  std::vector<std::string> s;
  for (const auto& [folder, person] : people_) s.push_back(folder);
  for (const auto& [key, report] : reports_) s.push_back(key.first);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

RosterPerson ClassTable::person(const std::string& folder) const {
  const auto it = people_.find(folder);
  if (it != people_.end()) return it->second;
  RosterPerson p;
  p.folder = folder;
  return p;
}

const Report* ClassTable::find(const std::string& folder, const std::string& lab) const {
  const auto it = reports_.find({folder, lab});
  return it == reports_.end() ? nullptr : &it->second;
}

std::vector<std::string> ClassTable::parts(const std::string& lab) const {
  std::vector<std::string> names;
  for (const auto& [key, r] : reports_)
    if (key.second == lab && r.scored())
      for (const auto& t : r.tests)
        if (counts(t)) add_once(names, part_of(t));
  return names;
}

std::vector<std::string> ClassTable::test_names(const std::string& lab,
                                                const std::string& part) const {
  std::vector<std::string> names;
  for (const auto& [key, r] : reports_)
    if (key.second == lab && r.graded())
      for (const auto& t : r.tests)
        if (counts(t) && part_of(t) == part) add_once(names, t.name);
  return names;
}

double ClassTable::test_max(const std::string& lab, const std::string& test) const {
  double max = 0;
  for (const auto& [key, r] : reports_)
    if (key.second == lab && r.scored())
      for (const auto& t : r.tests)
        if (t.name == test) max = std::max(max, t.max_score);
  return max;
}

double ClassTable::part_max(const std::string& lab, const std::string& part) const {
  double max = 0;
  for (const auto& [key, r] : reports_) {
    if (key.second != lab || !r.scored()) continue;
    double sum = 0;
    for (const auto& t : r.tests)
      if (counts(t) && part_of(t) == part) sum += t.max_score;
    max = std::max(max, sum);
  }
  return max;
}

double ClassTable::lab_max(const std::string& lab) const {
  double max = 0;
  for (const auto& [key, r] : reports_)
    if (key.second == lab && r.scored()) max = std::max(max, r.max_score());
  return max;
}

LabResult ClassTable::result(const std::string& folder, const std::string& lab) const {
  const Report* r = find(folder, lab);
  if (!r) return {"missing", 0.0, lab_max(lab)};
  if (!r->scored()) return {r->stopped_by ? "stopped" : "grader failed", std::nullopt, 0};
  if (!gives_points(*r)) return {"not graded", std::nullopt, 0};
  return {outcome_name(r->outcome), r->final_score(), r->max_score()};
}

std::optional<std::pair<double, double>> ClassTable::part_points(const std::string& folder,
                                                                 const std::string& lab,
                                                                 const std::string& part) const {
  const Report* r = find(folder, lab);
  if (!r) return std::make_pair(0.0, part_max(lab, part));
  if (!gives_points(*r)) return std::nullopt;
  double score = 0, max = 0;
  for (const auto& t : r->tests)
    if (counts(t) && part_of(t) == part) {
      score += t.score;
      max += t.max_score;
    }
  return std::make_pair(score, max);
}

std::optional<double> ClassTable::test_points(const std::string& folder, const std::string& lab,
                                              const std::string& test) const {
  const Report* r = find(folder, lab);
  if (!r) return 0.0;
  if (!gives_points(*r)) return std::nullopt;
  // Not graded at all (it did not build, was not accepted): every test zero.
  if (r->outcome != SubmissionOutcome::kGraded) return 0.0;
  for (const auto& t : r->tests)
    if (t.name == test) return t.score;
  return std::nullopt;
}

std::vector<ReviewFlagSite> ClassTable::to_review(const std::string& folder,
                                                  const std::string& lab) const {
  std::vector<ReviewFlagSite> sites;
  if (const Report* r = find(folder, lab))
    for (const auto& t : r->tests)
      sites.insert(sites.end(), t.review_flags.begin(), t.review_flags.end());
  return sites;
}

std::string format_points(double points) {
  return trimmed_decimal_text(points, 2);
}

}  // namespace gpulab
