// Hostile: at run time, walks the file system for the hidden reference solution of this lab and
// prints it, so that it lands in the report. In the sandbox no reference source is there.
#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dcs.h"

namespace {

// A file reference/scatter-gather/dcs.cu below `dir`.
std::string search(const std::string& dir, int depth, int& budget) {
  if (depth > 9 || --budget < 0) return "";
  const std::string candidate = (dir == "/" ? "" : dir) + "/reference/scatter-gather/dcs.cu";
  if (std::ifstream(candidate).good()) return candidate;
  DIR* d = opendir(dir.c_str());
  if (!d) return "";
  std::vector<std::string> subdirs;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == ".." || e->d_type != DT_DIR) continue;
    const std::string path = (dir == "/" ? "" : dir) + "/" + n;
    if (path != "/proc" && path != "/sys" && path != "/dev") subdirs.push_back(path);
  }
  closedir(d);
  for (const auto& s : subdirs)
    if (std::string found = search(s, depth + 1, budget); !found.empty()) return found;
  return "";
}

}  // namespace

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float*, int, Lattice, float*) {
  int budget = 300000;
  const std::string found = search("/", 0, budget);
  if (found.empty()) {
    std::printf("gpulab-adversarial: no reference source was reachable\n");
  } else {
    std::ostringstream text;
    text << std::ifstream(found).rdbuf();
    std::printf("gpulab-adversarial: the reference, from %s:\n%s\n", found.c_str(),
                text.str().c_str());
  }
  std::fflush(stdout);
  std::exit(3);
}
