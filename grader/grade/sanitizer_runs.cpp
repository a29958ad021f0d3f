#include "grade/sanitizer_runs.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string_view>

#include "core/grade_phases.h"
#include "files/remove_tree.h"
#include "run/run_output.h"
#include "run/runner_client.h"
#include "text/joined_words.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

// One run under a tool, on the clock: the tools slow kernels down tens of times (racecheck the
// most), and the public datasets are small.
constexpr double kSanitizedRunLimitS = 300;
RunLimit sanitized_run_limit() {
  return RunLimit::clock(kSanitizedRunLimitS,
                         "the limit under compute-sanitizer is " +
                             std::to_string(static_cast<int>(kSanitizedRunLimitS)) +
                             " s on the clock");
}
// The grading's processes, which run every part's picked datasets, stop sooner: past it, each
// group runs its own under the limit above. A hang under the tool on a part graded later, which
// no correctness run has met yet, holds the grading this long, not the limit above.
constexpr double kGradingRunsLimitS = 60;
// What a note quotes of a run's output.
constexpr size_t kOutputQuoted = 1000;

// The tools the grading runs: all of them for `run --sanitize`, none for `run` without it,
// grade_sanitizer_tools for grade.
std::vector<std::string> asked_tools(const GradeContext& c) {
  if (c.o.sanitize) return *c.o.sanitize ? sanitizer_tools() : std::vector<std::string>{};
  return grade_sanitizer_tools(c.lab, c.work / "submission");
}

// A student file is read this far for the word: the intake caps what a submission holds.
constexpr size_t kSharedWordRead = size_t{8} << 20;

// Read in pieces, each kept with the end of the one before so that the word is found across
// their seam.
bool spells_shared(const fs::path& file) {
  static constexpr std::string_view kWord = "__shared__";
  constexpr size_t kPiece = size_t{64} << 10;
  std::ifstream in(file, std::ios::binary);
  std::string text;
  for (size_t read = 0; in && read < kSharedWordRead; read += kPiece) {
    const size_t kept = text.size();
    text.resize(kept + kPiece);
    in.read(text.data() + kept, static_cast<std::streamsize>(kPiece));
    text.resize(kept + static_cast<size_t>(in.gcount()));
    if (text.find(kWord) != std::string::npos) return true;
    if (text.size() >= kWord.size()) text.erase(0, text.size() - (kWord.size() - 1));
  }
  return false;
}

// What a dataset's input folder holds, in bytes (the grader wrote it).
uintmax_t input_bytes(const fs::path& input) {
  uintmax_t n = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) n += it->file_size(ec);
  return n;
}

// The log a run left in `out_dir`, as much of it as is read.
std::string read_log(const fs::path& out_dir) {
  const RunOutput output(out_dir);
  RunFile file = output.open(kSanitizerLog);
  if (!file.is_open()) return {};
  std::string text(kSanitizerLogLimit, '\0');
  file.stream().read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(file.stream().gcount()));
  return text;
}

}  // namespace

std::shared_ptr<SanitizerRuns> SanitizerRuns::for_grading(const GradeContext& c,
                                                          ReportBuilder& out) {
  const std::vector<std::string> tools = asked_tools(c);
  if (tools.empty()) return nullptr;
  const bool asked = c.o.sanitize.value_or(false);  // by the person running gpulab run
  const std::string title = "compute-sanitizer not run: ";
  if (c.sim()) {
    if (asked)
      out.info(title + "the CPU backend checks for the same bugs itself",
               "compute-sanitizer runs on a GPU (the cuda backend); the CPU backend checks every "
               "run for the same bugs itself.",
               {});
    return nullptr;
  }
  if (!c.device.usable) {  // GPU parts are not run at all then, which the report says
    if (asked)
      out.info(title + "no usable GPU",
               "There is no usable CUDA GPU here (" + c.device.problem + ").", {});
    return nullptr;
  }
  std::string why;
  fs::path tool = find_compute_sanitizer(c.paths.nvcc, why);
  std::error_code ec;
  if (!tool.empty() && !fs::is_regular_file(c.paths.confine(), ec)) {
    // Without it the run could signal the tool that watches it: no run under the tool at all.
    tool.clear();
    why = c.paths.confine().string() + ", which starts the runner under the tool, is missing " +
          "(cmake --build " + c.paths.build.string() + " --target gpulab-confine)";
  }
  if (tool.empty()) {
    if (asked) throw std::runtime_error("--sanitize: " + why);
    out.info(title + "not installed",
             "lab.json asks grading to run compute-sanitizer on the public datasets, "
             "but " +
                 why + "; no dataset fails for it.",
             {});
    return nullptr;
  }
  return std::make_shared<SanitizerRuns>(c, std::move(tool), tools, asked);
}

