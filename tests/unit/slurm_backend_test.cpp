// grade-all on SLURM (grader/class/slurm_backend.h, grade_all_status.h, class_job.h): the plan's
// round trip (never the seed), the array's tasks and spec, the batch script's quoting, sbatch's
// command lines, the report of a task the scheduler stopped, and --status from the files.
#include "class/slurm_backend.h"

#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>

#include "class/class_job.h"
#include "class/grade_all_status.h"
#include "os/exit_status.h"
#include "os/process.h"
#include "report/report_formats.h"
#include "test_util.h"

namespace {

using namespace gpulab;
using test::contains;
using test::TempDir;
using test::write_file;
namespace fs = std::filesystem;
using nlohmann::json;

ClassJob job(const fs::path& out, const std::string& student, const std::string& hash) {
  return {"scan", student, "/roster/" + student, class_job_dir(out, "scan", student),
          json{{"lab", "scan"}, {"submission", hash}}};
}

// A plan of `n` student-labs, all to grade, `per_task` to a task.
SlurmPlan plan_of(const fs::path& out, int n, unsigned per_task) {
  SlurmPlan p;
  p.options.out = out;
  p.options.roster = "/roster";
  p.options.labs = {"scan"};
  p.options.backend = Backend::sim;
  p.options.hidden_seed = "the-instructors-secret-0123";
  p.slurm.per_task = per_task;
  p.slurm.max_parallel = 2;
  p.slurm.gres = "gpu:1";
  p.slurm.partition = "gpu";
  p.slurm.sbatch_args = {"--account=gpucourse"};
  p.seed_fingerprint = seed_fingerprint(p.options.hidden_seed);
  for (int i = 0; i < n; ++i) {
    p.todo.push_back(job(out, "s" + std::to_string(i), "h" + std::to_string(i)));
    p.everyone.emplace_back("scan", "s" + std::to_string(i));
  }
  return p;
}

bool has(const std::vector<std::string>& argv, const std::string& word) {
  return std::find(argv.begin(), argv.end(), word) != argv.end();
}

void write_record(const ClassJob& j, const std::string& outcome) {
  write_file(j.dir / class_files::kRecord, json{{"key", j.key}, {"outcome", outcome}}.dump());
}

}  // namespace

TEST_CASE("slurm: the plan round-trips through plan.json, without the seed") {
  const SlurmPlan p = plan_of("/class/out", 3, 2);
  const json j = plan_to_json(p);
  CHECK_FALSE(contains(j.dump(), "the-instructors-secret"));
  const SlurmPlan back = plan_from_json(json::parse(j.dump()));
  CHECK_FALSE(back.options.hidden_seed.has_value());
  CHECK(back.options.out == p.options.out);
  CHECK(back.options.labs == p.options.labs);
  CHECK(back.options.backend == Backend::sim);
  CHECK(back.slurm.per_task == 2);
  CHECK(back.slurm.gres == "gpu:1");
  CHECK(back.slurm.sbatch_args == p.slurm.sbatch_args);
  CHECK(back.seed_fingerprint == p.seed_fingerprint);
  REQUIRE(back.todo.size() == 3);
  CHECK(back.todo[1].student == "s1");
  CHECK(back.todo[1].key == p.todo[1].key);
  CHECK(back.todo[1].dir == fs::path("/class/out/scan/s1"));
  CHECK(back.everyone == p.everyone);

  json broken = j;
  broken.erase("todo");
  CHECK_THROWS_WITH_AS(plan_from_json(broken), doctest::Contains("\"todo\""), std::runtime_error);
  broken = j;
  broken["slurm"]["per_task"] = "two";
  CHECK_THROWS_WITH_AS(plan_from_json(broken), doctest::Contains("\"per_task\""),
                       std::runtime_error);
  CHECK_THROWS_AS(plan_from_json(json{{"format", "something else"}}), std::runtime_error);
}

TEST_CASE("slurm: the array's tasks share the student-labs, K at a time, and its spec") {
  const SlurmPlan p = plan_of("/o", 5, 2);
  CHECK(p.tasks() == 3);
  CHECK(p.task_jobs(0).size() == 2);
  REQUIRE(p.task_jobs(2).size() == 1);
  CHECK(p.task_jobs(2)[0].student == "s4");
  CHECK_THROWS_AS(p.task_jobs(3), std::runtime_error);
  CHECK(array_spec(3, 0) == "0-2");
  CHECK(array_spec(300, 16) == "0-299%16");
  CHECK_THROWS_AS(array_spec(0, 4), std::runtime_error);
}

