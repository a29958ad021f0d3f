#include "build/line_markers.h"

#include <cctype>

namespace gpulab {

namespace {

// A line of the source after backslash-newlines are joined (translation phase 2), and the line
// of the file it starts on.
struct LogicalLine {
  std::string text;
  int line;
};

// Blanks to the compiler: g++ also skips a NUL, with a warning.
bool compiler_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\0';
}

bool is_newline(const std::string& s, size_t i) {
  return s[i] == '\n' || s[i] == '\r';
}

// The length of the line break at i (\r\n, \n or \r), 0 for none.
size_t newline_length(const std::string& s, size_t i) {
  if (i >= s.size() || !is_newline(s, i)) return 0;
  return s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n' ? 2 : 1;
}

// The length of a line splice at i: a backslash (or the trigraph ??/), blanks (g++ takes them,
// with a warning) and a line break; 0 for none.
size_t splice_length(const std::string& s, size_t i) {
  size_t j = i;
  if (s[j] == '\\') {
    ++j;
  } else if (s.compare(j, 3, "?\?/") == 0) {
    j += 3;
  } else {
    return 0;
  }
  while (j < s.size() && compiler_blank(s[j])) ++j;
  const size_t n = newline_length(s, j);
  return n ? j + n - i : 0;
}

std::vector<LogicalLine> logical_lines(const std::string& source) {
  std::vector<LogicalLine> lines(1, {"", 1});
  int line = 1;
  size_t i = 0;
  // A byte-order mark at the start is skipped by the compiler.
  if (source.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
  while (i < source.size()) {
    if (const size_t n = splice_length(source, i)) {
      ++line;
      i += n;
    } else if (const size_t b = newline_length(source, i)) {
      ++line;
      i += b;
      lines.push_back({"", line});
    } else {
      lines.back().text += source[i++];
    }
  }
  return lines;
}

// Past blanks and whole /* */ comments on the line, from `at`.
size_t skip_space(const std::string& t, size_t at) {
  for (;;) {
    while (at < t.size() && compiler_blank(t[at])) ++at;
    if (t.compare(at, 2, "/*") != 0) return at;
    const size_t end = t.find("*/", at + 2);
    if (end == std::string::npos) return t.size();
    at = end + 2;
  }
}

// Whether a directive that starts at `at` (after blanks and comments) is a line marker: `#`,
// `%:` or `??=`, then a number.
bool marker_at(const std::string& t, size_t at) {
  at = skip_space(t, at);
  if (t.compare(at, 1, "#") == 0) {
    at += 1;
  } else if (t.compare(at, 2, "%:") == 0) {
    at += 2;
  } else if (t.compare(at, 3, "?\?=") == 0) {
    at += 3;
  } else {
    return false;
  }
  at = skip_space(t, at);
  return at < t.size() && std::isdigit(static_cast<unsigned char>(t[at]));
}

}  // namespace

std::vector<int> line_marker_lines(const std::string& source) {
  std::vector<int> found;
  for (const LogicalLine& l : logical_lines(source)) {
    // From the line's start, and from after each */ on it, in case a comment opened on an
    // earlier line ends there.
    bool marker = marker_at(l.text, 0);
    for (size_t end = l.text.find("*/"); !marker && end != std::string::npos;
         end = l.text.find("*/", end + 2))
      marker = marker_at(l.text, end + 2);
    if (marker) found.push_back(l.line);
  }
  return found;
}

}  // namespace gpulab
