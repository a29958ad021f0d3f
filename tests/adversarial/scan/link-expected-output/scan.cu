// Hostile: computes nothing. At exit, once the runner has written its outputs and result.json,
// it replaces each output in its output folder with a link to the dataset's expected output on
// the grader's machine, so that a grader that followed links would compare the oracle's answer
// with itself. The host path of its input folder is in what a sandboxed run can read: bwrap's
// arguments (/proc/1/cmdline) and the roots of its mounts (/proc/self/mountinfo); the dataset
// cache keeps the expected outputs beside it, in ../expected/. A hard link is tried first: it
// fails (another mount, and a path the sandbox does not have). The grader must read only plain
// files the run wrote, and fail the run, naming the link.
#include <dirent.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scan.h"

namespace {

std::vector<std::string> args_of(const char* cmdline) {
  std::ifstream in(cmdline, std::ios::binary);
  std::vector<std::string> args;
  for (std::string a; std::getline(in, a, '\0');) args.push_back(a);
  return args;
}

// The value after `option` on the runner's command line.
std::string own_option(const std::string& option) {
  const std::vector<std::string> args = args_of("/proc/self/cmdline");
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == option) return args[i + 1];
  return "";
}

// The host path behind the mount at `inside`: bwrap's argument before it, else the mount's root.
std::string host_path_of(const std::string& inside) {
  const std::vector<std::string> bwrap = args_of("/proc/1/cmdline");
  for (size_t i = 1; i < bwrap.size(); ++i)
    if (bwrap[i] == inside && !bwrap[i - 1].empty() && bwrap[i - 1][0] == '/') return bwrap[i - 1];
  std::ifstream mounts("/proc/self/mountinfo");
  for (std::string line; std::getline(mounts, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    if (point == inside) return root;
  }
  return inside;  // no sandbox: the path is the host's
}

struct LinkOutputsAtExit {
  ~LinkOutputsAtExit() {
    const std::string input = host_path_of(own_option("--dataset"));
    const std::string expected = input.substr(0, input.rfind('/')) + "/expected/";
    const std::string out = own_option("--out");
    std::vector<std::string> outputs;
    if (DIR* d = opendir(out.c_str())) {
      while (const dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0)
          outputs.push_back(name);
      }
      closedir(d);
    }
    for (const std::string& name : outputs) {
      const std::string base = name.rfind("timed_", 0) == 0 ? name.substr(6) : name;
      const std::string mine = out + "/" + name, theirs = expected + base;
      unlink(mine.c_str());
      if (link(theirs.c_str(), mine.c_str()) == 0) continue;
      std::fprintf(stderr, "gpulab-adversary: a hard link failed (%s)\n", std::strerror(errno));
      symlink(theirs.c_str(), mine.c_str());
    }
  }
} link_outputs_at_exit;

}  // namespace

void scan_int(const int*, int*, int, ScanKind) {}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
