// The detectors' coverage (sim/README.md, contract item 4): forms/ holds the same two bugs
// written many ways, each form one program with a clean twin of each bug. Every form is built
// with the sim-cc driver; each bug must draw its finding at a line its form marks
// (`// expect: KIND [macro=NAME]`: the finding's kind there, and for a macro the message naming
// it), and each twin must run right and draw no finding at all.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim_cc.h"

namespace {

const char* const kForms[] = {"plain",  "macro",  "wrapper", "reference", "template",
                              "lambda", "vector", "pointer", "member",    "atomic"};

struct Finding {
  std::string kind, file, message;
  int line;
};

// A marked line: the kinds it expects, and the macro a finding there names.
struct Expect {
  std::set<std::string> kinds;
  std::string macro;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<int, Expect> expectations(const std::string& source) {
  std::map<int, Expect> out;
  std::istringstream lines(read_file(source));
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const size_t at = line.find("// expect: ");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 11));
    for (std::string w; words >> w;) {
      if (w.rfind("macro=", 0) == 0) {
        out[number].macro = w.substr(6);
      } else {
        out[number].kinds.insert(w);
      }
    }
  }
  return out;
}

// The report's findings (JSON lines; the end record and repeats with a larger count skipped).
std::vector<Finding> findings(const std::string& report) {
  static const std::regex record(
      R"re(^\{"kind":"([a-z_]+)","severity":"[a-z]+","file":"((?:[^"\\]|\\.)*)","line":(\d+),.*"message":"((?:[^"\\]|\\.)*)"\}$)re");
  std::vector<Finding> out;
  std::istringstream lines(read_file(report));
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, record)) out.push_back({m[1], m[2], m[4], std::stoi(m[3])});
  }
  return out;
}

struct Run {
  int status = -1;
  std::string output;
};

Run run(const std::string& command) {
  Run r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return r;
}

}  // namespace

TEST_SUITE("coverage") {
  TEST_CASE("every bug form is found at its line, every twin is clean") {
    std::filesystem::create_directories(GPULAB_TEST_OUTPUT);
    for (const std::string form : kForms) {
      CAPTURE(form);
      const std::string source = std::string(GPULAB_TEST_FORMS) + "/" + form + ".cu";
      const std::string exe = std::string(GPULAB_TEST_OUTPUT) + "/" + form;
      std::ostringstream messages;
      const int built = gpulab_sim_cc::sim_cc({source, "-o", exe}, messages);
      INFO("sim-cc said:\n" << messages.str());
      REQUIRE(built == 0);
      const std::map<int, Expect> marked = expectations(source);
      for (const std::string bug : {"oob", "race"}) {
        const std::string kind = bug == "oob" ? "out_of_bounds" : "shared_race";
        for (const bool twin : {false, true}) {
          const std::string which = bug + (twin ? "-twin" : "-bug");
          const std::string report = exe + "." + which + ".jsonl";
          std::filesystem::remove(report);
          const Run r = run("GPULAB_SIM_REPORT='" + report + "' '" + exe + "' " + which);
          const std::vector<Finding> found = findings(report);
          CAPTURE(which);
          INFO("the program printed:\n" << r.output);
          if (twin) {  // a bug's run may end as it likes
            CHECK(r.status == 0);
            CHECK(r.output.find(which + ": right") != std::string::npos);
            CHECK(found.empty());
            continue;
          }
          bool hit = false;
          for (const Finding& f : found) {
            auto at = marked.find(f.line);
            if (f.kind != kind || std::filesystem::path(f.file).filename() != form + ".cu" ||
                at == marked.end() || !at->second.kinds.count(kind)) {
              continue;
            }
            const std::string& macro = at->second.macro;
            if (macro.empty() ||
                f.message.find("the macro " + macro + ", defined at ") != std::string::npos) {
              hit = true;
            }
          }
          CHECK_MESSAGE(hit, "no " << kind << " at a line marked for it");
        }
      }
    }
  }
}
