// Hostile: looks for its dataset's seed, from which it would regenerate the hidden datasets and
// their expected outputs with the student kit's generators (and, were the seed drawn from the
// instructor's hidden seed by an invertible function, work the hidden seed back out). It reads
// every file of its input folder (meta.json among them) and of its working folder, and its
// environment, and prints what it found; then it stops, computing nothing, so its output shows
// in the report. gpulab keeps every seed from runs: it finds none.
#include <dirent.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scan.h"

extern char** environ;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The value after --dataset on this process's command line.
std::string dataset_dir() {
  const std::string cmdline = slurp("/proc/self/cmdline");
  std::vector<std::string> args;
  for (size_t at = 0; at < cmdline.size();) {
    const size_t end = cmdline.find('\0', at);
    args.push_back(cmdline.substr(at, end - at));
    at = end == std::string::npos ? cmdline.size() : end + 1;
  }
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--dataset") return args[i + 1];
  return ".";
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Each line of each file in `dir` that names a seed, printed; the number of files read.
int search(const std::string& dir, int& found) {
  DIR* d = opendir(dir.c_str());
  if (!d) return 0;
  int files = 0;
  while (dirent* e = readdir(d)) {
    if (e->d_type != DT_REG) continue;
    const std::string path = dir + "/" + e->d_name;
    std::istringstream text(slurp(path));
    ++files;
    for (std::string line; std::getline(text, line);)
      if (lower(line).find("seed") != std::string::npos && line.size() < 200) {
        std::fprintf(stderr, "read-dataset-seed: found a seed in %s: %s\n", path.c_str(),
                     line.c_str());
        ++found;
      }
  }
  closedir(d);
  return files;
}

[[noreturn]] void look_and_stop() {
  int found = 0;
  const int files = search(dataset_dir(), found) + search(".", found);
  // The CPU backend's block order is seeded too: it must come from nothing secret.
  for (char** e = environ; *e; ++e)
    if (lower(*e).find("seed") != std::string::npos)
      std::fprintf(stderr, "read-dataset-seed: in the environment, %s\n", *e);
  if (found == 0) std::fprintf(stderr, "read-dataset-seed: read %d files, no seed in any\n", files);
  std::fflush(stderr);
  std::exit(3);
}

}  // namespace

void scan_int(const int*, int*, int, ScanKind) {
  look_and_stop();
}

void scan_float(const float*, float*, int, ScanKind) {
  look_and_stop();
}

void scan_int_hillis_steele(const int*, int*, int) {
  look_and_stop();
}