SanitizerRuns::Batch* SanitizerRuns::grading_runs_for(const PartSpec& part, const GroupSpec& g) {
  if (!grading_tried_) {
    grading_tried_ = true;
    start_for_grading(part);
  }
  return grading_ && grading_->covers(part, g.name) ? &*grading_ : nullptr;
}

void SanitizerRuns::start_for_grading(const PartSpec& from) {
  if (asked_) return;  // run --sanitize: each dataset's own processes, to say which one
  const GradeScope& scope = c_.scope;
  std::vector<Job> jobs;
  try {
    bool reached = false;  // the parts graded before `from` are done
    for (const PartSpec& part : c_.lab.parts) {
      reached = reached || &part == &from;
      if (!reached || !part.gpu || !scope.part_selected(part.name) || !scope.gpu_parts_run)
        continue;
      for (const GroupSpec& g : c_.lab.groups) {
        if (!applies(part, g) || !scope.group_runs(g)) continue;
        std::vector<DatasetDirs> made;
        std::vector<fs::path> inputs;
        for (const DatasetSpec* ds : scope.datasets(g, part.name)) {
          made.push_back(c_.dataset(g, *ds));
          inputs.push_back(made.back().input);
        }
        for (size_t i : pick(inputs)) jobs.push_back({&part, made[i], {}});
      }
    }
  } catch (const std::exception& e) {  // told where that part makes it
    c_.log << "  every part's datasets under compute-sanitizer together: not done (" << e.what()
           << "); each part's run under the tools alone\n";
    return;
  }
  if (jobs.empty()) return;
  grading_.emplace(*this, true);
  grading_->start(jobs);
}

const SanitizerRuns::Verdict& SanitizerRuns::grading_verdict() {
  // None yet is no verdict to keep: a later part may still start them (a CPU part comes first).
  static const Verdict kNone;
  if (!grading_) return kNone;
  if (!grading_verdict_) grading_verdict_ = grading_->verdicts().at(0);
  return *grading_verdict_;
}

std::vector<std::string> grade_sanitizer_tools(const LabConfig& lab, const fs::path& submission) {
  if (!lab.sanitize_tools.empty()) return lab.sanitize_tools;
  std::vector<std::string> tools = {"memcheck", "initcheck"};
  if (std::any_of(lab.student_files.begin(), lab.student_files.end(),
                  [&](const std::string& f) { return spells_shared(submission / f); }))
    tools.insert(tools.end(), {"racecheck", "synccheck"});
  return tools;
}

bool SanitizerRuns::applies(const PartSpec& part, const GroupSpec& g) const {
  return part.gpu && !g.hidden && !g.timing;
}

std::vector<size_t> SanitizerRuns::pick(const std::vector<fs::path>& inputs) const {
  std::vector<size_t> picked(inputs.size());
  for (size_t i = 0; i < picked.size(); ++i) picked[i] = i;
  if (asked_ || picked.size() <= static_cast<size_t>(c_.lab.sanitize_datasets)) return picked;
  std::vector<uintmax_t> bytes(inputs.size());
  for (size_t i : picked) bytes[i] = input_bytes(inputs[i]);
  std::stable_sort(picked.begin(), picked.end(),
                   [&](size_t a, size_t b) { return bytes[a] < bytes[b]; });
  picked.resize(static_cast<size_t>(c_.lab.sanitize_datasets));
  std::sort(picked.begin(), picked.end());
  return picked;
}

