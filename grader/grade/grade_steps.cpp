#include "grade/grade_steps.h"

#include "text/safe_text.h"

namespace gpulab {

void LogSteps::step(const std::string& what) {
  log_ << "  " << what << "\n";
}

void LogSteps::note(const std::string& what) {
  log_ << "  " << what << "\n";
}

StepCounter::StepCounter(std::ostream& out, bool tty, int width)
    : out_(out), tty_(tty), width_(width) {}

StepCounter::~StepCounter() {
  clear();
}

void StepCounter::planned(size_t counted_steps) {
  total_ = counted_steps;
}

void StepCounter::step(const std::string& what) {
  ++done_;
  draw(what);
}

void StepCounter::note(const std::string& what) {
  draw(what);
}

void StepCounter::draw(const std::string& what) {
  if (!tty_) return;
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + what;
  // One column short of the width: a line that fills it wraps on some terminals.
  if (width_ > 1 && line.size() >= static_cast<size_t>(width_))
    line = std::string(utf8_head(line, width_ - 1));
  out_ << "\r\033[K" << line << std::flush;  // back to the start of the line, and clear it
  drawn_ = true;
}

void StepCounter::clear() {
  if (!drawn_) return;
  out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

int StepCounter::ClearingBuf::overflow(int ch) {
  if (ch == traits_type::eof()) return traits_type::not_eof(ch);
  c_.clear();
  c_.out_.put(static_cast<char>(ch));
  return ch;
}

std::streamsize StepCounter::ClearingBuf::xsputn(const char* s, std::streamsize n) {
  c_.clear();
  c_.out_.write(s, n);
  return n;
}

int StepCounter::ClearingBuf::sync() {
  c_.out_.flush();
  return 0;
}

}  // namespace gpulab
