#include "text/terminal_style.h"

#include <unistd.h>

#include <cstdlib>

namespace gpulab {

TerminalStyle TerminalStyle::for_fd(int fd) {
  return decide(isatty(fd) == 1, std::getenv("NO_COLOR"));
}

TerminalStyle TerminalStyle::decide(bool tty, const char* no_color) {
  return TerminalStyle(tty && (no_color == nullptr || *no_color == '\0'));
}

std::string TerminalStyle::wrap(const char* sgr, const std::string& text) const {
  if (!colour_) return text;
  return std::string("\033[") + sgr + "m" + text + "\033[0m";
}

std::string TerminalStyle::pass(const std::string& text) const {
  return wrap("32", text);
}
std::string TerminalStyle::fail(const std::string& text) const {
  return wrap("1;31", text);
}
std::string TerminalStyle::neutral(const std::string& text) const {
  return wrap("2", text);
}
std::string TerminalStyle::heading(const std::string& text) const {
  return wrap("1", text);
}

std::string TerminalStyle::result(const std::string& word, const std::string& padded) const {
  if (word == "pass" || word == "ok") return pass(padded);
  if (word == "FAIL" || word == "error") return fail(padded);
  return neutral(padded);
}

}  // namespace gpulab
