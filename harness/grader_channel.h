// The runner's end of the grader's channel (channel_protocol.h): how the harness hands the
// grader each output, asks for each timed sample, says when a sample is done, and sends the
// run's record. Only the harness calls it, and only between calls of the student's code.
//
// Before each use it checks that descriptor kChannelFd is still the grader's socket: a Unix
// seqpacket socket whose other end belongs to another process. Student code that closed it, or
// put a socket of its own in its place to stand between the harness and the grader, fails the
// run there; student code that used the channel itself (asked for a sample early, sent an output
// or a record of its own) is refused by the grader, which takes each name once and each sample
// in order.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "npy.h"

namespace gpulab {

class GraderChannel {
 public:
  // This process's channel, checked the first time. Throws where there is none: a runner is
  // started by gpulab (grade, run, time, bench), never by hand.
  static GraderChannel& get();

  // Sends output `name` as a sealed memory file holding an .npy array of `dtype` and `shape`,
  // whose data `fill` writes (straight into the file's memory: a gigabyte output is not copied
  // twice).
  void send_output(const std::string& name, DType dtype, const std::vector<size_t>& shape,
                   const std::function<void(void* data)>& fill);

  // Asks for timed sample k and waits for the grader's answer; returns the folder of its inputs
  // (in `samples_dir`). Throws when the grader refuses.
  std::filesystem::path ask_for_sample(int k, const std::filesystem::path& samples_dir);

  // Tells the grader that sample k's outputs are sent, with its time (`ms`, as the harness's
  // clock took it) and the process's CPU time during the call; waits for the grader's receipt.
  void sample_done(int k, double ms, double cpu_ms);

  // The run's record, the last message (cut to fit: its "message" first).
  void send_record(const nlohmann::json& record);

 private:
  GraderChannel() = default;
  void check() const;  // still the grader's socket, or throw
  void send(const nlohmann::json& message, int fd = -1);
  void send_text(const std::string& text, int fd = -1);
  nlohmann::json receive();  // the grader's answer; throws on "error"
  // The grader's answer to `request`, which must be {`key`: k}.
  void exchange(const nlohmann::json& request, const char* key, int k);

  unsigned long long dev_ = 0, ino_ = 0;  // the socket's identity when first checked
};

}  // namespace gpulab
