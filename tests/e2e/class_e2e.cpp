// End-to-end: gpulab grade-all on small rosters on the CPU backend (suite class): reports (gpulab's
// own and Gradescope's, one grade), the class CSV and HTML and the gradebook uploads with a roster
// CSV and a student whose code does not build, resuming after kill -9 with nothing lost or graded
// twice, a grader that dies on one student; and regrading with the same seed repeats every
// correctness result. On a GPU (suite gpu-class) graders wait for the GPU lock and reports name the
// GPU and its driver.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "class/class_table.h"
#include "device.h"
#include "e2e_util.h"
#include "files/file_lock.h"

namespace {

using namespace e2e;
using Clock = std::chrono::steady_clock;

const fs::path kSubmissions = kSource / "tests" / "submissions" / "scatter-gather";

std::vector<std::string> grade_all_argv(const fs::path& roster, const fs::path& out,
                                        const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {
      GPULAB_TEST_BINARY, "grade-all", "--roster",   roster.string(), "--labs",
      "scatter-gather",   "--out",     out.string(), "--hidden-seed", "7"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

gpulab::ProcessResult grade_all(const fs::path& roster, const fs::path& out,
                                std::vector<std::string> extra = {"--backend", "sim", "--jobs",
                                                                  "2"}) {
  gpulab::ProcessOptions po;
  po.argv = grade_all_argv(roster, out, extra);
  po.timeout_s = 900;
  po.output_limit = 1 << 20;
  return gpulab::run_process(po);
}

// grading.json, grade-all's record (not a report).
json read_record(const fs::path& file) {
  std::ifstream in(file);
  REQUIRE_MESSAGE(in.good(), "missing " << file);
  return json::parse(in);
}

void copy_submission(const std::string& name, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& f : fs::directory_iterator(kSubmissions / name))
    if (f.path().extension() == ".cu") fs::copy_file(f.path(), to / f.path().filename());
}

// Gradescope's results.json, which grade-all writes from gpulab's own report.json beside it.
fs::path report_of(const fs::path& out, const std::string& student) {
  return out / "scatter-gather" / student / "results.json";
}
fs::path gpulab_report_of(const fs::path& out, const std::string& student) {
  return out / "scatter-gather" / student / "report.json";
}

// Rows of a CSV without quoted fields (student names and numbers only are looked at).
std::vector<std::vector<std::string>> csv_rows(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> row(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        row.emplace_back();
      else
        row.back() += c;
    }
    rows.push_back(row);
  }
  return rows;
}

// The correctness results of a report, which a regrade with the same seed must repeat: each
// correctness test's name, score and status, and each dataset's verdict. Not the size of the
// errors: atomic float additions land in a varying order, on a GPU and on the CPU backend's
// worker threads alike, so sums differ in their last bits from run to run.
json correctness_of(const json& report) {
  json out = json::array();
  for (const auto& t : report.at("tests")) {
    const auto tags = t.value("tags", std::vector<std::string>{});
    if (std::find(tags.begin(), tags.end(), "performance") != tags.end()) continue;
    out.push_back({t["name"], t["score"], t["status"]});
  }
  json datasets = json::array();
  for (const auto& d : report.at("extra_data").at("datasets"))
    datasets.push_back({d["part"], d["dataset"], d["result"]});
  return {{"tests", out}, {"datasets", datasets}};
}

}  // namespace

