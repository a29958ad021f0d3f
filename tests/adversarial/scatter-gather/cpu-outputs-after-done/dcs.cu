// Hostile, appended to the slowed reference (its twin is slow-cpu): in a timed run (its command
// line says --samples), each timed call first tells the grader, over descriptor 3, that its
// sample is done, in a third of the time its last call took (a plausible time, as fast as the
// reference's), and only then does the work; the harness's own
// "done" after the call is silenced (its first byte rewritten to a return), so the outputs the
// harness hands over after the call are the only trace of the work, after the sample's end.
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace gpulab {
class GraderChannel {
 public:
  void sample_done(int k, double ms, double cpu_ms);
};
}  // namespace gpulab

namespace {

// The value after `option` on this process's command line, "" without one.
std::string option_value(const std::string& option) {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = option + '\0';
  const size_t at = cmdline.find(key);
  if (at == std::string::npos) return "";
  const size_t from = at + key.size();
  return cmdline.substr(from, cmdline.find('\0', from) - from);
}

void silence_harness_done() {
  void (gpulab::GraderChannel::*member)(int, double, double) = &gpulab::GraderChannel::sample_done;
  void* code = nullptr;
  std::memcpy(&code, &member, sizeof code);  // not virtual: the first word is its address
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  void* start = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(code) & ~(page - 1));
  if (mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  *static_cast<unsigned char*>(code) = 0xC3;  // ret
  mprotect(start, 2 * page, PROT_READ | PROT_EXEC);
}

}  // namespace

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static const std::string samples_dir = option_value("--samples-dir");
  static int said_done = 0;
  static bool silenced = false;
  static double last_ms = 0;  // the last call's time, measured here
  struct stat st {};
  // The sample handed over last has its folder; the first call and the warmup have none.
  const std::string next = samples_dir + "/" + std::to_string(said_done + 1);
  if (!samples_dir.empty() && stat(next.c_str(), &st) == 0) {
    if (!silenced) silence_harness_done();
    silenced = true;
    ++said_done;
    const std::string third = std::to_string(last_ms / 3);
    const std::string done = "{\"done\": " + std::to_string(said_done) + ", \"ms\": " + third +
                             ", \"cpu_ms\": " + third + "}";
    char answer[256];
    if (send(3, done.data(), done.size(), MSG_NOSIGNAL) > 0) recv(3, answer, sizeof answer, 0);
  }
  const auto start = std::chrono::steady_clock::now();
  slow_cpu_fast(atoms, n_atoms, lat, potential);
  last_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
