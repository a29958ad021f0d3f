#include "e2e_util.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>

#include "files/remove_tree.h"

namespace e2e {

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("gpulab-e2e-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path lab_source_copy(const std::string& name, const std::string& lab) {
  const fs::path src = scratch(name);
  for (const char* folder : {"labs", "reference"}) {
    fs::create_directories(src / folder);
    fs::copy(kSource / folder / lab, src / folder / lab, fs::copy_options::recursive);
  }
  return src;
}

int remove_scratch() {
  const std::string suffix = "-" + std::to_string(getpid());
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(fs::temp_directory_path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("gpulab-e2e-", 0) != 0 || name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    // The grader's sandboxed users may own what a run left there: gpulab's own removal.
    if (gpulab::remove_tree(it->path()).empty()) ++removed;
  }
  return removed;
}

gpulab::ProcessResult run_command(std::vector<std::string> argv, const fs::path& cwd,
                                  std::vector<std::string> env, double timeout_s) {
  gpulab::ProcessOptions po;
  po.argv = std::move(argv);
  po.cwd = cwd;
  po.timeout_s = timeout_s;
  po.output_limit = 1 << 20;
  po.env = std::move(env);
  return gpulab::run_process(po);
}

std::vector<gpulab::ProcessResult> run_commands(const std::vector<Command>& commands) {
  std::vector<gpulab::ProcessResult> results(commands.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i; (i = next++) < commands.size();) {
      const Command& c = commands[i];
      try {
        results[i] = run_command(c.argv, c.cwd, c.env, c.timeout_s);
      } catch (...) {  // run_process's Stopped, which would end a worker with std::terminate
        results[i].start_error = "the test process was told to stop";
      }
    }
  };
  std::vector<std::thread> workers;
  const size_t n =
      std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), commands.size());
  for (size_t w = 1; w < n; ++w) workers.emplace_back(work);
  work();
  for (auto& t : workers) t.join();
  return results;
}

gpulab::ProcessResult unpack_gradescope(const fs::path& zip, const fs::path& root) {
  fs::create_directories(root / "results");
  fs::create_directories(root / "submission");
  return run_command({"unzip", "-q", zip.string(), "-d", (root / "source").string()},
                     root.parent_path());
}

bool said(const gpulab::ProcessResult& p, const std::string& text) {
  return p.output.find(text) != std::string::npos;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Graded grade(const std::string& lab, const fs::path& submission, std::vector<std::string> extra,
             double timeout_s, std::vector<std::string> env) {
  return grade_to(scratch(lab + "-" + submission.filename().string()) / "results.json", lab,
                  submission, std::move(extra), timeout_s, std::move(env));
}

Graded grade_to(const fs::path& report, const std::string& lab, const fs::path& submission,
                std::vector<std::string> extra, double timeout_s, std::vector<std::string> env) {
  fs::create_directories(report.parent_path());
  std::vector<std::string> argv = {
      GPULAB_TEST_BINARY, "grade",         lab,        "--submission", submission.string(), "--out",
      report.string(),    "--hidden-seed", kHiddenSeed};
  argv.insert(argv.end(), extra.begin(), extra.end());
  Graded g;
  g.process =
      gpulab::run_process({argv, report.parent_path(), timeout_s, 1 << 20, 0, 0, std::move(env)});
  REQUIRE_MESSAGE(fs::is_regular_file(report), "no report was written; gpulab said:\n"
                                                   << g.process.output);
  g.report = read_report(report);
  return g;
}

fs::path reports_read_folder() {
  return fs::temp_directory_path() / ("gpulab-e2e-reports-read-" + std::to_string(getpid()));
}

namespace {

// A copy of a report read, for e2e_main's schema check: numbered in the order read, named after
// the report's path so that a violation names the report.
void keep_copy(const fs::path& file, const std::string& text) {
  static int count = 0;
  std::string name = file.string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  if (name.size() > 150) name = name.substr(name.size() - 150);
  char prefix[16];
  std::snprintf(prefix, sizeof prefix, "%05d", ++count);
  fs::create_directories(reports_read_folder());
  std::ofstream(reports_read_folder() / (std::string(prefix) + name + ".json"), std::ios::binary)
      << text;
}

}  // namespace

json read_report(const fs::path& file) {
  REQUIRE_MESSAGE(fs::is_regular_file(file), "cannot read the report " << file.string());
  const std::string text = read_text(file);
  keep_copy(file, text);
  return json::parse(text);
}

namespace {

// A /proc file's text; "" where it cannot be read. A process can end between the open and the
// read, which then fails (ESRCH): that is an ended process, not an error of the test.
std::string read_proc(const fs::path& file) {
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fd);
  return text;
}

}  // namespace

std::vector<std::string> leftover_processes() {
  std::vector<std::string> left;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  for (;;) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    left.clear();
    for (const auto& e : fs::directory_iterator("/proc")) {
      const std::string pid = e.path().filename().string();
      if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
      const std::string stat = read_proc(e.path() / "stat");
      const size_t end = stat.rfind(')');
      if (end == std::string::npos) continue;
      char state = 0;
      long ppid = 0;
      if (std::sscanf(stat.c_str() + end + 1, " %c %ld", &state, &ppid) != 2) continue;
      if (ppid != getpid() || state == 'Z') continue;
      std::string cmdline = read_proc(e.path() / "cmdline");
      for (char& c : cmdline)
        if (c == '\0') c = ' ';
      left.push_back(pid + ": " + cmdline.substr(0, 200));
    }
    if (left.empty() || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (const auto& l : left) kill(std::stoi(l.substr(0, l.find(':'))), SIGKILL);
  while (!left.empty() && waitpid(-1, nullptr, 0) > 0) {
  }
  return left;
}

json test_named(const json& report, const std::string& prefix) {
  const json* found = nullptr;
  for (const auto& t : report.at("tests"))
    if (t.at("name").get<std::string>().rfind(prefix, 0) == 0) {
      REQUIRE_MESSAGE(found == nullptr, "two tests start with " << prefix);
      found = &t;
    }
  REQUIRE_MESSAGE(found != nullptr, "no test starts with " << prefix << " in\n" << report.dump(2));
  return *found;
}

std::string plain_text(const std::string& markdown) {
  std::string out;
  out.reserve(markdown.size());
  for (size_t i = 0; i < markdown.size(); ++i) {
    if (markdown[i] == '\\' && i + 1 < markdown.size() &&
        std::ispunct(static_cast<unsigned char>(markdown[i + 1])))
      ++i;
    out += markdown[i];
  }
  return out;
}

bool contains(const json& t, const std::string& text) {
  return plain_text(t.at("output").get<std::string>()).find(text) != std::string::npos;
}

bool output_says(const json& report, const std::string& text) {
  return plain_text(report.at("output").get<std::string>()).find(text) != std::string::npos;
}

double score(const json& report) {
  return report.at("score").get<double>();
}

double max_score(const json& report) {
  double max = 0;
  for (const auto& t : report.at("tests")) max += t.at("max_score").get<double>();
  return max;
}

void check_full_correctness(const json& report, const std::string& part) {
  for (const char* group : {"public", "hidden"}) {
    const json t = test_named(report, part + ": correctness on the " + group + " datasets");
    CHECK_MESSAGE(t["score"] == t["max_score"], t.dump(2));
    CHECK(t["max_score"].get<double>() > 0);
  }
}

}  // namespace e2e
