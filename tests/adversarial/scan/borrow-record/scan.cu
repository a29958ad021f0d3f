// Hostile: computes nothing, and borrows the reference's timing record. At exit, once the runner
// has written its outputs and result.json, it links each output to the dataset's expected output
// on the grader's machine (its host path is in bwrap's arguments, /proc/1/cmdline, and in the
// roots of its mounts, /proc/self/mountinfo: the cache keeps expected/ beside the input folder),
// and makes result.json a link too: in a timed run to ../reference/result.json, where the
// reference's timed run, a sibling of its own, leaves its record (a relative link needs no host
// path); in an untimed run to a copy of its own record, so that the outputs are checked. A
// grader that followed links would give it full marks and the reference's time. The grader
// must read only plain files the run wrote, and fail the run, naming result.json.
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
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

std::string own_option(const std::string& option) {
  const std::vector<std::string> args = args_of("/proc/self/cmdline");
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == option) return args[i + 1];
  return "";
}

bool timed() {
  for (const std::string& a : args_of("/proc/self/cmdline"))
    if (a == "--time") return true;
  return false;
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

struct BorrowAtExit {
  ~BorrowAtExit() {
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
      unlink((out + "/" + name).c_str());
      symlink((expected + base).c_str(), (out + "/" + name).c_str());
    }
    const std::string record = out + "/result.json";
    if (timed()) {
      unlink(record.c_str());
      symlink("../reference/result.json", record.c_str());
    } else if (std::rename(record.c_str(), (out + "/result.real").c_str()) == 0) {
      symlink("result.real", record.c_str());
    }
  }
} borrow_at_exit;

}  // namespace

void scan_int(const int*, int*, int, ScanKind) {}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
