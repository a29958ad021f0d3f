#include "text/markdown_text.h"

#include <algorithm>
#include <string>

namespace gpulab {

namespace {

// ASCII punctuation that markdown gives a meaning somewhere (emphasis, code, links, HTML,
// entities, headings, lists, tables, autolinks): escaped. The rest (, ; ' " % ? /) never is, and
// stays as written.
bool markdown_special(char c) {
  static const std::string kSpecial = "\\`*_{}[]()<>#+-.!|~:&@=$^";
  return kSpecial.find(c) != std::string::npos;
}

size_t longest_backtick_run(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string markdown_text(const std::string& line) {
  std::string out;
  out.reserve(line.size() * 2);
  for (char c : line) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else {
      if (markdown_special(c)) out += '\\';
      out += c;
    }
  }
  // Leading spaces would make the line a code block of its own, or part of a list.
  const size_t start = out.find_first_not_of(' ');
  return start == std::string::npos ? std::string() : out.substr(start);
}

std::string markdown_code_block(const std::string& text) {
  const std::string fence(std::max<size_t>(3, longest_backtick_run(text) + 1), '`');
  std::string body = text;
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "\n" + body + fence + "\n";
}

std::string markdown_message(const std::string& message) {
  const size_t eol = message.find('\n');
  const std::string first = markdown_text(message.substr(0, eol));
  std::string rest = eol == std::string::npos ? std::string() : message.substr(eol + 1);
  const bool has_rest = rest.find_first_not_of(" \n\r\t") != std::string::npos;
  std::string out = first;
  if (has_rest) out += (out.empty() ? "" : "\n\n") + markdown_code_block(rest);
  return out;
}

}  // namespace gpulab
