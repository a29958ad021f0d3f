#include "report_channel.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

namespace gpulab_sim::detail {
namespace {

// The longest key kept; a longer one, or one with other than letters and digits, is refused
// (it is written into a JSON string unescaped).
constexpr std::size_t kMaxKey = 64;

// Constant-initialised (no constructor runs for it), so it holds what open_report() put there
// however early that ran; with nothing to destroy, so it still works in the last exit handler.
struct Channel {
  std::mutex mu;
  int fd = -1;
  bool owned = false;  // a file opened here (closed at the end), not a descriptor given to us
  bool ended = false;
  char key[kMaxKey + 1] = {};
  std::uint64_t records = 0;
  std::atomic<std::uint64_t> launches{0};
};
static_assert(std::is_trivially_destructible_v<Channel>);
__constinit Channel channel;

void close_locked() {
  if (channel.owned && channel.fd >= 0) close(channel.fd);
  channel.fd = -1;
  channel.owned = false;
}

// All of `bytes`, or false when the descriptor takes no more (closed, replaced by something
// that refuses, a full disk).
bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void warn(const char* what, const char* value, int err) {
  std::fprintf(stderr, "gpulab sim: %s %s: %s; findings are printed only\n", what, value,
               err ? std::strerror(err) : "not a descriptor number");
}

}  // namespace

void open_report(const char* path, const char* fd, const char* key) {
  std::lock_guard<std::mutex> lock(channel.mu);
  close_locked();
  channel.ended = false;
  channel.records = 0;
  channel.launches = 0;
  channel.key[0] = '\0';
  if (key && *key) {
    const std::size_t n = std::strlen(key);
    bool plain = n <= kMaxKey;
    for (std::size_t i = 0; plain && i < n; ++i)
      plain = std::isalnum(static_cast<unsigned char>(key[i]));
    if (plain)
      std::memcpy(channel.key, key, n + 1);
    else
      std::fprintf(stderr,
                   "gpulab sim: GPULAB_SIM_REPORT_KEY ignored (over %zu letters or digits)\n",
                   kMaxKey);
  }
  if (fd && *fd) {
    char* end = nullptr;
    const long n = std::strtol(fd, &end, 10);
    if (*end || n < 0 || n > 1 << 20) {
      warn("GPULAB_SIM_REPORT_FD is", fd, 0);
    } else if (fcntl(static_cast<int>(n), F_GETFD) < 0) {
      warn("GPULAB_SIM_REPORT_FD names no open descriptor:", fd, errno);
    } else {
      channel.fd = static_cast<int>(n);
      fcntl(channel.fd, F_SETFD, FD_CLOEXEC);  // not for a program the student's code starts
    }
  } else if (path && *path) {
    channel.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (channel.fd < 0)
      warn("cannot open GPULAB_SIM_REPORT", path, errno);
    else
      channel.owned = true;
  }
}

void send_record(const std::string& json) {
  std::lock_guard<std::mutex> lock(channel.mu);
  if (channel.fd < 0 || channel.ended) return;
  // Counted whether or not it went out: a record that could not be written leaves the count
  // above what the reader saw, which is what tells it the report was cut short.
  ++channel.records;
  write_all(channel.fd, json + "\n");
}

void count_launch() {
  ++channel.launches;
}

void end_report() {
  std::lock_guard<std::mutex> lock(channel.mu);
  if (channel.fd < 0 || channel.ended) return;
  channel.ended = true;
  char line[160 + kMaxKey];
  std::snprintf(line, sizeof line,
                "{\"end\":{\"launches\":%llu,\"records\":%llu,\"key\":\"%s\"}}\n",
                static_cast<unsigned long long>(channel.launches.load()),
                static_cast<unsigned long long>(channel.records), channel.key);
  write_all(channel.fd, line);
  close_locked();
}

}  // namespace gpulab_sim::detail
