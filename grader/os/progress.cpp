#include "os/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace gpulab {

Progress::Progress(std::ostream& out, bool tty, size_t total, size_t already_done, int width)
    : out_(out),
      tty_(tty),
      width_(width),
      total_(total),
      done_(already_done),
      resumed_(already_done) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tty_)
    draw();
  else if (resumed_ > 0)
    out_ << resumed_ << " of " << total_ << " already graded with this configuration: skipped\n"
         << std::flush;
}

void Progress::started() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++running_;
  if (tty_) draw();
}

void Progress::finished(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  ++done_;
  now_.clear();
  if (tty_) {
    last_ = what;
    draw();
    return;
  }
  out_ << "[" << done_ << "/" << total_ << "] " << what << "\n" << std::flush;
}

void Progress::now(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  now_ = what;
  if (tty_) draw();
}

void Progress::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tty_) out_ << "\n" << std::flush;
  tty_ = false;
}

// [#########-----------] 12/40, 2 running, about 4 min left  scan/alice: 8 / 10
void Progress::draw() {
  constexpr int kBar = 24;
  const int filled = total_ ? static_cast<int>(kBar * done_ / total_) : kBar;
  std::string line = "[" + std::string(filled, '#') + std::string(kBar - filled, '-') + "] " +
                     std::to_string(done_) + "/" + std::to_string(total_);
  if (running_) line += ", " + std::to_string(running_) + " running";
  const size_t graded_now = done_ - resumed_;
  if (graded_now > 0 && done_ < total_) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double left = elapsed / static_cast<double>(graded_now) * (total_ - done_);
    char buf[64];
    if (left < 90)
      std::snprintf(buf, sizeof buf, ", about %.0f s left", left);
    else
      std::snprintf(buf, sizeof buf, ", about %.0f min left", left / 60);
    line += buf;
  }
  if (!now_.empty() || !last_.empty()) line += "  " + (now_.empty() ? last_ : now_);
  if (width_ > 1 && static_cast<int>(line.size()) >= width_) line.resize(width_ - 1);
  out_ << "\r\033[K" << line << std::flush;  // back to the start of the line, and clear it
}

bool Progress::is_tty(int fd) {
  return isatty(fd) == 1;
}

int Progress::terminal_width(int fd) {
  winsize w{};
  if (ioctl(fd, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

}  // namespace gpulab
