// Progress of a long batch (gpulab grade-all) on the terminal: on a TTY one line redrawn in
// place (a bar, counts, an estimate of the time left, the last result); elsewhere (a log file,
// CI) one plain line per finished item, so the record reads well afterwards. Thread-safe.
#pragma once

#include <chrono>
#include <mutex>
#include <ostream>
#include <string>

namespace gpulab {

class Progress {
 public:
  // `total` items, of which `already_done` need no work (resumed). `width`: the terminal's
  // columns, for the TTY line.
  Progress(std::ostream& out, bool tty, size_t total, size_t already_done, int width = 80);
  void started();
  // One item finished; `what` says which and how it went ("scan/alice: 8 / 10").
  void finished(const std::string& what);
  // What is being worked on now ("timing/int-big: 12 s, 412.0 MB written"), shown on the TTY line
  // until the next item finishes; nothing in a log.
  void now(const std::string& what);
  // Ends the TTY line, so what follows starts on a fresh one.
  void close();

  // Whether a stream is a terminal, and its width (80 when unknown).
  static bool is_tty(int fd);
  static int terminal_width(int fd);

 private:
  void draw();

  std::mutex mutex_;
  std::ostream& out_;
  bool tty_;
  int width_;
  size_t total_, done_, resumed_, running_ = 0;
  std::string last_;  // the last item finished, shown at the end of the TTY line
  std::string now_;   // the item being worked on, shown instead while there is one
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gpulab
