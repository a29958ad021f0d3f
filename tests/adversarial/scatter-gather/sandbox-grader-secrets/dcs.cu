// Hostile: at run time, looks for the grader's secrets: a hidden seed in its environment, and
// the command lines of every process it can see (the grader's holds --hidden-seed). The sandbox
// passes a short list of environment variables and shows only the sandbox's own processes.
#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "dcs.h"

extern char** environ;

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float*, int, Lattice, float*) {
  std::string found;
  for (char** e = environ; *e; ++e)
    if (std::strstr(*e, "HIDDEN_SEED")) found += std::string(" environment ") + *e + ";";
  if (DIR* proc = opendir("/proc")) {
    while (dirent* e = readdir(proc)) {
      std::ifstream in(std::string("/proc/") + e->d_name + "/cmdline", std::ios::binary);
      std::ostringstream cmdline;
      cmdline << in.rdbuf();
      std::string text = cmdline.str();
      for (char& c : text)
        if (c == '\0') c = ' ';
      if (text.find("--hidden-seed") != std::string::npos) found += " process: " + text + ";";
    }
    closedir(proc);
  }
  if (found.empty())
    std::printf("gpulab-adversarial: no grader secret was visible\n");
  else
    std::printf("gpulab-adversarial: grader secrets:%s\n", found.c_str());
  std::fflush(stdout);
  std::exit(3);
}
