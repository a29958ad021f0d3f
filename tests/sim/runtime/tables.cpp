// The runtime's list-macro tables and their users agree: finding kinds (finding_kinds.def) with
// kind_name() and the severity and error code a finding gets; CUDA error codes (cuda_errors.def)
// with cudaError_t, cudaGetErrorName and cudaGetErrorString; settings (settings.def) with what
// reload_settings() reads and forgets, and with sim/README.md's "Settings" table.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim_test.h"

namespace {

using gpulab_sim::finding_kind;

struct KindRow {
  finding_kind kind;
  const char* name;
  bool error;
  cudaError_t code;
};
const std::vector<KindRow> kKinds = {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) \
  {finding_kind::name, #name, std::strcmp(#severity, "error") == 0, cuda_error},
#include <gpulab_sim/finding_kinds.def>
};

struct ErrorRow {
  cudaError_t code;
  const char* name;
  int number;
  const char* text;
};
const std::vector<ErrorRow> kErrors = {
#define GPULAB_SIM_CUDA_ERROR(name, number, string) {name, #name, number, string},
#include <gpulab_sim/cuda_errors.def>
};

struct SettingRow {
  std::string variable;
  std::string value;
};
const std::vector<SettingRow> kSettings = {
#define GPULAB_SIM_SETTING(name, value, read) {"GPULAB_SIM_" #name, value},
#include "settings.def"
};

const KindRow& row_of(finding_kind k) {
  for (const auto& r : kKinds)
    if (r.kind == k) return r;
  FAIL("finding kind " << static_cast<int>(k) << " is not in finding_kinds.def");
  return kKinds.front();
}

void oob_k(int* p) {
  WR(p[threadIdx.x + 64]) = 1;
}
void uninit_k(const int* in, int* out) {
  WR(out[threadIdx.x]) = RD(in[threadIdx.x]);
}

// The README's settings table: `VARIABLE=value` of each row, with `\|` read as `|`.
std::vector<std::string> readme_settings() {
  std::ifstream in(std::string(GPULAB_SOURCE_DIR) + "/sim/README.md");
  REQUIRE_MESSAGE(in.is_open(), "sim/README.md not found under " GPULAB_SOURCE_DIR);
  std::vector<std::string> rows;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Settings";
    if (!in_section || line.rfind("| `GPULAB_SIM_", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    REQUIRE_MESSAGE(end != std::string::npos, "an unclosed ` in the README's row: " << line);
    std::string cell = line.substr(3, end - 3);
    for (size_t at; (at = cell.find("\\|")) != std::string::npos;) cell.erase(at, 1);
    rows.push_back(cell);
  }
  return rows;
}

}  // namespace

TEST_SUITE("tables") {
  TEST_CASE("every finding kind is named by its table row, one name each") {
    std::set<std::string> names;
    for (size_t i = 0; i < kKinds.size(); ++i) {
      CAPTURE(kKinds[i].name);
      // The enum's values are the rows in order, so no enum value lacks a row.
      CHECK(static_cast<size_t>(kKinds[i].kind) == i);
      CHECK(std::strcmp(gpulab_sim::kind_name(kKinds[i].kind), kKinds[i].name) == 0);
      CHECK(names.insert(kKinds[i].name).second);
      // An error's launch returns a real error; a warning's never stops anything.
      CHECK((kKinds[i].code != cudaSuccess) == kKinds[i].error);
    }
    CHECK(std::strcmp(gpulab_sim::kind_name(static_cast<finding_kind>(kKinds.size())), "unknown") ==
          0);
  }

  TEST_CASE("a finding's severity and its launch's error are its table row's") {
    fresh();
    int* p = nullptr;
    int* q = nullptr;
    REQUIRE(cudaMalloc(&p, 64 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&q, 64 * sizeof(int)) == cudaSuccess);
    LAUNCH(uninit_k, 1, 32, 0, p, q);  // p never written: a warning
    REQUIRE(found(finding_kind::uninitialised_read).size() == 1);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    LAUNCH(oob_k, 1, 32, 0, q);  // past q's end: an error
    REQUIRE(found(finding_kind::out_of_bounds).size() == 1);
    CHECK(cudaDeviceSynchronize() == row_of(finding_kind::out_of_bounds).code);
    const auto all = gpulab_sim::findings();
    CHECK(all.size() == 2);
    for (const auto& f : all) {
      CAPTURE(gpulab_sim::kind_name(f.kind));
      CHECK(f.error == row_of(f.kind).error);
    }
    fresh();
  }

  TEST_CASE("every CUDA error code has its table row's number, name and string") {
    std::set<std::string> names;
    std::set<int> numbers;
    for (const auto& e : kErrors) {
      CAPTURE(e.name);
      CHECK(static_cast<int>(e.code) == e.number);
      CHECK(std::strcmp(cudaGetErrorName(e.code), e.name) == 0);
      CHECK(std::strcmp(cudaGetErrorString(e.code), e.text) == 0);
      CHECK(std::strlen(e.text) > 0);
      CHECK(names.insert(e.name).second);
      CHECK(numbers.insert(e.number).second);
    }
    // A number in no row, as a program may cast one.
    const auto stray = static_cast<cudaError_t>(12345);
    REQUIRE(numbers.count(12345) == 0);
    CHECK(std::strcmp(cudaGetErrorName(stray), "cudaErrorUnknown") == 0);
    CHECK(std::strcmp(cudaGetErrorString(stray), "unrecognized error code") == 0);
  }

  TEST_CASE("every setting is read and then forgotten") {
    fresh();
    // Values each reader ignores or that change nothing here: a report on /dev/null, a
    // descriptor that is not a number (the file wins then), one thread, the default stack.
    const std::vector<std::pair<std::string, std::string>> values = {
        {"GPULAB_SIM_REPORT", "/dev/null"},    {"GPULAB_SIM_REPORT_FD", "none"},
        {"GPULAB_SIM_REPORT_KEY", "k3y"},      {"GPULAB_SIM_THREADS", "1"},
        {"GPULAB_SIM_BLOCK_ORDER", "reverse"}, {"GPULAB_SIM_SEED", "9"},
        {"GPULAB_SIM_STACK_KB", "128"},        {"GPULAB_SIM_PROFILE", "1"}};
    REQUIRE(values.size() == kSettings.size());
    for (const auto& s : kSettings) {
      bool given = false;
      for (const auto& [name, value] : values)
        if (name == s.variable) {
          setenv(name.c_str(), value.c_str(), 1);
          given = true;
        }
      CHECK_MESSAGE(given, s.variable << " (settings.def) has no value in this test");
    }
    gpulab_sim::detail::reload_settings();
    for (const auto& s : kSettings) {
      CAPTURE(s.variable);
      CHECK(std::getenv(s.variable.c_str()) == nullptr);
    }
    CHECK(gpulab_sim::detail::settings().threads == 1);
    CHECK(gpulab_sim::detail::settings().order == gpulab_sim::detail::block_order::reverse);
    CHECK(gpulab_sim::detail::settings().seed == 9);
    CHECK(gpulab_sim::detail::profile_on);
    gpulab_sim::detail::reload_settings();  // back to the defaults, the report closed
    CHECK(gpulab_sim::detail::settings().threads == 0);
    CHECK(!gpulab_sim::detail::profile_on);
    fresh();
  }

  TEST_CASE("sim/README.md's settings table lists every setting, and nothing else") {
    const auto rows = readme_settings();
    std::set<std::string> documented(rows.begin(), rows.end());
    CHECK(documented.size() == rows.size());
    std::set<std::string> defined;
    for (const auto& s : kSettings) {
      const std::string cell = s.variable + "=" + s.value;
      defined.insert(cell);
      CHECK_MESSAGE(documented.count(cell), "sim/README.md, \"Settings\", lacks `" << cell << "`");
    }
    for (const auto& cell : documented)
      CHECK_MESSAGE(defined.count(cell),
                    "sim/README.md, \"Settings\", lists `" << cell << "`, not in settings.def");
  }
}