std::vector<size_t> SanitizerRuns::Batch::start(const std::vector<Job>& jobs) {
  std::vector<size_t> places;
  if (s_.asked_) {
    for (const Job& job : jobs) places.push_back(start_together({job}));
  } else if (!jobs.empty()) {
    places.assign(jobs.size(), start_together(jobs));
  }
  return places;
}

size_t SanitizerRuns::Batch::start_together(std::vector<Job> jobs) {
  const GradeContext& c = s_.c_;
  // "P on a, b; Q on c": each part's datasets, in the order they run.
  std::string what;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const bool same_part = j > 0 && jobs[j].part == jobs[j - 1].part;
    what += same_part ? ", " : (j > 0 ? "; " : "") + jobs[j].part->name + " on ";
    what += jobs[j].d.name;
  }
  c.steps.note(what + " under compute-sanitizer " + joined(s_.tools_) +
               (grading_ ? ", one process per tool for the grading" : "") +
               ", beside the correctness runs");
  Started& started = started_.emplace_back();
  started.jobs = std::move(jobs);
  started.runs.resize(s_.tools_.size());
  for (size_t t = 0; t < s_.tools_.size(); ++t)
    work_.add([this, &c, &started, t] {
      ToolRun& into = started.runs[t];
      if (started.cancelled) {  // before it started
        into.o.process.cancelled = true;
        return;
      }
      const std::string& tool = s_.tools_[t];
      const Job& first = started.jobs.front();
      const BuildResult& b = c.student;  // the graded runner, with line information
      const fs::path out = c.work / "sanitizer-runs" / tool / (grading_ ? "grading" : "") /
                           first.part->name / first.d.group / first.d.name;
      remove_tree(out);  // an earlier grading's run (remove_tree.h)
      // The tool starts gpulab-confine, which becomes the runner under a seccomp filter that
      // keeps it from signalling, tracing or limiting the tool (seccomp_filter.h).
      RunRequest run(b.runner, *first.part, first.d, out, limit());
      const fs::path confine = c.paths.confine();
      run.wrapper = {sanitizer_command(s_.tool_, tool, {confine.string()}), {confine}};
      // The toolkit the tool belongs to (its bin/ holds a script that starts the tool from
      // there), where the sandbox does not show it already as part of the system.
      std::error_code ec;
      const fs::path toolkit = fs::weakly_canonical(s_.tool_, ec).parent_path().parent_path();
      if (!toolkit.empty() && toolkit != "/") run.wrapper.read_only.push_back(toolkit);
      // The tool starts threads of its own when it likes: the run's are not checked (its outputs
      // and time never count). A dataset run alone keeps its correctness run's flags (a call
      // twice); together, the others follow as samples.
      if (started.jobs.size() == 1) run.flags = first.flags;
      run.flags.push_back(kUnderToolFlag);
      bool other_parts = false;
      for (size_t j = 1; j < started.jobs.size(); ++j) {
        run.samples.push_back(started.jobs[j].d);
        run.sample_parts.push_back(started.jobs[j].part);
        other_parts = other_parts || started.jobs[j].part != first.part;
      }
      if (!other_parts) run.sample_parts.clear();  // the runner's default: its part's
      run.cancel = &started.cancelled;
      into.o = run_runner(c.place(), run);
      if (!into.o.process.cancelled) into.r = parse_sanitizer_log(read_log(out), tool);
    });
  return started_.size() - 1;
}

