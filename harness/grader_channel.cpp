#include "grader_channel.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "channel_protocol.h"
#include "sealed_file.h"

namespace gpulab {

namespace {

[[noreturn]] void fail(const std::string& why) {
  throw std::runtime_error("gpulab's channel to the grader (descriptor " +
                           std::to_string(kChannelFd) + ") " + why);
}

// The record, cut to fit one message: its "message" (a student's words, any length) shortened
// first, then nothing but its status.
std::string record_text(nlohmann::json record) {
  nlohmann::json message = {{kMsgRecord, record}};
  auto dump = [&] {
    return message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  std::string text = dump();
  if (text.size() <= kChannelMessageMax) return text;
  if (record.contains("message") && record["message"].is_string()) {
    std::string m = record["message"].get<std::string>();
    m.resize(std::min(m.size(), size_t{8192}));
    message[kMsgRecord]["message"] = m + " [... cut]";
    if ((text = dump()).size() <= kChannelMessageMax) return text;
  }
  message = {{kMsgRecord,
              {{"status", record.value("status", "error")},
               {"message", "the run's record was too large to send"}}}};
  return dump();
}

}  // namespace

GraderChannel& GraderChannel::get() {
  static GraderChannel* channel = [] {
    auto* c = new GraderChannel;  // never destroyed: the run ends with _exit
    struct stat st {};
    if (::fstat(kChannelFd, &st) != 0)
      fail("is not open: a runner is started by gpulab (grade, run, time, bench), not by hand");
    c->dev_ = st.st_dev;
    c->ino_ = st.st_ino;
    c->check();
    return c;
  }();
  return *channel;
}

void GraderChannel::check() const {
  struct stat st {};
  int type = 0;
  socklen_t len = sizeof type;
  ucred peer{};
  socklen_t peer_len = sizeof peer;
  if (::fstat(kChannelFd, &st) != 0 || !S_ISSOCK(st.st_mode) ||
      ::getsockopt(kChannelFd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_SEQPACKET ||
      ::getsockopt(kChannelFd, SOL_SOCKET, SO_PEERCRED, &peer, &peer_len) != 0)
    fail("is no longer the grader's socket: did your code close or replace descriptor " +
         std::to_string(kChannelFd) + "?");
  // A socket pair the run made itself has this process at its other end; the grader's has the
  // grader (outside the run's pid namespace: pid 0 here).
  if (peer.pid == ::getpid() || st.st_dev != dev_ || st.st_ino != ino_)
    fail(
        "was replaced by a socket of the run's own: did your code put something in place of "
        "descriptor " +
        std::to_string(kChannelFd) + "?");
}

void GraderChannel::send(const nlohmann::json& message, int fd) {
  send_text(message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), fd);
}

void GraderChannel::send_text(const std::string& text, int fd) {
  check();
  if (text.size() > kChannelMessageMax) fail("was given a message too long to send");
  iovec io{const_cast<char*>(text.data()), text.size()};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (fd >= 0) {
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  ssize_t n;
  while ((n = ::sendmsg(kChannelFd, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  if (n != static_cast<ssize_t>(text.size()))
    fail(std::string("could not send: ") + std::strerror(errno));
}

nlohmann::json GraderChannel::receive() {
  check();
  std::string buf(kChannelMessageMax, '\0');
  ssize_t n;
  while ((n = ::recv(kChannelFd, buf.data(), buf.size(), 0)) < 0 && errno == EINTR) {
  }
  if (n <= 0) fail(n == 0 ? "was closed by the grader" : std::string("failed: ") + strerror(errno));
  buf.resize(static_cast<size_t>(n));
  const nlohmann::json answer = nlohmann::json::parse(buf, nullptr, false);
  if (!answer.is_object()) fail("brought an answer that is not the grader's");
  if (answer.contains(kMsgError))
    throw std::runtime_error(
        "the grader refused the run: " +
        answer[kMsgError].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return answer;
}

void GraderChannel::exchange(const nlohmann::json& request, const char* key, int k) {
  send(request);
  const nlohmann::json answer = receive();
  const auto it = answer.find(key);
  if (it == answer.end() || !it->is_number_integer() || it->get<int>() != k)
    fail("brought an answer out of turn: did your code use descriptor " +
         std::to_string(kChannelFd) + "?");
}

void GraderChannel::send_output(const std::string& name, DType dtype,
                                const std::vector<size_t>& shape,
                                const std::function<void(void* data)>& fill) {
  const std::string header = npy_header(dtype, shape);
  const UniqueFd file =
      sealed_memory_file(name, header.size() + npy_data_bytes(dtype, shape), [&](void* at) {
        std::memcpy(at, header.data(), header.size());
        fill(static_cast<char*>(at) + header.size());
      });
  send(nlohmann::json{{kMsgOutput, name}}, file.get());
}

std::filesystem::path GraderChannel::ask_for_sample(int k,
                                                    const std::filesystem::path& samples_dir) {
  exchange({{kMsgAsk, k}}, kMsgSample, k);
  return samples_dir / std::to_string(k);
}

void GraderChannel::sample_done(int k, double ms, double cpu_ms) {
  exchange({{kMsgDone, k}, {kMsgDoneMs, ms}, {kMsgDoneCpuMs, cpu_ms}}, kMsgOk, k);
}

void GraderChannel::send_record(const nlohmann::json& record) {
  send_text(record_text(record));
}

}  // namespace gpulab
