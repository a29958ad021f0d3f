// Hostile, appended to the (slowed) reference: from /proc/self/cmdline it learns whether this
// run is timed and how many calls the policy makes (the first call, the warmup, the samples),
// and computes only the first call and the last, whose outputs were the ones checked.
#include <fstream>
#include <iterator>
#include <string>

namespace {

// The integer after "key": in the command line's timing JSON; `fallback` when absent.
int policy_value(const std::string& cmdline, const std::string& key, int fallback) {
  const size_t at = cmdline.find("\"" + key + "\":");
  return at == std::string::npos ? fallback : std::stoi(cmdline.substr(at + key.size() + 3));
}

}  // namespace

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static int calls = 0;
  static const std::string cmdline = [] {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  ++calls;
  const bool timed = cmdline.find("--time") != std::string::npos;
  const int last = 1 + policy_value(cmdline, "warmup", 2) + policy_value(cmdline, "max_samples", 5);
  if (!timed || calls == 1 || calls == last) slow_cpu_fast(atoms, n_atoms, lat, potential);
}
