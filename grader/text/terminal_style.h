// How gpulab's terminal output looks: in colour on a terminal, plain in a log, a pipe or a file,
// and plain wherever NO_COLOR is set to anything but the empty string.
// Decided here once; the table, the summary and the failure messages (report.cpp,
// failure_messages.cpp) only ask for a role's look.
#pragma once

#include <string>

namespace gpulab {

class TerminalStyle {
 public:
  TerminalStyle() = default;  // plain
  explicit TerminalStyle(bool colour) : colour_(colour) {}

  // The style for output to `fd`: colour when it is a terminal and NO_COLOR is unset or empty.
  static TerminalStyle for_fd(int fd);
  // The rule itself: `no_color` is NO_COLOR's value, null when unset.
  static TerminalStyle decide(bool tty, const char* no_color);

  bool colour() const { return colour_; }
  // `text` in the look of its role; plain text as it is when there is no colour. Pad before
  // styling: the escape sequences take no columns but do take bytes.
  std::string pass(const std::string& text) const;     // green: passed
  std::string fail(const std::string& text) const;     // red: failed, an error
  std::string neutral(const std::string& text) const;  // dim: not graded, worth nothing
  std::string heading(const std::string& text) const;  // bold: a header line
  // The look of a result word of the table ("pass", "FAIL", "error", "skipped").
  std::string result(const std::string& word, const std::string& padded) const;

 private:
  std::string wrap(const char* sgr, const std::string& text) const;
  bool colour_ = false;
};

}  // namespace gpulab
