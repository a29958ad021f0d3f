#include "core/grade_scope.h"

#include <algorithm>

namespace gpulab {

bool GradeScope::part_selected(const std::string& part) const {
  return parts.empty() || std::find(parts.begin(), parts.end(), part) != parts.end();
}

bool GradeScope::wanted(const DatasetSpec& ds, const std::string& part) const {
  return ds.applies_to(part) && (dataset.empty() || dataset == ds.name);
}

bool GradeScope::group_runs(const GroupSpec& g) const {
  return !g.timing && g.on_backend(backend) && (include_hidden || !g.hidden);
}

bool GradeScope::group_off_backend(const GroupSpec& g, const PartRubric& rubric) const {
  return !g.timing && !g.on_backend(backend) && rubric.group_points.count(g.name) &&
         (include_hidden || !g.hidden);
}

std::vector<const DatasetSpec*> GradeScope::datasets(const GroupSpec& g,
                                                     const std::string& part) const {
  std::vector<const DatasetSpec*> sets;
  for (const auto& ds : g.datasets)
    if (wanted(ds, part)) sets.push_back(&ds);
  return sets;
}

std::vector<std::string> dataset_names(const LabConfig& lab, const GradeScope& scope) {
  std::vector<std::string> names;
  for (const auto& g : lab.groups) {
    if (!g.on_backend(scope.backend) || (g.hidden && !scope.include_hidden)) continue;
    for (const auto& ds : g.datasets)
      for (const auto& part : lab.parts)
        if (scope.part_selected(part.name) && ds.applies_to(part.name) &&
            std::find(names.begin(), names.end(), ds.name) == names.end())
          names.push_back(ds.name);
  }
  return names;
}

size_t correctness_runs(const LabConfig& lab, const GradeScope& scope) {
  size_t n = 0;
  for (const auto& part : lab.parts) {
    if (!scope.part_selected(part.name) || (part.gpu && !scope.gpu_parts_run)) continue;
    for (const auto& g : lab.groups)
      if (scope.group_runs(g)) n += scope.datasets(g, part.name).size();
  }
  return n;
}

const DatasetSpec* called_twice_on(const LabConfig& lab, const PartSpec& part,
                                   const GradeScope& scope) {
  for (const auto& g : lab.groups) {
    if (g.timing || g.hidden || !g.on_backend(scope.backend)) continue;
    const std::vector<const DatasetSpec*> sets = scope.datasets(g, part.name);
    if (!sets.empty()) return sets[std::min<size_t>(1, sets.size() - 1)];
  }
  return nullptr;
}

std::pair<const GroupSpec*, const DatasetSpec*> performance_dataset(const LabConfig& lab,
                                                                    const PartSpec& part,
                                                                    const GradeScope& scope) {
  std::pair<const GroupSpec*, const DatasetSpec*> first{nullptr, nullptr};
  for (const auto& g : lab.groups) {
    if (!g.timing || !g.on_backend(scope.backend)) continue;
    for (const auto& ds : g.datasets) {
      if (!scope.wanted(ds, part.name)) continue;
      if (!first.second) first = {&g, &ds};
      if (ds.name != lab.rubric.at(part.name).scalability.small) return {&g, &ds};
    }
  }
  return first;
}

}  // namespace gpulab
