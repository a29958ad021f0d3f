// Words in one string, `sep` between them: a list in a message ("sm_90, sm_100"), a command line
// quoted in one, an option's comma-separated value.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

inline std::string joined(const std::vector<std::string>& words, const std::string& sep = ", ") {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : sep) + w;
  return s;
}

// `text` as one word of a shell script, whatever it holds (a template's value that is any text,
// such as the instructor's hidden seed; an argument of a batch script's command).
inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A list in a sentence: "a", "a and b", "a, b and c" (`conjunction` "or": "a, b or c").
inline std::string listed(const std::vector<std::string>& words,
                          const std::string& conjunction = "and") {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i)
    s += (i == 0 ? "" : i + 1 == words.size() ? " " + conjunction + " " : ", ") + words[i];
  return s;
}

}  // namespace gpulab
