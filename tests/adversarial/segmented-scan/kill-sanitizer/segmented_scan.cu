// Hostile, appended to the reference (expect.json plants a read one byte past the flags and calls
// this at the start of every segmented_scan): where the run is under compute-sanitizer (its
// injection library in the environment), kill the tool, this process's parent, and go on. The
// run finishes and hands over right outputs; the tool's summary, and its error status for the
// planted read, never come. gpulab read such a tool as one that "did not run here" and the
// dataset passed; a run that cuts the tool short now fails it.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

// C linkage: the call sits in the reference's anonymous namespace.
extern "C" void gpulab_quiet_the_tool() {
  static bool done = false;
  if (done) return;
  done = true;
  for (const char* name : {"CUDA_INJECTION64_PATH", "LD_PRELOAD"}) {
    const char* value = std::getenv(name);
    if (value && std::strstr(value, "sanitizer")) {
      kill(getppid(), SIGKILL);
      return;
    }
  }
}
