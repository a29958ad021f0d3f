// What `gpulab run` settles before grading, beyond grade's own options: where the student's
// files are (lab_tree.h) and which backend runs them (run_backend.h); each says so in one line
// on `note` where the student might not expect it.
#pragma once

#include <ostream>

#include "grade/grade.h"

namespace gpulab {

struct RunSetupFacts {
  bool backend_given = false;      // --backend was on the command line
  bool cuda_runners_built = true;  // GPULAB_HAVE_CUDA_RUNNERS (main.cpp's build)
};

// Fills in o.submission (when empty) and o.backend (unless given); for a lab that does not load
// (a misspelt id, say), nothing: grading refuses it with its own message and report.
void settle_run_options(GradeOptions& o, const RunSetupFacts& facts, std::ostream& note);

}  // namespace gpulab