TEST_SUITE("class") {
  TEST_CASE("grade-all: reports, the class CSV, HTML and gradebooks, and a rerun grades nothing") {
    const fs::path dir = scratch("grade-all");
    const fs::path roster = dir / "roster", out = dir / "out";
    copy_submission("alt-correct", roster / "alice");                     // the student's folder
    copy_submission("compile-error", roster / "bob");                     // does not build
    copy_submission("alt-correct", roster / "carol" / "scatter-gather");  // a folder per lab
    fs::create_directories(roster / "carol" / "scan");
    std::ofstream(roster / "notes.txt") << "not a student\n";
    // The roster CSV: alice by a folder column, bob by his id (his folder's name), dave with no
    // submission; carol has no row.
    const fs::path students = dir / "students.csv";
    std::ofstream(students) << "id,name,email,folder\r\ns1,\"Lovelace, Ada\",ada@uni.example,"
                               "alice\r\nbob,Bob,bob@uni.example,\r\ns4,Dave,dave@uni.example,"
                               "dave\r\n";
    const std::vector<std::string> args = {"--backend",
                                           "sim",
                                           "--jobs",
                                           "2",
                                           "--roster-csv",
                                           students.string(),
                                           "--canvas-assignment",
                                           "scatter-gather=1234"};

    const auto first = grade_all(roster, out, args);
    INFO(first.output);
    REQUIRE(first.exit_code == 0);
    CHECK(said(first, "notes.txt is neither a directory"));
    CHECK(said(first, "carol has no row in"));
    CHECK(said(first, "s4 (" + students.string() + ") has no entry dave"));
    CHECK(said(first, "grading 3 of 3 submissions"));
    // Not a terminal: one plain progress line per student.
    for (const char* line :
         {"[1/3] scatter-gather/", "[2/3] scatter-gather/", "[3/3] scatter-gather/"})
      CHECK(said(first, line));

    const json alice = read_report(report_of(out, "alice")),
               bob = read_report(report_of(out, "bob")),
               carol = read_report(report_of(out, "carol"));
    CHECK(score(alice) == max_score(alice));
    CHECK(score(alice) > 0);
    CHECK(score(carol) == score(alice));
    CHECK(score(bob) == 0);
    CHECK(contains(test_named(bob, "gather: does not build"), "did not build"));
    // results.json is Gradescope's rendering of report.json, gpulab's own: one grade.
    for (const char* s : {"alice", "bob", "carol"}) {
      const json own = read_report(gpulab_report_of(out, s));
      CHECK(own.at("format") == "gpulab-report");
      CHECK(own.at("score") == read_report(report_of(out, s)).at("score"));
    }
    CHECK(read_report(gpulab_report_of(out, "bob")).at("outcome") == "did not build");
    // Each report records what it was graded with.
    for (const json* r : {&alice, &bob, &carol}) {
      const json env = r->at("extra_data").at("gpulab");
      CHECK(env.at("backend") == "sim");
      CHECK(env.at("version").get<std::string>().size() > 0);
      CHECK(env.at("compiler").get<std::string>().size() > 0);
      CHECK(env.contains("device"));
    }
    const json record = read_record(out / "scatter-gather" / "alice" / "grading.json");
    CHECK(record.at("outcome") == "graded");
    CHECK(record.at("key").at("backend") == "sim");
    CHECK(record.at("key").at("submission").get<std::string>().rfind("fnv1a64:", 0) == 0);
    CHECK(read_text(out / "scatter-gather" / "alice" / "grading.json").find("\"7\"") ==
          std::string::npos);  // the hidden seed is not spelled out
    // but fingerprinted with HMAC-SHA256, which gives it back to no one (grader/files/secret.h).
    const std::string fingerprint = record.at("key").at("hidden_seed");
    CHECK(fingerprint.size() == 64);
    CHECK(fingerprint.find_first_not_of("0123456789abcdef") == std::string::npos);

    // The CSV: a row per student with the roster CSV's identifiers and the report's total; a
    // column per part and per test.
    const auto rows = csv_rows(read_text(out / "class.csv"));
    REQUIRE(rows.size() == 5);
    const auto& header = rows[0];
    const auto col = [&](const std::string& name) {
      const auto it = std::find(header.begin(), header.end(), name);
      REQUIRE_MESSAGE(it != header.end(), name);
      return static_cast<size_t>(it - header.begin());
    };
    CHECK(rows[1][0] == "alice");
    CHECK(rows[2][0] == "bob");
    CHECK(rows[3][0] == "carol");
    CHECK(rows[4][0] == "dave");
    CHECK(rows[1][col("id")] == "s1");
    CHECK(rows[1][col("email")] == "ada@uni.example");
    CHECK(rows[2][col("id")] == "bob");
    CHECK(rows[3][col("id")] == "");  // carol: no row in the roster CSV
    const std::string correctness = "scatter-gather: gather: correctness on the public datasets";
    CHECK(std::stod(rows[1][col("total")]) == score(alice));
    CHECK(rows[1][col(correctness)] == "10");
    CHECK(rows[1][col("scatter-gather: gather score")] != "");
    CHECK(rows[1][col("scatter-gather status")] == "graded");
    // bob did not build and dave submitted nothing: flagged, a zero in every cell of the lab's
    // maximum.
    for (size_t r : {2, 4}) {
      INFO(rows[r][0]);
      CHECK(rows[r][col("scatter-gather status")] == (r == 2 ? "did not build" : "missing"));
      CHECK(rows[r][col(correctness)] == "0");
      CHECK(rows[r][col("scatter-gather: gather score")] == "0");
      CHECK(rows[r][col("scatter-gather score")] == "0");
      CHECK(std::stod(rows[r][col("scatter-gather max")]) == max_score(alice));
      CHECK(std::stod(rows[r][col("total")]) == 0);
    }
    // The HTML: one file, a histogram, nothing fetched from elsewhere; the zeros counted in the
    // mean (alice and carol full marks, bob and dave nothing).
    const std::string html = read_text(out / "class.html");
    CHECK(html.find("<svg class=\"hist\"") != std::string::npos);
    CHECK(html.find("http") == std::string::npos);
    CHECK(html.find("4 counted") != std::string::npos);
    CHECK(html.find("mean " + gpulab::format_points(score(alice) / 2)) != std::string::npos);
    // What the class got wrong (class-findings.csv, and its view in the HTML): bob's failed
    // test, one student of one, and his compiler's error as its message.
    CHECK(html.find("What the class got wrong") != std::string::npos);
    const auto wrong = csv_rows(read_text(out / "class-findings.csv"));
    REQUIRE(!wrong.empty());
    CHECK(wrong[0][0] == "lab");
    const auto row_of = [&](const std::string& kind) {
      return std::find_if(wrong.begin(), wrong.end(), [&](const auto& r) {
        return r.size() == 9 && r[0] == "scatter-gather" && r[1] == "gather: does not build" &&
               r[2] == kind;
      });
    };
    REQUIRE(row_of("failed") != wrong.end());
    CHECK((*row_of("failed"))[3] == "1");
    CHECK((*row_of("failed"))[4] == "1");
    REQUIRE(row_of("message") != wrong.end());
    CHECK((*row_of("message"))[8].find("error") != std::string::npos);
    // The gradebooks: Gradescope's per lab, Canvas's with the assignment id.
    const auto gs = csv_rows(read_text(out / "gradescope-scatter-gather.csv"));
    REQUIRE(gs.size() == 5);
    CHECK(gs[0] == std::vector<std::string>{"Name", "SID", "Email", "Total Score"});
    CHECK(gs[2] == std::vector<std::string>{"Bob", "bob", "bob@uni.example", "0"});
    const auto canvas = csv_rows(read_text(out / "canvas.csv"));
    REQUIRE(canvas.size() == 6);  // header, Points Possible, 4 students
    CHECK(canvas[0].back() == "scatter-gather (1234)");
    CHECK(std::stod(canvas[1].back()) == max_score(alice));
    CHECK(canvas[2] == std::vector<std::string>{"Lovelace, Ada", "", "s1", "", "",
                                                gpulab::format_points(score(alice))});

    // A rerun with the same configuration grades nothing and rewrites no report.
    const auto written = fs::last_write_time(report_of(out, "alice"));
    const auto second = grade_all(roster, out, args);
    INFO(second.output);
    CHECK(second.exit_code == 0);
    CHECK(said(second, "grading 0 of 3 submissions"));
    CHECK(fs::last_write_time(report_of(out, "alice")) == written);

    // A changed submission is graded again, and only it.
    copy_submission("alt-correct", dir / "fixed");
    fs::remove_all(roster / "bob");
    fs::rename(dir / "fixed", roster / "bob");
    const auto third = grade_all(roster, out, args);
    INFO(third.output);
    CHECK(said(third, "grading 1 of 3 submissions"));
    CHECK(score(read_report(report_of(out, "bob"))) == score(alice));
    CHECK(fs::last_write_time(report_of(out, "alice")) == written);
  }

  TEST_CASE("grade-all killed with -9 midway: the rerun loses nothing and grades nothing twice") {
    const fs::path dir = scratch("grade-all-kill");
    const fs::path roster = dir / "roster", out = dir / "out";
    for (const char* s : {"s1", "s2", "s4", "s5"}) copy_submission("compile-error", roster / s);
    copy_submission("alt-correct", roster / "s3");  // slow enough to be killed in

    const std::vector<std::string> argv =
        grade_all_argv(roster, out, {"--backend", "sim", "--jobs", "1"});
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    // Kill it once two students are recorded and the third is being graded.
    const auto recorded = [&] {
      int n = 0;
      for (const char* s : {"s1", "s2", "s3", "s4", "s5"})
        n += fs::exists(out / "scatter-gather" / s / "grading.json");
      return n;
    };
    const auto deadline = Clock::now() + std::chrono::minutes(5);
    int early = 0;
    while (recorded() < 2 && Clock::now() < deadline && waitpid(pid, &early, WNOHANG) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // s3 is under way
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    const int before = recorded();
    REQUIRE_MESSAGE(before >= 2, "grade-all finished too few before the kill");
    REQUIRE_MESSAGE(before < 5, "grade-all finished everything before the kill");

    // Its grader died with it: nothing grades behind the rerun's back.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    for (const auto& p : fs::directory_iterator("/proc")) {
      std::ifstream cmd(p.path() / "cmdline");
      const std::string line{std::istreambuf_iterator<char>(cmd), std::istreambuf_iterator<char>()};
      CHECK_MESSAGE(line.find(std::string("--grade-all-parent") + '\0' + std::to_string(pid)) ==
                        std::string::npos,
                    "a grader outlived grade-all: " << p.path());
    }

    std::map<std::string, fs::file_time_type> kept;
    for (const char* s : {"s1", "s2", "s3", "s4", "s5"})
      if (fs::exists(out / "scatter-gather" / s / "grading.json"))
        kept[s] = fs::last_write_time(report_of(out, s));
    const auto rerun = grade_all(roster, out);
    INFO(rerun.output);
    REQUIRE(rerun.exit_code == 0);
    CHECK(said(rerun, "grading " + std::to_string(5 - before) + " of 5 submissions"));
    for (const auto& [s, t] : kept) CHECK_MESSAGE(fs::last_write_time(report_of(out, s)) == t, s);
    for (const char* s : {"s1", "s2", "s3", "s4", "s5"}) {
      INFO(s);
      CHECK(read_record(out / "scatter-gather" / s / "grading.json").at("outcome") == "graded");
      CHECK(read_report(report_of(out, s)).contains("score"));
    }
    CHECK(score(read_report(report_of(out, "s3"))) > 0);
    // Nothing half-written is left: no partial report, no temporary file.
    for (const auto& f : fs::recursive_directory_iterator(out)) {
      const std::string name = f.path().filename().string();
      CHECK_MESSAGE(name.find(".tmp") == std::string::npos, f.path());
      CHECK_MESSAGE(name.find(".partial") == std::string::npos, f.path());
    }
    CHECK(csv_rows(read_text(out / "class.csv")).size() == 6);
  }

  TEST_CASE("graders that fail, are killed or stopped: no score anywhere, the others graded") {
    const fs::path dir = scratch("grade-all-crash");
    const fs::path roster = dir / "roster", out = dir / "out";
    copy_submission("hang", roster / "hangs");    // its grading outlasts the timeout below
    copy_submission("hang", roster / "killed");   // its grader gets SIGKILL (out of memory, say)
    copy_submission("hang", roster / "stopped");  // its grader gets SIGTERM, not grade-all's
    copy_submission("compile-error", roster / "quick1");
    copy_submission("compile-error", roster / "quick2");
    auto running = std::async(std::launch::async, [&] {
      return grade_all(roster, out,
                       {"--backend", "sim", "--jobs", "5", "--submission-timeout", "8"});
    });
    // Each grader found by its command line, and signalled a second after it started (its own
    // stop handling is set up by then).
    const std::map<std::string, int> signals = {{"killed", SIGKILL}, {"stopped", SIGTERM}};
    std::map<std::string, Clock::time_point> seen;
    std::set<std::string> sent;
    const auto give_up = Clock::now() + std::chrono::seconds(60);
    while (sent.size() < signals.size() && Clock::now() < give_up) {
      for (const auto& p : fs::directory_iterator("/proc")) {
        const std::string pid = p.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream cmd(p.path() / "cmdline");
        const std::string line{std::istreambuf_iterator<char>(cmd),
                               std::istreambuf_iterator<char>()};
        for (const auto& [student, signal] : signals) {
          if (sent.count(student) ||
              line.find(std::string("grade") + '\0' + "scatter-gather" + '\0' + "--submission" +
                        '\0' + (roster / student).string() + '\0') == std::string::npos)
            continue;
          if (!seen.count(student)) seen[student] = Clock::now();
          if (Clock::now() - seen[student] < std::chrono::seconds(1)) continue;
          CHECK(kill(std::stoi(pid), signal) == 0);
          sent.insert(student);
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const auto run = running.get();
    INFO(run.output);
    REQUIRE_MESSAGE(sent.size() == signals.size(), "a grader was never seen running");
    CHECK(run.exit_code == 1);  // some submission was not graded
    CHECK(said(run, "the grader failed on 3"));

    // No score, and no Gradescope results.json, whose format cannot say "no score" (it would add
    // up the tests): gpulab's report.json says why, grade.log has the grader's output.
    const auto report_json = [&](const std::string& s) {
      return read_report(gpulab_report_of(out, s));
    };
    for (const char* s : {"hangs", "killed", "stopped"}) {
      INFO(s);
      CHECK_FALSE(report_json(s).contains("score"));
      CHECK_FALSE(fs::exists(report_of(out, s)));
      CHECK(read_record(out / "scatter-gather" / s / "grading.json").at("outcome") ==
            "grader failed");
      CHECK(fs::exists(out / "scatter-gather" / s / "grade.log"));
    }
    CHECK(report_json("hangs").at("grader_error").get<std::string>().find("time limit") !=
          std::string::npos);
    CHECK(report_json("killed").at("grader_error").get<std::string>().find("signal 9") !=
          std::string::npos);
    CHECK(report_json("stopped").at("stopped_by") == SIGTERM);
    for (const char* s : {"quick1", "quick2"})
      CHECK(read_report(report_of(out, s)).contains("score"));
    const auto rows = csv_rows(read_text(out / "class.csv"));
    REQUIRE(rows.size() == 6);
    const std::map<std::string, std::string> status = {{"hangs", "grader failed"},
                                                       {"killed", "grader failed"},
                                                       {"stopped", "stopped"},
                                                       {"quick1", "did not build"},
                                                       {"quick2", "did not build"}};
    for (size_t r = 1; r < rows.size(); ++r)
      CHECK(rows[r][4] == status.at(rows[r][0]));  // after student, id, name, email
    // The gradebooks: an empty cell (the platform keeps what it had), never a zero, for each
    // student not graded; the code that did not build scores zero of the lab's maximum.
    const auto gradescope = csv_rows(read_text(out / "gradescope-scatter-gather.csv"));
    const auto canvas = csv_rows(read_text(out / "canvas.csv"));
    REQUIRE(gradescope.size() == 6);
    REQUIRE(canvas.size() == 7);  // header, Points Possible, 5 students
    CHECK(std::stod(canvas[1].back()) == max_score(read_report(report_of(out, "quick1"))));
    for (size_t r = 1; r < gradescope.size(); ++r) {
      const std::string& student = gradescope[r][0];
      CAPTURE(student);
      const std::string cell = student.rfind("quick", 0) == 0 ? "0" : "";
      CHECK(gradescope[r].back() == cell);
      CHECK(canvas[r + 1][0] == student);
      CHECK(canvas[r + 1].back() == cell);
    }

    // The next run tries the failed ones again (here they have been fixed), and only them.
    for (const char* s : {"hangs", "killed", "stopped"}) {
      fs::remove_all(roster / s);
      copy_submission("compile-error", roster / s);
    }
    const auto again = grade_all(roster, out, {"--backend", "sim", "--jobs", "2"});
    INFO(again.output);
    CHECK(again.exit_code == 0);
    CHECK(said(again, "grading 3 of 5 submissions"));
    for (const char* s : {"hangs", "killed", "stopped"})
      CHECK(read_report(report_of(out, s)).contains("score"));
  }

  TEST_CASE("without a GPU, grade-all refuses GPU labs on the cuda backend, grading nothing") {
    if (gpulab::device_preflight().usable) {
      MESSAGE("skipped: this machine has a GPU");
      return;
    }
    const fs::path dir = scratch("grade-all-no-gpu");
    const fs::path roster = dir / "roster", out = dir / "out";
    copy_submission("alt-correct", roster / "alice");
    for (const bool require : {false, true}) {
      CAPTURE(require);
      std::vector<std::string> args = {"--backend", "cuda"};
      if (require) args.push_back("--require-gpu");
      const auto run = grade_all(roster, out, args);
      INFO(run.output);
      CHECK(run.exit_code == 1);
      CHECK(said(run, "grade-all: this machine has no usable CUDA GPU"));
      CHECK(said(run, require ? "--require-gpu asks for one"
                              : "scatter-gather has GPU parts, which no grader could score here"));
      CHECK(said(run, "nothing graded"));
      CHECK(said(run, "--backend sim"));
      // Nothing written: no report to read as a grade, no gradebook with a zero.
      CHECK_FALSE(fs::exists(out / "scatter-gather"));
      CHECK_FALSE(fs::exists(out / "canvas.csv"));
    }
  }

  TEST_CASE("regrading with the same seed repeats every correctness result") {
    // A correct submission, and one with a race on global memory that the CPU backend's
    // shuffled block order exposes (that order is seeded by the dataset).
    const std::pair<const char*, std::vector<std::string>> cases[] = {
        {"alt-correct", {"--backend", "sim", "--part", "scatter"}},
        {"bug-scatter-no-atomics", {"--backend", "sim", "--part", "scatter"}}};
    for (const auto& [name, args] : cases) {
      INFO(name);
      const json a = e2e::grade("scatter-gather", kSubmissions / name, args).report;
      const json b = e2e::grade("scatter-gather", kSubmissions / name, args).report;
      CHECK(correctness_of(a) == correctness_of(b));
      CHECK(correctness_of(a)["tests"].size() > 0);
      CHECK(a.at("extra_data").at("gpulab") == b.at("extra_data").at("gpulab"));
    }
  }
}

TEST_SUITE("gpu-class") {
  TEST_CASE("on the GPU, a grader waits for the GPU's lock and its report names GPU and driver") {
    const fs::path dir = scratch("grade-all-gpu");
    const fs::path roster = dir / "roster", out = dir / "out";
    copy_submission("alt-correct", roster / "alice");
    const gpulab::DeviceInfo dev = gpulab::device_preflight(0);
    REQUIRE(dev.usable);
    // Hold the lock of every GPU for a while, as another grader timing would.
    std::vector<gpulab::FileLock> held;
    for (int i = 0; i < dev.count; ++i)
      held.emplace_back(fs::temp_directory_path() /
                        ("gpulab-gpu-" + gpulab::device_preflight(i).uuid + ".lock"));
    const auto t0 = Clock::now();
    std::thread release([&] {
      std::this_thread::sleep_for(std::chrono::seconds(20));
      held.clear();
    });
    const auto run = grade_all(roster, out, {"--backend", "cuda", "--jobs", "1"});
    release.join();
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK(Clock::now() - t0 >= std::chrono::seconds(20));
    const fs::path log = out / "scatter-gather" / "alice" / "grade.log";
    CHECK(read_text(log).find("waiting for the GPU") != std::string::npos);
    const json report = read_report(report_of(out, "alice"));
    const json device = report.at("extra_data").at("gpulab").at("device");
    CHECK(device.at("usable") == true);
    CHECK(device.at("name").get<std::string>().size() > 0);
    CHECK(device.at("driver_release").get<std::string>().size() > 0);
    CHECK(device.at("uuid") ==
          read_record(out / "scatter-gather" / "alice" / "grading.json")["gpu"]);
    CHECK(score(report) > 0);
    const json perf = test_named(report, "gather: performance");
    CHECK(perf.at("extra_data").contains("ratio"));
  }

  TEST_CASE("regrading on the GPU with the same seed repeats every correctness result") {
    const fs::path sub = kSubmissions / "alt-correct";
    const json a = e2e::grade("scatter-gather", sub, {"--no-time"}).report;
    const json b = e2e::grade("scatter-gather", sub, {"--no-time"}).report;
    CHECK(correctness_of(a) == correctness_of(b));
    CHECK(correctness_of(a)["tests"].size() > 0);
  }
}
