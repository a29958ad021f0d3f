// Hostile: at exit (an exit handler, and a static destructor), every descriptor above stderr is
// closed and /dev/null put in its place, and any findings file in the output folder is deleted
// or emptied, so that a grader reading the CPU backend's report afterwards finds it clean.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace {

void hide_findings() {
  const int null = open("/dev/null", O_WRONLY);
  for (int fd = 3; fd < 1024; ++fd)
    if (fd != null) dup2(null, fd);
  for (const char* name : {"sim-findings.jsonl", "findings.jsonl"}) {
    if (FILE* f = std::fopen(name, "w")) std::fclose(f);
    std::remove(name);
  }
}

struct Hide {
  Hide() { std::atexit(hide_findings); }
  ~Hide() { hide_findings(); }
} hide;

}  // namespace
