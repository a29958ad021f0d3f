#include "cli/run_terminal.h"

#include <unistd.h>

#include <iostream>

#include "grade/failure_messages.h"
#include "grade/grade_steps.h"
#include "os/exit_status.h"
#include "os/progress.h"
#include "os/stop_signals.h"
#include "report/report_formats.h"
#include "text/terminal_style.h"

namespace gpulab {

int run_and_show(GradeOptions options, const ReportOut& out, bool verbose) {
  StepCounter steps(std::cerr, Progress::is_tty(STDERR_FILENO) && !verbose,
                    Progress::terminal_width(STDERR_FILENO));
  LogSteps lines(steps.log());
  options.steps = verbose ? static_cast<GradeSteps*>(&lines) : &steps;
  const Report report = grade(options, steps.log());
  steps.clear();
  finishing();  // a late stop signal now waits for this report (stop_signals.h)
  if (!out.path.empty()) {
    out.write(report);
    std::cout << "wrote " << out.path.string() << "\n";
  }
  const TerminalStyle style = TerminalStyle::for_fd(STDOUT_FILENO);
  if (!report.rows.empty()) std::cout << report.table(style);
  std::cout << failure_messages(report, style);
  if (!report.rows.empty() || report.any_failed()) std::cout << "\n";
  std::cout << report.summary(style, /*student=*/true) << std::flush;
  if (report.stopped_by) return kExitStopped;
  if (!report.grader_error.empty()) return kExitFailed;
  return report.any_failed() ? kExitTestsFailed : kExitOk;
}

}  // namespace gpulab