TEST_CASE("slurm: sbatch's command lines name the scripts and resources, never the seed") {
  const SlurmPlan p = plan_of("/o", 5, 2);
  const auto array = sbatch_array_argv(p, {"PATH", "GPULAB_CACHE_DIR"});
  CHECK(array.front() == "sbatch");
  CHECK(has(array, "--parsable"));
  CHECK(has(array, "--array=0-2%2"));
  CHECK(has(array, "--gres=gpu:1"));
  CHECK(has(array, "--partition=gpu"));
  CHECK(has(array, "--export=PATH,GPULAB_CACHE_DIR"));
  CHECK(array.back() == "/o/slurm/task.sh");
  CHECK(array[array.size() - 2] == "--account=gpucourse");  // the instructor's, after gpulab's
  const auto merge = sbatch_merge_argv(p, "77", {"PATH"});
  CHECK(has(merge, "--dependency=afterany:77"));
  CHECK_FALSE(has(merge, "--gres=gpu:1"));  // merging needs no GPU
  CHECK(merge.back() == "/o/slurm/merge.sh");
  for (const auto& word : array) CHECK_FALSE(contains(word, "secret"));

  CHECK(parsable_job_id("123\n") == "123");
  CHECK(parsable_job_id("123;cluster\n") == "123");
  CHECK_THROWS_AS(parsable_job_id("Submitted batch job 123\n"), std::runtime_error);
  CHECK_THROWS_AS(parsable_job_id(""), std::runtime_error);
}

TEST_CASE("slurm: the batch script runs its command with every word quoted") {
  TempDir d;
  const std::string script = batch_script("/bin/echo", {"it's", "a b", "$HOME", "`x`"});
  CHECK(script.rfind("#!/bin/sh\n", 0) == 0);
  write_file(d / "task.sh", script);
  ProcessOptions po;
  po.argv = {"sh", (d / "task.sh").string()};
  const ProcessResult r = run_process(po);
  REQUIRE(r.ok());
  CHECK(r.output == "it's a b $HOME `x`\n");
}

TEST_CASE("slurm: a task the scheduler stopped leaves a report without a score, graded again") {
  TempDir d;
  const ClassJob j = job(d.path(), "carol", "h");
  record_stopped_by_scheduler(j, gpulab::Backend::sim, SIGTERM);
  const auto report = read_report(j.dir / class_files::kReport);
  REQUIRE(report.has_value());
  CHECK_FALSE(report->scored());
  CHECK(report->stopped_by == SIGTERM);
  CHECK(contains(report->grader_error, "stopped by the scheduler (SIGTERM"));
  CHECK(contains(report->grader_error, "graded again when grade-all runs again"));
  // No Gradescope results.json: without a score it would add up the tests, a grade.
  CHECK_FALSE(fs::exists(j.dir / class_files::kResults));
  const auto record = read_json_file(j.dir / class_files::kRecord);
  REQUIRE(record.has_value());
  CHECK((*record)["outcome"] == kOutcomeStopped);
  CHECK((*record)["key"] == j.key);
  CHECK_FALSE(already_graded(j));  // the rerun submits it
}

TEST_CASE("slurm: --status counts done, running, failed and not started from the files") {
  TempDir d;
  SlurmPlan p = plan_of(d.path(), 5, 1);
  // s0 graded before this plan: not among its todo, its record of an earlier key.
  p.todo.erase(p.todo.begin());
  write_record(job(d.path(), "s0", "old"), kOutcomeGraded);
  write_record(p.todo[0], kOutcomeGraded);           // s1: done
  write_file(p.todo[1].dir / class_files::kRunning,  // s2: running
             json{{"job", "12"}, {"task", "1"}, {"host", "node7"}, {"started", "t"}}.dump());
  record_stopped_by_scheduler(p.todo[2], gpulab::Backend::sim, SIGTERM);  // s3: stopped
  write_record(job(d.path(), "s4", "stale"), kOutcomeGraded);             // s4: an old key

  ClassStatus s = class_status(p);
  CHECK(s.count(ClassJobState::kDone) == 2);
  CHECK(s.count(ClassJobState::kRunning) == 1);
  CHECK(s.count(ClassJobState::kFailed) == 1);
  CHECK(s.count(ClassJobState::kNotStarted) == 1);
  CHECK(s.exit_status() == kExitStopped);
  const std::string text = s.text();
  CHECK(contains(text, "5 student-labs: 2 done, 1 running, 1 failed"));
  CHECK(contains(text, "scan/s2: running (job 12 task 1 on node7"));
  CHECK(contains(text, "scan/s3: failed (stopped by the scheduler (SIGTERM"));
  CHECK(contains(text, "scan/s4: not started"));
  CHECK_FALSE(contains(text, "scan/s1"));  // done: no line

  fs::remove(p.todo[1].dir / class_files::kRunning);
  write_record(p.todo[1], kOutcomeFailed);
  write_record(p.todo[2], kOutcomeGraded);
  write_record(p.todo[3], kOutcomeGraded);
  s = class_status(p);
  CHECK(s.exit_status() == kExitFailed);  // a grader failure, none stopped
  write_record(p.todo[1], kOutcomeGraded);
  CHECK(class_status(p).exit_status() == kExitOk);
}
