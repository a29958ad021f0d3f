// grader/sandbox/sandbox.h where bubblewrap cannot run (a course platform's container): what a
// child still gets without a namespace (the environment's whitelist, no new privileges, the seccomp
// filter for runs, a process limit), and under a root grader that keeps secrets, a user of its
// own that cannot read what is root's alone. Where this test runs as root it is that case.
#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>
#include <string>

#include "os/seccomp_filter.h"
#include "sandbox/sandbox.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::SandboxSpec;
using test::contains;

// This machine's sandbox with bubblewrap made unusable (the caller's choice restored).
gpulab::Sandbox unsandboxed() {
  const char* before = std::getenv("GPULAB_BWRAP");
  const std::string saved = before ? before : "";
  setenv("GPULAB_BWRAP", "/nonexistent/bwrap", 1);
  gpulab::Sandbox s = gpulab::Sandbox::detect(gpulab::Paths::current(), false);
  if (before)
    setenv("GPULAB_BWRAP", saved.c_str(), 1);
  else
    unsetenv("GPULAB_BWRAP");
  REQUIRE_FALSE(s.enabled());
  return s;
}

bool has_env(const gpulab::ProcessOptions& po, const std::string& prefix) {
  for (const auto& e : po.env)
    if (e.rfind(prefix, 0) == 0) return true;
  return false;
}

// A run's spec over host folders (outside the sandbox they are the child's own paths).
SandboxSpec run_spec(const test::TempDir& tmp) {
  SandboxSpec spec;
  spec.mounts = {{tmp / "in", "/gpulab/input", false, false},
                 {tmp / "out", "/gpulab/out", true, false}};
  spec.no_new_processes = true;
  return spec;
}

}  // namespace

TEST_CASE("without bubblewrap a child gets what needs no namespace, as the grader's user") {
  gpulab::Sandbox s = unsandboxed();
  SandboxSpec spec;
  spec.mounts = {{"/a/input", "/gpulab/input", false, false}};
  CHECK(s.inside(spec, "/a/input/x.npy") == "/a/input/x.npy");
  setenv("GPULAB_HIDDEN_SEED", "12345", 1);
  gpulab::ProcessOptions po;
  po.argv = {"true"};
  po.cwd = "/a/out";
  const gpulab::ProcessOptions c = s.confine(po, spec);
  unsetenv("GPULAB_HIDDEN_SEED");
  CHECK(c.argv == po.argv);  // no bwrap
  CHECK(c.cwd == po.cwd);
  CHECK_FALSE(c.inherit_env);
  CHECK(has_env(c, "PATH="));
  CHECK(has_env(c, "HOME=/tmp"));
  CHECK_FALSE(has_env(c, "GPULAB_HIDDEN_SEED="));
  CHECK(c.no_new_privs);
  CHECK(c.seccomp_filter.empty());  // a build's: its compilers start processes
  CHECK_FALSE(c.run_as);            // gpulab run: a student's machine, their own user
  spec.no_new_processes = true;     // a run's
  CHECK(s.confine(po, spec).seccomp_filter == gpulab::no_new_processes_filter());
  if (geteuid() != 0) CHECK(c.process_limit > 0);
}

