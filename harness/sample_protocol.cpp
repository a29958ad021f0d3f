#include "sample_protocol.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpulab {

std::filesystem::path ask_for_sample(int k, const std::filesystem::path& samples_dir) {
  const std::string line = std::to_string(k) + "\n";
  if (write(kSampleRequestFd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw std::runtime_error("cannot ask the grader for the inputs of timed sample " +
                             std::to_string(k) + ": " + std::strerror(errno));
  std::string reply;
  for (char c; reply.size() < 32;) {
    const ssize_t n = read(kSampleReplyFd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n != 1 || c == '\n') break;
    reply += c;
  }
  if (reply != std::to_string(k))
    throw std::runtime_error("the grader did not hand over the inputs of timed sample " +
                             std::to_string(k) + (reply.empty() ? "" : " (it said " + reply + ")") +
                             ": did your code read or write gpulab's file descriptors " +
                             std::to_string(kSampleRequestFd) + " and " +
                             std::to_string(kSampleReplyFd) + "?");
  return samples_dir / std::to_string(k);
}

}  // namespace gpulab
