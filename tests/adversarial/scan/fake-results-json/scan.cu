// Hostile: prints a results.json of its own (full marks) and writes a runner result.json into
// its working directory, the run's output directory, saying "status": "ok" with a fast time and
// an enormous amount of work; then leaves before the runner can write the real one. The grader
// scores only what it compares itself: the outputs it reads back are not there.
#include <cstdio>
#include <cstdlib>

#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  std::printf(
      "{\"score\": 100.0, \"output\": \"All tests passed.\", \"tests\": [{\"name\": "
      "\"exclusive\", \"score\": 100.0, \"max_score\": 100.0, \"status\": \"passed\"}]}\n");
  if (std::FILE* f = std::fopen("result.json", "w")) {
    std::fprintf(f,
                 "{\"status\": \"ok\", \"part\": \"exclusive\", \"outputs\": [\"exclusive\"], "
                 "\"work\": 1e30, \"timing\": {\"median_ms\": 1e-6, \"samples\": 10, "
                 "\"samples_ms\": [1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6], "
                 "\"converged\": true, \"clock\": \"gpu-events\"}}\n");
    std::fclose(f);
  }
  std::fflush(stdout);
  std::_Exit(0);
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
