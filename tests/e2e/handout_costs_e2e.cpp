// End-to-end: every figure of the CPU backend's cost model that a handout quotes for the
// reference (a predict-then-measure step's answer) is what the cost model says. Each such
// figure carries a marker beside it in the handout, hidden where it is rendered:
//
//   <!-- gpulab-cost: LAB | PART | DATASET | COLUMN | VALUE -->
//
// The test costs the reference of LAB on PART and DATASET (`gpulab time LAB --part PART
// --dataset DATASET --backend sim --submission reference/LAB`) and requires COLUMN of the
// reference's row for all its kernels (its one kernel's row, where it has one) to print VALUE,
// and the handout's text before the marker, in the same step, to quote VALUE.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <sstream>

#include "e2e_util.h"
#include "text/text_edits.h"

namespace {

using namespace e2e;
using gpulab::trimmed;

struct Quoted {
  fs::path handout;
  std::string lab, part, dataset, column, value;
  std::string before;  // the handout's text from the step's start up to the marker
};

// The cells of a table line: runs of text separated by two spaces or more.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  static const std::regex gap(" {2,}");
  const std::string t = trimmed(line);
  for (std::sregex_token_iterator it(t.begin(), t.end(), gap, -1), end; it != end; ++it)
    if (!it->str().empty()) out.push_back(*it);
  return out;
}

std::vector<Quoted> quoted_costs() {
  std::vector<Quoted> found;
  static const std::regex marker(
      R"(<!-- gpulab-cost: ([^|]+)\|([^|]+)\|([^|]+)\|([^|]+)\|([^|]+?) *-->)");
  for (const auto& e : fs::directory_iterator(kSource / "handouts")) {
    if (e.path().extension() != ".md") continue;
    std::istringstream lines(read_text(e.path()));
    std::string step;  // since the last blank line before a numbered step or heading
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (std::regex_search(line, m, marker)) {
        found.push_back({e.path(), trimmed(m[1]), trimmed(m[2]), trimmed(m[3]), trimmed(m[4]),
                         trimmed(m[5]), step});
        continue;
      }
      static const std::regex starts_step(R"(^(\d+\. |#))");
      if (std::regex_search(line, starts_step)) step.clear();
      step += line + "\n";
    }
  }
  return found;
}

}  // namespace

TEST_SUITE("writeup") {
  TEST_CASE("every cost-model figure a handout quotes for the reference is the cost model's") {
    const std::vector<Quoted> quoted = quoted_costs();
    CHECK(quoted.size() >= 7);
    // One costing per lab, part and dataset.
    std::map<std::string, size_t> run_of;
    std::vector<Command> commands;
    for (const Quoted& q : quoted) {
      const std::string key = q.lab + " " + q.part + " " + q.dataset;
      if (run_of.count(key)) continue;
      run_of[key] = commands.size();
      commands.push_back(
          {{GPULAB_TEST_BINARY, "time", q.lab, "--part", q.part, "--dataset", q.dataset,
            "--backend", "sim", "--submission", (kSource / "reference" / q.lab).string()},
           kSource,
           {},
           900});
    }
    const std::vector<gpulab::ProcessResult> results = run_commands(commands);
    for (const Quoted& q : quoted) {
      CAPTURE(q.handout);
      CAPTURE(q.lab + " " + q.part + " " + q.dataset + " " + q.column);
      const gpulab::ProcessResult& p = results[run_of[q.lab + " " + q.part + " " + q.dataset]];
      REQUIRE_MESSAGE(p.exit_code == 0, p.output);
      // The table's header names the columns; the reference's rows follow "yours".
      std::vector<std::string> header, row;
      std::istringstream out(p.output);
      for (std::string line; std::getline(out, line);) {
        const std::vector<std::string> c = cells(line);
        if (!c.empty() && c[0] == "kernel") header = c;
        if (c.size() > 1 && c[0] == "reference" && (row.empty() || c[1] == "all kernels"))
          row.assign(c.begin() + 1, c.end());
      }
      REQUIRE_MESSAGE(!header.empty(), p.output);
      REQUIRE_MESSAGE(row.size() == header.size(), p.output);
      const auto at = std::find(header.begin(), header.end(), q.column);
      REQUIRE_MESSAGE(at != header.end(), "no column " << q.column << " in\n" << p.output);
      CHECK_MESSAGE(row[at - header.begin()] == q.value, "the handout says "
                                                             << q.value << "; the cost model says "
                                                             << row[at - header.begin()]);
      CHECK_MESSAGE(q.before.find(q.value) != std::string::npos, "the step's text does not quote "
                                                                     << q.value << ":\n"
                                                                     << q.before);
    }
  }
}
