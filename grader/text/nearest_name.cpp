#include "text/nearest_name.h"

#include <algorithm>

namespace gpulab {

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string nearest_name(const std::string& name, const std::vector<std::string>& choices) {
  const std::string* best = nullptr;
  size_t best_d = name.size() / 3 + 1;
  for (const auto& c : choices)
    if (const size_t d = edit_distance(name, c); d < best_d) best = &c, best_d = d;
  return best ? *best : std::string();
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& choices) {
  const std::string near = nearest_name(name, choices);
  return near.empty() ? "" : " (did you mean \"" + near + "\"?)";
}

std::string unknown_name(const std::string& what, const std::string& name,
                         const std::vector<std::string>& choices) {
  std::string m = "no " + what + " \"" + name + "\"" + did_you_mean(name, choices);
  if (choices.empty()) return m + "; there are no " + what + "s";
  m += "; the " + what + "s are:";
  for (size_t i = 0; i < choices.size(); ++i) m += (i ? ", " : " ") + choices[i];
  return m;
}

}  // namespace gpulab
