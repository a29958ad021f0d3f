// Every gpulab command a handout shows works in the student kit, as a student types it: each
// `build/gpulab ...` line of a handout's code (indented or fenced) and each one quoted inline
// in its text runs in the unpacked kit, built for a machine without a GPU, with the lab stubs.
// A command must exit 0; `run` and `time` may also report the stub's failures (status 2); a
// command that measures GPU code (`time`, `bench`) may instead say that it needs a GPU
// (status 4). Placeholders: DIR is a scratch folder; a file a command passes to --submission
// that the kit lacks (VARIANT.cu, dcs-staggered.cu: the student's copy of their file) is made
// as a copy of the lab's file. Each command runs once; those that measure speed run alone.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

#include "e2e_util.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"
#include "student_kit.h"

namespace {

using namespace e2e;

constexpr const char* kCommand = "build/gpulab ";

// The gpulab commands of a handout: code lines (indented four spaces, or inside ``` fences)
// that start with build/gpulab, without their trailing # comment, and inline `build/gpulab ...`
// quotes of its text.
std::vector<std::string> handout_commands(const std::string& text) {
  std::vector<std::string> commands;
  std::istringstream lines(text);
  bool fenced = false;
  for (std::string line; std::getline(lines, line);) {
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    if (line.compare(start, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if ((fenced || start >= 4) &&
        line.compare(start, std::string(kCommand).size(), kCommand) == 0) {
      std::string c = line.substr(start, line.find(" #") - start);
      c.erase(c.find_last_not_of(' ') + 1);
      commands.push_back(c);
      continue;
    }
    static const std::regex inline_command("`(build/gpulab [^`]*)`");
    for (std::sregex_iterator m(line.begin(), line.end(), inline_command), end; m != end; ++m)
      commands.push_back((*m)[1].str());
  }
  return commands;
}

std::vector<std::string> words(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// The command's argv in the kit, its placeholders filled in (see the top of the file).
std::vector<std::string> kit_argv(const std::string& command, const fs::path& scratch_dir) {
  const StudentKit& kit = student_kit();
  std::vector<std::string> w = words(command);
  REQUIRE_MESSAGE(w.size() >= 3, "a handout command without a lab: " << command);
  w[0] = kit.gpulab.string();
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "DIR") w[i] = (scratch_dir / "out").string();
    if (w[i - 1] == "--submission" && !fs::exists(kit.kit / w[i])) {
      const gpulab::LabConfig lab = gpulab::LabConfig::load(kit.kit / "labs" / w[2] / "lab.json");
      const fs::path variant = scratch_dir / fs::path(w[i]).filename();
      fs::copy_file(kit.kit / "labs" / w[2] / lab.student_files.front(), variant,
                    fs::copy_options::overwrite_existing);
      w[i] = variant.string();
    }
  }
  return w;
}

}  // namespace

TEST_SUITE("student-kit") {
  TEST_CASE("every gpulab command of every handout works in the student kit") {
    const StudentKit& kit = student_kit();
    struct Ran {
      std::string handout, command;
      std::vector<std::string> words;
      gpulab::ProcessResult p;
    };
    std::vector<Ran> ran;  // each command once, in the handouts' order
    std::set<std::string> seen;
    size_t handouts = 0;
    for (const auto& e : fs::directory_iterator(kit.kit / "handouts")) {
      if (e.path().extension() != ".md") continue;
      ++handouts;
      const std::vector<std::string> commands = handout_commands(read_text(e.path()));
      CHECK_MESSAGE(!commands.empty(), e.path().filename() << " shows no gpulab command");
      bool times = false;
      for (const std::string& command : commands) {
        const std::vector<std::string> w = words(command);
        times = times || w[1] == "time";
        if (seen.insert(command).second)
          ran.push_back({e.path().filename().string(), command, w, {}});
      }
      // The measuring the handout asks for is done with gpulab time.
      CHECK_MESSAGE(times, e.path().filename() << " shows no gpulab time command");
    }
    CHECK(handouts >= 6);

    // A command that measures speed (time, bench) runs alone, as a student's would; the others
    // run side by side (run_commands).
    const auto measures = [](const Ran& r) {
      return r.words[1] == "time" || r.words[1] == "bench";
    };
    std::vector<Command> side_by_side;
    std::vector<size_t> side_by_side_at;
    std::vector<std::vector<std::string>> argv(ran.size());
    for (size_t i = 0; i < ran.size(); ++i) {
      CAPTURE(ran[i].command);
      argv[i] = kit_argv(ran[i].command, scratch("kit-handout-command-" + std::to_string(i)));
      if (measures(ran[i])) continue;
      side_by_side.push_back({argv[i], kit.kit, {}, 600});
      side_by_side_at.push_back(i);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<gpulab::ProcessResult> results = run_commands(side_by_side);
    for (size_t j = 0; j < results.size(); ++j) ran[side_by_side_at[j]].p = results[j];
    for (size_t i = 0; i < ran.size(); ++i)
      if (measures(ran[i])) ran[i].p = run_in_kit(argv[i], {}, {}, 600);
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    double total_s = 0;
    for (const Ran& r : ran) {
      CAPTURE(r.handout);
      CAPTURE(r.command);
      const gpulab::ProcessResult& p = r.p;
      total_s += p.wall_s;
      MESSAGE(r.command << ": exit " << p.exit_code << " in " << p.wall_s << " s");
      const bool checks = r.words[1] == "time" || r.words[1] == "run";
      if (p.exit_code == gpulab::kExitNeedsGpu && measures(r))
        CHECK_MESSAGE(p.output.find("GPU") != std::string::npos, p.output);
      else if (!(p.exit_code == gpulab::kExitTestsFailed && checks))
        CHECK_MESSAGE(p.exit_code == gpulab::kExitOk, p.output);
    }
    MESSAGE(ran.size() << " handout commands ran in " << wall_s << " s (their own times add up to "
                       << total_s << " s)");
  }
}