bool SanitizerRuns::Batch::covers(const PartSpec& part, const std::string& group) const {
  for (const Started& started : started_)
    for (const Job& job : started.jobs)
      if (job.part == &part && job.d.group == group) return true;
  return false;
}

void SanitizerRuns::Batch::cancel(size_t v) {
  started_.at(v).cancelled = true;
}

size_t SanitizerRuns::Batch::again(size_t v) {
  return start_together(started_.at(v).jobs);
}

std::vector<SanitizerRuns::Verdict> SanitizerRuns::Batch::verdicts() {
  {
    // Only what is left to wait for counts: the rest went beside the correctness runs.
    const ScopedPhase phase(GradePhase::kSanitizer);
    work_.wait();
  }
  std::vector<Verdict> verdicts;
  for (const Started& started : started_) verdicts.push_back(verdict(started));
  return verdicts;
}

RunLimit SanitizerRuns::Batch::limit() const {
  if (!grading_) return sanitized_run_limit();
  return RunLimit::clock(kGradingRunsLimitS,
                         "the limit of the grading's runs under compute-sanitizer is " +
                             std::to_string(static_cast<int>(kGradingRunsLimitS)) +
                             " s on the clock");
}

SanitizerRuns::Verdict SanitizerRuns::Batch::verdict(const Started& started) const {
  const RunLimit limit = this->limit();
  Verdict v;
  for (const Job& job : started.jobs) v.datasets.push_back(job.d.name);
  for (size_t t = 0; t < started.runs.size(); ++t) {
    const std::string& tool = s_.tools_[t];
    const RunOutcome& o = started.runs[t].o;
    const SanitizerReport& r = started.runs[t].r;
    if (o.process.cancelled) {  // its dataset hung, or did not run: its line says so
      v.cancelled = true;
      continue;
    }
    const bool fails = sanitizer_fails(r, o.process.exit_code);
    const std::string cut =
        sanitizer_cut_short(r, {o.process.exit_code, o.process.signal, o.timed_out,
                                !o.result.is_null() || !o.outputs->names().empty()});
    if (!cut.empty()) {  // whatever the log shows besides: the tool did not see the whole run
      v.fails = v.cut_short = true;
      v.notes += "\n  compute-sanitizer " + tool + cut +
                 ". This lab's public datasets run under the tool too, and a run "
                 "that does not let it finish, or that touches its log, fails the dataset. Does "
                 "your code signal other processes or write files? `gpulab run --sanitize` "
                 "shows the tool's own words.";
      v.findings.insert(v.findings.end(), r.findings.begin(), r.findings.end());
      continue;
    }
    if (!r.started && !fails) {
      v.notes +=
          "\n  compute-sanitizer " + tool + " did not run here (it " + o.process.describe() + ")" +
          (o.process.output.empty() ? "" : ": " + quote_tail(o.process.output, kOutputQuoted));
      continue;
    }
    // The tool ran, but the runner under it did not finish (no record came over its channel):
    // what the tool saw is not the whole run, and the note says so.
    if (!fails && o.result.is_null())
      v.notes += "\n  compute-sanitizer " + tool + " ran, but the run under it did not finish (" +
                 quote_head(o.message, kOutputQuoted) + ")";
    v.fails = v.fails || fails;
    const bool shown_fails = std::any_of(r.findings.begin(), r.findings.end(),
                                         [](const SanitizerFinding& f) { return f.fails; });
    v.findings.insert(v.findings.end(), r.findings.begin(), r.findings.end());
    if (fails && !shown_fails)  // counted, or the exit status says so, but its log shows none
      v.notes += "\n  compute-sanitizer " + tool + " found " +
                 (r.errors > 0 ? std::to_string(r.errors) + " errors" : std::string("errors")) +
                 " that its log does not show";
    else if (!r.summarized && !fails)
      v.notes += "\n  compute-sanitizer " + tool + " stopped before its end (the run " +
                 limit.describe(o.process) + "); what it found until then is shown";
  }
  return v;
}

}  // namespace gpulab
