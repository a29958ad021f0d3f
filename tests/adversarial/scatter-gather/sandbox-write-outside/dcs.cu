// Hostile: at run time, tries to create files outside its output directory: in its dataset's
// input directory, beside it where the expected outputs are kept, and in every directory above
// its working directory (the grader's work folder, where reports are written). Whatever it
// managed to create it removes again and names. The sandbox lets it write its output directory
// and a private /tmp only.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dcs.h"

namespace {

// The value after --dataset on this process's command line.
std::string dataset_dir() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--dataset") return args[i + 1];
  return ".";
}

}  // namespace

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float*, int, Lattice, float*) {
  namespace fs = std::filesystem;
  const std::string data = dataset_dir();
  std::vector<fs::path> dirs = {data, data + "/..", data + "/../expected", data + "/../.."};
  for (fs::path p = fs::current_path().parent_path(); !p.empty(); p = p.parent_path()) {
    dirs.push_back(p);
    if (p == p.root_path()) break;
  }
  std::string written;
  for (const auto& dir : dirs) {
    const fs::path file = dir / "gpulab-planted-by-student";
    const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) continue;
    close(fd);
    unlink(file.c_str());
    written += " " + file.string();
  }
  // Changing an input (the next run or the grader's comparison might read it).
  const int input = open((data + "/meta.json").c_str(), O_WRONLY | O_APPEND);
  if (input >= 0) {
    close(input);
    written += " " + data + "/meta.json";
  }
  if (written.empty())
    std::printf("gpulab-adversarial: nothing written outside its output directory\n");
  else
    std::printf("gpulab-adversarial: could write outside its output directory:%s\n",
                written.c_str());
  std::fflush(stdout);
  std::exit(3);
}
