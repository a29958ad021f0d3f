#include "build/include_tree.h"

#include <cctype>
#include <set>
#include <sstream>

namespace gpulab {

std::vector<IncludedHeader> parse_include_tree(const std::string& output) {
  std::vector<IncludedHeader> tree;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t dots = line.find_first_not_of('.');
    // "<dots> <path>".
    if (dots == 0 || dots == std::string::npos || line[dots] != ' ' || dots + 1 == line.size())
      continue;
    tree.push_back({static_cast<int>(dots), line.substr(dots + 1)});
  }
  return tree;
}

std::vector<std::string> parse_make_prerequisites(const std::string& rule) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::string word;
  bool target = true;  // the words before a rule's colon
  const auto end_word = [&] {
    if (word.empty()) return;
    if (!target && seen.insert(word).second) out.push_back(word);
    word.clear();
  };
  for (size_t i = 0; i < rule.size(); ++i) {
    const char c = rule[i];
    if (c == '\\' && i + 1 < rule.size() && rule[i + 1] == '\n') {
      end_word();  // a continued line
      ++i;
    } else if (c == '\\' && i + 1 < rule.size() && rule[i + 1] == ' ') {
      word += ' ';
      ++i;
    } else if (c == ':' && target &&
               (i + 1 == rule.size() || std::isspace(static_cast<unsigned char>(rule[i + 1])))) {
      word.clear();
      target = false;
    } else if (c == '\n') {
      end_word();
      target = true;  // the next line starts a rule
    } else if (c == ' ' || c == '\t') {
      end_word();
    } else {
      word += c;
    }
  }
  end_word();
  return out;
}

}  // namespace gpulab
