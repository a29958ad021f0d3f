// End-to-end: every write-up can be filled in without a GPU. Each section of a lab's REPORT.md
// that measures with `gpulab time` shows the same commands with `--backend sim` (the CPU
// backend's cost model, sim/README.md), and each of those runs in the build tree with the lab's
// stub: it exits 0 (or 2, where a CPU part it times gets the stub's wrong outputs), never 4 (a
// GPU needed), and prints a table. A file a command passes to --submission is the student's
// copy of their file, made here as a copy of the stub; commands that differ only in it would
// print the same, so each other command runs once.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include "e2e_util.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

constexpr const char* kCommand = "build/gpulab time ";

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// A write-up's `gpulab time` lines, by section (its "## " heading).
std::map<std::string, std::vector<std::string>> time_commands(const fs::path& report) {
  std::map<std::string, std::vector<std::string>> by_section;
  std::istringstream lines(read_text(report));
  std::string section;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("## ", 0) == 0) section = line;
    if (line.rfind(kCommand, 0) == 0) by_section[section].push_back(line);
  }
  return by_section;
}

}  // namespace

TEST_SUITE("writeup") {
  TEST_CASE("every write-up's measurements have a CPU-backend command, and each runs") {
    std::vector<Command> commands;
    std::vector<std::string> shown;
    std::set<std::string> seen;
    size_t labs = 0;
    for (const auto& e : fs::directory_iterator(kSource / "labs")) {
      const fs::path report = e.path() / "REPORT.md";
      if (!fs::exists(report)) continue;
      ++labs;
      const gpulab::LabConfig lab = gpulab::LabConfig::load(e.path() / "lab.json");
      const fs::path variants = scratch("writeup-" + lab.id);  // the student's copies
      for (const auto& [section, lines] : time_commands(report)) {
        CAPTURE(report);
        CAPTURE(section);
        bool sim = false;
        for (const std::string& line : lines) {
          std::vector<std::string> w = words(line);
          if (std::find(w.begin(), w.end(), "--backend") == w.end()) continue;
          sim = true;
          CHECK(w[w.size() - 2] == "--backend");
          CHECK(w.back() == "sim");
          std::vector<std::string> argv = {GPULAB_TEST_BINARY};
          std::string key;
          for (size_t i = 1; i < w.size(); ++i) {
            if (w[i] == "--submission") {
              const fs::path variant = variants / fs::path(w[++i]).filename();
              fs::copy_file(e.path() / lab.student_files.front(), variant,
                            fs::copy_options::overwrite_existing);
              argv.insert(argv.end(), {"--submission", variant.string()});
              continue;
            }
            argv.push_back(w[i]);
            key += w[i] + " ";
          }
          if (!seen.insert(key).second) continue;
          commands.push_back({argv, kSource, {}, 900});
          shown.push_back(line);
        }
        CHECK_MESSAGE(sim, "no `--backend sim` line beside the section's gpulab time commands");
      }
    }
    CHECK(labs >= 7);
    const std::vector<gpulab::ProcessResult> results = run_commands(commands);
    for (size_t i = 0; i < results.size(); ++i) {
      const gpulab::ProcessResult& p = results[i];
      CAPTURE(shown[i]);
      MESSAGE(shown[i] << ": exit " << p.exit_code << " in " << p.wall_s << " s");
      CHECK_MESSAGE((p.exit_code == gpulab::kExitOk || p.exit_code == gpulab::kExitTestsFailed),
                    p.output);
      CHECK_MESSAGE((said(p, "the CPU backend's cost model") || said(p, "yours ms")), p.output);
      CHECK_MESSAGE(!said(p, "not costed"), p.output);
    }
  }
}
