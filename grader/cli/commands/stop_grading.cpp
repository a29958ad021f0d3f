#include "cli/commands/stop_grading.h"

#include <iostream>

#include "os/stop_signals.h"

namespace gpulab {

void stop_grading_on_signals(const GradeOptions& o, const ReportOut& out) {
  stop_on_signals(kStopGraceS, [o, out](int signal) {
    if (!out.path.empty()) out.write(stopped_report(o, signal));
    std::cerr << "gpulab: stopped by " << signal_name(signal) << " before the grading finished"
              << (out.path.empty() ? "" : "; wrote " + out.path.string()) << "\n";
  });
}

}  // namespace gpulab
