#include "class/grade_all_status.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "os/exit_status.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace class_files;

namespace {

// Why, from the report: its grader_error up to the first ';' or line end, short enough for a
// status line; the record's outcome where the report says nothing.
std::string why_failed(const fs::path& dir, const std::string& outcome) {
  const auto report = read_report(dir / kReport);
  if (!report) return outcome + ", and no readable report.json";
  std::string why = report->grader_error.substr(0, report->grader_error.find_first_of(";\n"));
  constexpr size_t kShown = 160;
  if (why.size() > kShown) why = why.substr(0, kShown) + "...";
  return why.empty() ? outcome : why;
}

ClassJobStatus status_of(const ClassJob& j, const std::map<fs::path, const ClassJob*>& todo) {
  ClassJobStatus s{j.lab, j.student, ClassJobState::kNotStarted, false, ""};
  if (const auto running = read_json_file(j.dir / kRunning); running && running->is_object()) {
    s.state = ClassJobState::kRunning;
    s.detail = "job " + running->value("job", std::string("?")) + " task " +
               running->value("task", std::string("?")) + " on " +
               running->value("host", std::string("?")) + " since " +
               running->value("started", std::string("?"));
    return s;
  }
  const auto record = read_json_file(j.dir / kRecord);
  if (!record || !record->is_object()) return s;
  const std::string outcome = record->value("outcome", "");
  // A record of another configuration (an old seed, a changed submission) is what the plan
  // grades again: not started until its task removes it.
  const auto planned = todo.find(j.dir);
  if (planned != todo.end() && record->value("key", json()) != planned->second->key) return s;
  if (outcome == kOutcomeGraded) {
    s.state = ClassJobState::kDone;
  } else {
    s.state = ClassJobState::kFailed;
    s.stopped = outcome == kOutcomeStopped;
    s.detail = why_failed(j.dir, outcome);
  }
  return s;
}

const char* state_name(ClassJobState s) {
  switch (s) {
    case ClassJobState::kDone:
      return "done";
    case ClassJobState::kRunning:
      return "running";
    case ClassJobState::kFailed:
      return "failed";
    case ClassJobState::kNotStarted:
      return "not started";
  }
  return "?";
}

}  // namespace

size_t ClassStatus::count(ClassJobState state) const {
  return static_cast<size_t>(std::count_if(
      jobs.begin(), jobs.end(), [&](const ClassJobStatus& j) { return j.state == state; }));
}

int ClassStatus::exit_status() const {
  if (count(ClassJobState::kDone) == jobs.size()) return kExitOk;
  const bool stopped =
      std::any_of(jobs.begin(), jobs.end(), [](const ClassJobStatus& j) { return j.stopped; });
  return stopped ? kExitStopped : kExitFailed;
}

std::string ClassStatus::text() const {
  std::ostringstream out;
  out << jobs.size() << " student-labs: " << count(ClassJobState::kDone) << " done, "
      << count(ClassJobState::kRunning) << " running, " << count(ClassJobState::kFailed)
      << " failed (stopped or grader failed), " << count(ClassJobState::kNotStarted)
      << " not started\n";
  for (const auto& j : jobs)
    if (j.state != ClassJobState::kDone)
      out << "  " << j.lab << "/" << j.student << ": " << state_name(j.state)
          << (j.detail.empty() ? "" : " (" + j.detail + ")") << "\n";
  return out.str();
}

ClassStatus class_status(const SlurmPlan& plan) {
  std::map<fs::path, const ClassJob*> todo;
  for (const auto& j : plan.todo) todo[j.dir] = &j;
  ClassStatus s;
  for (const auto& j : plan.everyone_jobs()) s.jobs.push_back(status_of(j, todo));
  return s;
}

void grade_all_status(const fs::path& out_dir, std::ostream& out) {
  out << class_status(read_plan(plan_file(fs::absolute(out_dir)))).text();
}

}  // namespace gpulab
