// Hostile: at run time, looks for the grader's hidden reference solution (reference/scan/scan.cu
// in any folder above its dataset, its runner or its working directory) and for the files beside
// the grader's report (named in its ancestors' command lines), prints what it finds and fails,
// so that the grader quotes its output in the report. The sandbox shows it none of them.
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "scan.h"

namespace {

std::vector<std::string> proc_words(const std::string& pid, const char* file) {
  std::ifstream in("/proc/" + pid + "/" + file, std::ios::binary);
  std::vector<std::string> words;
  for (std::string w; std::getline(in, w, '\0');) words.push_back(w);
  return words;
}

std::string read_head(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(8192, '\0');
  in.read(&text[0], static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

std::string real_path(const std::string& link) {
  char buf[4096] = {};
  return readlink(link.c_str(), buf, sizeof buf - 1) > 0 ? buf : "";
}

std::string parent_pid(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t end = text.rfind(')');
  if (end == std::string::npos) return "";
  std::istringstream rest(text.substr(end + 1));
  std::string state, ppid;
  rest >> state >> ppid;
  return ppid;
}

}  // namespace

void scan_int(const int*, int*, int, ScanKind) {
  std::string found;
  std::vector<std::string> starts = {real_path("/proc/self/exe"), real_path("/proc/self/cwd")};
  const std::vector<std::string> self = proc_words("self", "cmdline");
  for (size_t i = 0; i + 1 < self.size(); ++i)
    if (self[i] == "--dataset") starts.push_back(self[i + 1]);
  for (std::string dir : starts) {
    for (; dir.size() > 1; dir = dir.substr(0, dir.rfind('/'))) {
      const std::string text = read_head(dir + "/reference/scan/scan.cu");
      if (!text.empty()) found += "=== " + dir + "/reference/scan/scan.cu\n" + text + "\n";
      if (dir.rfind('/') == std::string::npos) break;
    }
  }
  for (std::string pid = parent_pid("self"); !pid.empty() && pid != "0" && pid != "1";
       pid = parent_pid(pid)) {
    const std::vector<std::string> args = proc_words(pid, "cmdline");
    for (size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] != "--out") continue;
      std::string dir = args[i + 1].substr(0, args[i + 1].rfind('/') + 1);
      if (dir.empty() || dir[0] != '/') dir = real_path("/proc/" + pid + "/cwd") + "/" + dir;
      if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
          if (e->d_name[0] != '.')
            found += "=== " + dir + e->d_name + "\n" + read_head(dir + e->d_name) + "\n";
        closedir(d);
      }
    }
  }
  std::printf("%s\n", found.empty() ? "gpulab-adversary: found nothing to leak" : found.c_str());
  std::fflush(stdout);
  std::abort();
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