TEST_CASE("a root grader that keeps secrets runs each unsandboxed child as a user of its own") {
  gpulab::Sandbox s = unsandboxed();
  if (geteuid() != 0) {
    // Only root can change users: a grader that is not root runs the code as itself.
    CHECK_FALSE(s.run_unsandboxed_as_own_users());
    CHECK_FALSE(s.own_users());
    return;
  }
  CHECK_FALSE(s.own_users());
  REQUIRE(s.run_unsandboxed_as_own_users());
  CHECK(s.own_users());
  test::TempDir tmp;
  fs::permissions(tmp.path(), fs::perms::others_exec, fs::perm_options::add);
  fs::create_directories(tmp / "in");
  fs::create_directories(tmp / "out");
  // What only root may read: the hidden seed's file (as the platforms' scripts leave it), and a
  // file under a folder closed to others (the dataset cache).
  test::write_file(tmp / "hidden-seed", "the-hidden-seed-1234567");
  fs::permissions(tmp / "hidden-seed", fs::perms::owner_read | fs::perms::owner_write);
  test::write_file(tmp / "cache" / "expected.npy", "the-expected-output");
  fs::permissions(tmp / "cache", fs::perms::owner_all);
  CHECK(gpulab::readable_by_other_users(tmp / "hidden-seed").empty());
  CHECK(gpulab::readable_by_other_users(tmp / "cache" / "expected.npy").empty());
  test::write_file(tmp / "open-seed", "x");
  CHECK(contains(gpulab::readable_by_other_users(tmp / "open-seed"), "mode 644"));

  SandboxSpec spec = run_spec(tmp);
  spec.no_new_processes = false;  // a shell that starts commands, to look around
  setenv("GPULAB_HIDDEN_SEED", "the-hidden-seed-1234567", 1);
  gpulab::ProcessOptions po;
  po.argv = {"/bin/sh", "-c",
             "echo uid $(id -u) gid $(id -g) groups $(id -G);"
             "read -r pid comm state ppid pgid rest </proc/$$/stat; echo pgid $pgid pid $pid;"
             "cat " +
                 (tmp / "hidden-seed").string() +
                 " 2>/dev/null || echo seed-refused;"
                 "cat " +
                 (tmp / "cache" / "expected.npy").string() +
                 " 2>/dev/null || echo cache-refused;"
                 "echo env $(env | sort | cut -d= -f1 | tr '\\n' ' ');"
                 "grep NoNewPrivs /proc/self/status;"
                 "grep -E 'Max (processes|cpu time|file size|core)' /proc/self/limits;"
                 "echo written > written && echo wrote-out"};
  po.cwd = tmp / "out";
  po.timeout_s = 30;
  po.cpu_limit_s = 20;
  po.file_size_limit = 1 << 20;
  const gpulab::ProcessOptions confined = s.confine(po, spec);
  const gpulab::ProcessResult r = gpulab::run_process(confined);
  unsetenv("GPULAB_HIDDEN_SEED");
  INFO(r.output);
  REQUIRE(r.ok());
  REQUIRE(confined.run_as);
  const std::string uid = std::to_string(confined.run_as->first);
  CHECK(confined.run_as->first >= 0x70000000u);
  CHECK(contains(r.output, "uid " + uid + " gid " + uid + " groups " + uid + "\n"));
  // Its own process group, as every child of run_process (a timeout kills it whole).
  const std::string out = r.output;
  const size_t at = out.find("pgid ");
  REQUIRE(at != std::string::npos);
  std::istringstream pg(out.substr(at));
  std::string word, pgid, pid;
  pg >> word >> pgid >> word >> pid;
  CHECK(pgid == pid);
  CHECK(contains(r.output, "seed-refused"));
  CHECK(contains(r.output, "cache-refused"));
  CHECK_FALSE(contains(r.output, "the-hidden-seed-1234567"));
  CHECK_FALSE(contains(r.output, "the-expected-output"));
  CHECK_FALSE(contains(r.output, "GPULAB_HIDDEN_SEED"));
  CHECK(contains(r.output, "NoNewPrivs:\t1"));
  CHECK(contains(r.output, "Max processes             256                  256"));
  CHECK(contains(r.output, "Max cpu time              20                   21"));
  CHECK(contains(r.output, "Max file size             1048576              1048576"));
  CHECK(contains(r.output, "Max core file size        0                    0"));
  // Its writable folder is its own; the grader's files stay the grader's.
  CHECK(contains(r.output, "wrote-out"));
  struct stat st {};
  REQUIRE(stat((tmp / "out").c_str(), &st) == 0);
  CHECK(st.st_uid == confined.run_as->first);
}

TEST_CASE("an unsandboxed run may start no process, whoever it runs as") {
  gpulab::Sandbox s = unsandboxed();
  s.run_unsandboxed_as_own_users();  // as root: a user of its own; else the grader's user
  test::TempDir tmp;
  fs::permissions(tmp.path(), fs::perms::others_exec, fs::perm_options::add);
  fs::create_directories(tmp / "in");
  fs::create_directories(tmp / "out");
  gpulab::ProcessOptions po;
  po.argv = {"/bin/sh", "-c", "echo before; /bin/true; echo after"};
  po.cwd = tmp / "out";
  po.timeout_s = 10;
  const gpulab::ProcessResult r = gpulab::run_process(s.confine(po, run_spec(tmp)));
  INFO(r.output);
  CHECK(r.signal == SIGSYS);
  CHECK(contains(r.output, "before"));
  CHECK_FALSE(contains(r.output, "after"));
}
