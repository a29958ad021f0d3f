#include "report/report_headline.h"

#include "os/stop_signals.h"

namespace gpulab {

std::string report_headline(const Report& report) {
  if (report.stopped_by)
    return "The grading was stopped (" + signal_name(report.stopped_by) +
           ") before it finished, so no score was given; the tests below are those finished "
           "before it stopped.\n" +
           report.output;
  if (!report.grader_error.empty())
    return "The grader failed; no score was given. " + report.grader_error;
  return report.output;
}

}  // namespace gpulab
