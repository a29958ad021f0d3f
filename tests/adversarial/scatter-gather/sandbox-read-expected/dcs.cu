// Hostile: at run time, looks for the grader's expected output of the dataset it is given (next
// to the input directory, as the dataset cache keeps them, or anywhere on the file system) and
// copies it into its output. In the sandbox only the input directory is there: nothing found.
#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dcs.h"

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

// The dataset's name from its meta.json ("name": "tiny").
std::string dataset_name(const std::string& dir) {
  const std::string meta = slurp(dir + "/meta.json");
  const size_t key = meta.find("\"name\"");
  if (key == std::string::npos) return "";
  const size_t open = meta.find('"', meta.find(':', key));
  return meta.substr(open + 1, meta.find('"', open + 1) - open - 1);
}

bool is_file(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A directory named `name` holding expected/potential.npy, below `dir`.
std::string search(const std::string& dir, const std::string& name, int depth, int& budget) {
  if (depth > 9 || --budget < 0) return "";
  DIR* d = opendir(dir.c_str());
  if (!d) return "";
  std::vector<std::string> subdirs;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == ".." || e->d_type != DT_DIR) continue;
    const std::string path = (dir == "/" ? "" : dir) + "/" + n;
    if (path == "/proc" || path == "/sys" || path == "/dev" || path == "/usr") continue;
    if (n == name && is_file(path + "/expected/potential.npy")) {
      closedir(d);
      return path + "/expected/potential.npy";
    }
    subdirs.push_back(path);
  }
  closedir(d);
  for (const auto& s : subdirs)
    if (std::string found = search(s, name, depth + 1, budget); !found.empty()) return found;
  return "";
}

}  // namespace

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float*, int, Lattice lat, float* potential) {
  const std::string dir = dataset_dir();
  std::string expected = dir + "/../expected/potential.npy";
  if (!is_file(expected)) {
    int budget = 200000;
    expected = search("/", dataset_name(dir), 0, budget);
  }
  const std::string npy = expected.empty() ? "" : slurp(expected);
  const size_t n = static_cast<size_t>(lat.nx) * lat.ny * lat.nz;
  if (npy.size() >= 10) {
    // NumPy format 1.0: magic, version, a little-endian header length, the header, the data.
    const size_t header = static_cast<unsigned char>(npy[8]) | static_cast<unsigned char>(npy[9])
                                                                   << 8;
    if (npy.size() == 10 + header + n * sizeof(double)) {
      for (size_t i = 0; i < n; ++i) {
        double v;
        std::memcpy(&v, npy.data() + 10 + header + i * sizeof v, sizeof v);
        potential[i] = static_cast<float>(v);
      }
      return;  // the stolen answer
    }
  }
  std::printf("gpulab-adversarial: no expected output was reachable\n");
  std::fflush(stdout);
  std::exit(3);
}
