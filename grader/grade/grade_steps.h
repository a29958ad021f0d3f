// The steps of one grading as they happen ("scan on int-1", "timing your scan on big (round 2
// of 5)"). gpulab grade writes a line per step to its log, for the record (LogSteps, the
// default); gpulab run shows one counter line redrawn in place on a terminal and nothing in a
// log (StepCounter). Counted steps are the correctness runs, whose number the grading knows
// before it starts (correctness_runs, grade_scope.h); the others (builds, timed rounds) are
// shown without advancing the count.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

namespace gpulab {

class GradeSteps {
 public:
  virtual ~GradeSteps() = default;
  virtual void planned(size_t /*counted_steps*/) {}
  virtual void step(const std::string& what) = 0;  // a counted step begins
  virtual void note(const std::string& what) = 0;  // an uncounted one
};

// A line per step on `log`: "building ..." unindented, the rest indented under it.
class LogSteps : public GradeSteps {
 public:
  explicit LogSteps(std::ostream& log) : log_(log) {}
  void step(const std::string& what) override;
  void note(const std::string& what) override;

 private:
  std::ostream& log_;
};

// On a terminal one line, "[12/48] exclusive on int-1", redrawn in place and cut to the
// terminal's width; not a terminal: nothing. The grading's other words (warnings) go through
// log(), which clears the counter line before each of them so that they stand on their own
// lines; clear() removes the counter line before the results are printed.
class StepCounter : public GradeSteps {
 public:
  StepCounter(std::ostream& out, bool tty, int width);
  ~StepCounter() override;
  void planned(size_t counted_steps) override;
  void step(const std::string& what) override;
  void note(const std::string& what) override;
  void clear();
  std::ostream& log() { return log_; }

 private:
  class ClearingBuf : public std::streambuf {
   public:
    explicit ClearingBuf(StepCounter& c) : c_(c) {}

   protected:
    int overflow(int ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

   private:
    StepCounter& c_;
  };
  void draw(const std::string& what);

  std::ostream& out_;
  bool tty_;
  int width_;
  size_t total_ = 0, done_ = 0;
  bool drawn_ = false;  // the counter line is on the screen
  ClearingBuf buf_{*this};
  std::ostream log_{&buf_};
};

}  // namespace gpulab
