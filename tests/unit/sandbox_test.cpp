// grader/sandbox/sandbox.h: the bubblewrap command line a child is confined by, what builds and
// runs may see, and (where bubblewrap runs here) what a confined child can and cannot do.
#include "sandbox/sandbox.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::SandboxHost;
using gpulab::SandboxSpec;
using test::contains;

// A merged-/usr machine with one GPU, its CUDA driver libraries on LD_LIBRARY_PATH.
SandboxHost fake_host() {
  SandboxHost h;
  h.nvidia_devices = {"/dev/nvidia0", "/dev/nvidia-uvm", "/dev/nvidiactl"};
  h.root_links = {{"/bin", "usr/bin"}, {"/lib", "usr/lib"}, {"/lib64", "usr/lib64"}};
  h.extra_system_dirs = {"/opt/nvidia/lib64"};
  return h;
}

// The position of the option `flag` followed by `args`, or -1.
long find_option(const std::vector<std::string>& a, const std::vector<std::string>& option) {
  for (size_t i = 0; i + option.size() <= a.size(); ++i)
    if (std::equal(option.begin(), option.end(), a.begin() + i)) return static_cast<long>(i);
  return -1;
}

bool has(const std::vector<std::string>& a, const std::vector<std::string>& option) {
  return find_option(a, option) >= 0;
}

std::string joined(const std::vector<std::string>& a) {
  std::string s;
  for (const auto& x : a) s += x + " ";
  return s;
}

gpulab::Paths fake_paths() {
  gpulab::Paths p;
  p.source = "/srv/gpulab";
  p.build = "/srv/gpulab/build";
  p.sim_rewriter = p.build / "bin" / "gpulab-sim-rewrite";
  p.sim_include = p.source / "sim" / "runtime" / "include";
  p.sim_lib = p.build / "lib" / "libgpulab_sim.a";
  return p;
}

// The scan lab's recipe (runner_recipe.h) as the manifest of fake_paths()'s build gives it.
gpulab::RunnerRecipe fake_recipe(gpulab::Backend backend) {
  const gpulab::Paths p = fake_paths();
  gpulab::RunnerRecipe r;
  r.lab = "scan";
  r.backend = backend;
  r.include_dirs = {"/srv/gpulab/labs/scan"};
  r.compiler = backend == gpulab::Backend::sim ? p.sim_cc() : fs::path("/usr/local/cuda/bin/nvcc");
  r.link_whole = {{"harness", p.harness_lib(backend)}, {"driver", p.driver_lib("scan", backend)}};
  if (backend == gpulab::Backend::sim) r.link_whole.push_back({"runtime", p.sim_lib});
  return r;
}

// The mounts of `spec` whose host path is `dir` or lies inside it.
std::vector<gpulab::SandboxMount> mounts_in(const SandboxSpec& spec, const fs::path& dir) {
  std::vector<gpulab::SandboxMount> found;
  for (const auto& m : spec.mounts) {
    const auto rel = m.host.lexically_relative(dir);
    if (!rel.empty() && *rel.begin() != "..") found.push_back(m);
  }
  return found;
}

}  // namespace

TEST_CASE("the bwrap options take every namespace and keep the network out") {
  SandboxSpec spec;
  spec.mounts = {{"/work/in", "/gpulab/input", false, false},
                 {"/work/out", "/gpulab/out", true, false},
                 {"/work/tools", "/work/tools", false, true}};
  spec.cwd = "/gpulab/out";
  const auto a = gpulab::bwrap_options(spec, fake_host());
  INFO(joined(a));
  for (const char* flag : {"--unshare-all", "--unshare-user", "--disable-userns",
                           "--die-with-parent", "--new-session"})
    CHECK(has(a, {flag}));
  CHECK(has(a, {"--cap-drop", "ALL"}));
  CHECK_FALSE(has(a, {"--share-net"}));
  CHECK(has(a, {"--ro-bind", "/usr", "/usr"}));
  CHECK(has(a, {"--symlink", "usr/lib", "/lib"}));
  CHECK(has(a, {"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"}));
  CHECK_FALSE(has(a, {"--ro-bind", "/etc", "/etc"}));
  CHECK(has(a, {"--proc", "/proc"}));
  CHECK(has(a, {"--dev", "/dev"}));
  CHECK(has(a, {"--ro-bind-try", "/opt/nvidia/lib64", "/opt/nvidia/lib64"}));
  // A private, bounded /tmp, made before anything is bound below it.
  const long tmp = find_option(a, {"--tmpfs", "/tmp"});
  REQUIRE(tmp >= 2);
  CHECK(a[tmp - 2] == "--size");
  CHECK(a[tmp - 1] == std::to_string(spec.tmp_bytes));
  CHECK(has(a, {"--ro-bind", "/work/in", "/gpulab/input"}));
  CHECK(has(a, {"--bind", "/work/out", "/gpulab/out"}));
  CHECK(has(a, {"--ro-bind-try", "/work/tools", "/work/tools"}));
  CHECK(find_option(a, {"--ro-bind", "/work/in", "/gpulab/input"}) > tmp);
  CHECK(has(a, {"--chdir", "/gpulab/out"}));
  // The tree bwrap builds is read-only once made; the last mount option.
  const long root_ro = find_option(a, {"--remount-ro", "/"});
  CHECK(root_ro > find_option(a, {"--bind", "/work/out", "/gpulab/out"}));
  CHECK(has(a, {"--remount-ro", "/dev"}));
  // No device beyond bwrap's minimal /dev without the GPU.
  CHECK_FALSE(has(a, {"--dev-bind", "/dev/nvidia0", "/dev/nvidia0"}));
  CHECK_FALSE(has(a, {"--ro-bind", "/sys", "/sys"}));
}

TEST_CASE("the GPU's device nodes, and only they, are passed in for GPU runs") {
  SandboxSpec spec;
  spec.gpu = true;
  const auto a = gpulab::bwrap_options(spec, fake_host());
  INFO(joined(a));
  for (const char* dev : {"/dev/nvidia0", "/dev/nvidia-uvm", "/dev/nvidiactl"})
    CHECK(has(a, {"--dev-bind", dev, dev}));
  CHECK(std::count(a.begin(), a.end(), "--dev-bind") == 3);
  CHECK(has(a, {"--ro-bind", "/sys", "/sys"}));
}

TEST_CASE("gpulab's trees are masked where a system directory holds them") {
  SandboxSpec spec;
  spec.hidden = {"/usr/local/gpulab", "/srv/gpulab-build"};
  spec.mounts = {{"/usr/local/gpulab/labs/scan", "/usr/local/gpulab/labs/scan", false, false}};
  SandboxHost host = fake_host();
  host.extra_system_dirs.push_back("/srv/gpulab-build/lib");  // on LD_LIBRARY_PATH
  const auto a = gpulab::bwrap_options(spec, host);
  INFO(joined(a));
  const long mask = find_option(a, {"--tmpfs", "/usr/local/gpulab"});
  REQUIRE(mask > find_option(a, {"--ro-bind", "/usr", "/usr"}));
  // The lab's folder is bound back into the mask, which is then made read-only.
  CHECK(find_option(
            a, {"--ro-bind", "/usr/local/gpulab/labs/scan", "/usr/local/gpulab/labs/scan"}) > mask);
  CHECK(has(a, {"--remount-ro", "/usr/local/gpulab"}));
  // A tree outside every system directory is simply not there: nothing to mask. And a library
  // directory inside gpulab's build is not bound for the loader.
  CHECK_FALSE(has(a, {"--tmpfs", "/srv/gpulab-build"}));
  CHECK_FALSE(has(a, {"--ro-bind-try", "/srv/gpulab-build/lib", "/srv/gpulab-build/lib"}));
}

TEST_CASE("a run sees its runner, its dataset's input directory alone and its own output") {
  const SandboxSpec s = gpulab::run_sandbox(
      fake_paths(), "/tmp/w/student-build/runner",
      "/srv/gpulab/build/cache/datasets/scan/public/tiny/input", "/tmp/w/runs/x", false);
  REQUIRE(s.mounts.size() == 3);
  CHECK(s.mounts[0].inside == gpulab::RunPaths::runner);
  CHECK(s.mounts[1].host == "/srv/gpulab/build/cache/datasets/scan/public/tiny/input");
  CHECK(s.mounts[1].inside == gpulab::RunPaths::input);
  CHECK(s.mounts[2].inside == gpulab::RunPaths::out);
  int writable = 0;
  for (const auto& m : s.mounts) writable += m.writable;
  CHECK(writable == 1);
  CHECK(s.mounts[2].writable);
  // Nothing that holds the expected outputs (the dataset's own directory, the cache) is bound.
  CHECK(mounts_in(s, "/srv/gpulab/build/cache/datasets/scan/public/tiny/expected").empty());
  for (const auto& m : s.mounts)
    CHECK(m.host != "/srv/gpulab/build/cache/datasets/scan/public/tiny");
  CHECK(s.cwd == gpulab::RunPaths::out);
  CHECK_FALSE(s.gpu);
  CHECK(gpulab::run_sandbox(fake_paths(), "/r", "/i", "/o", true).gpu);
  // Of the system, only what its runner loads.
  CHECK(s.system == gpulab::SystemView::libraries);
}

TEST_CASE("a run sees the files its runner loads in place of /usr, /lib and the rest") {
  SandboxSpec spec = gpulab::run_sandbox(fake_paths(), "/w/runner", "/w/in", "/w/out", false);
  SandboxHost host = fake_host();
  host.root_dirs = {"/lib32"};  // a directory, as on a system without a merged /usr
  const std::string libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
  const std::string libstdcxx = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30";
  const std::string ld = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
  host.run_libraries.runner = {{ld, ld},
                               {ld, "/lib64/ld-linux-x86-64.so.2"},
                               {libc, libc},
                               {libc, "/lib/x86_64-linux-gnu/libc.so.6"},
                               {libstdcxx, libstdcxx},
                               {libstdcxx, "/lib/x86_64-linux-gnu/libstdc++.so.6"},
                               {"/srv/gpulab/build/lib/libx.so", "/srv/gpulab/build/lib/libx.so"}};
  const std::string cuda = "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06";
  host.run_libraries.driver = {{cuda, cuda}, {cuda, "/lib/x86_64-linux-gnu/libcuda.so.1"}};
  auto a = gpulab::bwrap_options(spec, host);
  INFO(joined(a));
  CHECK_FALSE(has(a, {"--ro-bind", "/usr", "/usr"}));
  CHECK_FALSE(has(a, {"--symlink", "usr/lib", "/lib"}));
  CHECK_FALSE(has(a, {"--ro-bind", "/lib32", "/lib32"}));
  CHECK_FALSE(has(a, {"--ro-bind-try", "/opt/nvidia/lib64", "/opt/nvidia/lib64"}));
  CHECK_FALSE(has(a, {"--ro-bind-try", "/etc/alternatives", "/etc/alternatives"}));
  CHECK(has(a, {"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"}));
  for (const auto& f : host.run_libraries.runner)
    CHECK(has(a, {"--ro-bind", f.file, f.at}) != (f.file.string().rfind("/srv/gpulab", 0) == 0));
  // Each file bound, the runner, its input: nothing else read-only; no driver for a CPU part.
  CHECK(std::count(a.begin(), a.end(), "--ro-bind") == 6 + 2);
  CHECK_FALSE(has(a, {"--ro-bind", cuda, "/lib/x86_64-linux-gnu/libcuda.so.1"}));
  // A GPU part: the driver's files too, with the device nodes and /sys.
  spec.gpu = true;
  a = gpulab::bwrap_options(spec, host);
  CHECK(has(a, {"--ro-bind", cuda, cuda}));
  CHECK(has(a, {"--ro-bind", cuda, "/lib/x86_64-linux-gnu/libcuda.so.1"}));
  CHECK(has(a, {"--dev-bind", "/dev/nvidia0", "/dev/nvidia0"}));
  CHECK(has(a, {"--ro-bind", "/sys", "/sys"}));
  CHECK_FALSE(has(a, {"--ro-bind", "/usr", "/usr"}));
}

TEST_CASE("a build sees the submission, the lab's folder and the libraries, never reference/") {
  const gpulab::Paths p = fake_paths();
  for (const gpulab::Backend backend : {gpulab::Backend::cuda, gpulab::Backend::sim}) {
    INFO(gpulab::backend_name(backend));
    const SandboxSpec s =
        gpulab::build_sandbox(fake_recipe(backend), p, "/tmp/w/submission", "/tmp/w/student-build");
    CHECK(mounts_in(s, p.source / "reference").empty());
    CHECK(mounts_in(s, p.build / "cache").empty());
    CHECK(mounts_in(s, p.build / "runners").empty());
    CHECK(mounts_in(s, p.source / "datasets").empty());
    CHECK(mounts_in(s, "/tmp/w/submission").size() == 1);
    CHECK(mounts_in(s, "/srv/gpulab/labs/scan").size() == 1);
    CHECK(mounts_in(s, p.harness_lib(backend)).size() == 1);
    CHECK(mounts_in(s, p.driver_lib("scan", backend)).size() == 1);
    CHECK(mounts_in(s, p.sim_cc()).size() == (backend == gpulab::Backend::sim ? 1u : 0u));
    // The sim runtime the recipe links is gpulab-sim-cc's own: bound once.
    CHECK(mounts_in(s, p.sim_lib).size() == (backend == gpulab::Backend::sim ? 1u : 0u));
    std::vector<fs::path> writable;
    for (const auto& m : s.mounts) {
      CHECK(m.inside == m.host);  // compiler messages name the files as the grader knows them
      if (m.writable) writable.push_back(m.host);
    }
    CHECK(writable == std::vector<fs::path>{"/tmp/w/student-build"});
    CHECK(s.cwd == "/tmp/w/student-build");
    CHECK(std::count(s.hidden.begin(), s.hidden.end(), p.source) == 1);
    CHECK(std::count(s.hidden.begin(), s.hidden.end(), p.build) == 1);
    CHECK(std::count(s.hidden.begin(), s.hidden.end(), p.cache_dir()) == 1);
    CHECK(s.system == gpulab::SystemView::whole);  // compilers need the system
  }
}

TEST_CASE("a sandboxed child keeps a short list of environment variables") {
  for (const char* kept :
       {"PATH", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "GPULAB_SIM_THREADS"})
    CHECK_MESSAGE(gpulab::sandbox_keeps_env(kept), kept);
  for (const char* dropped :
       {"GPULAB_HIDDEN_SEED", "HOME", "SSH_AUTH_SOCK", "GPULAB_SOURCE_DIR", "PATHX", "AWS_SECRET"})
    CHECK_FALSE_MESSAGE(gpulab::sandbox_keeps_env(dropped), dropped);
}

TEST_CASE("each sandboxed child of a root grader gets a uid of its own, drawn at random") {
  std::set<uid_t> uids;
  for (int i = 0; i < 200; ++i) uids.insert(gpulab::sandbox_uid());
  // 2^28 uids: two of 200 draws coincide about once in 13,000 tests, three almost never.
  CHECK(uids.size() >= 199);
  CHECK(*uids.begin() >= 0x70000000u);
  CHECK(*uids.rbegin() < 0x80000000u);
  // Not the grader's pid and a counter: a child cannot work out another's uid from its own.
  // Consecutive draws are spread over the range, not neighbours.
  const uid_t a = gpulab::sandbox_uid(), b = gpulab::sandbox_uid();
  CHECK((a > b ? a - b : b - a) > 64u);
}

TEST_CASE("without bubblewrap the sandbox is off and says why") {
  // The caller's choice of bwrap (a machine without it on PATH) is restored for later tests.
  const char* before = std::getenv("GPULAB_BWRAP");
  const std::string saved = before ? before : "";
  setenv("GPULAB_BWRAP", "/nonexistent/bwrap", 1);
  const gpulab::Sandbox s = gpulab::Sandbox::detect(gpulab::Paths::current(), false);
  if (before)
    setenv("GPULAB_BWRAP", saved.c_str(), 1);
  else
    unsetenv("GPULAB_BWRAP");
  CHECK_FALSE(s.enabled());
  CHECK(contains(s.problem(), "/nonexistent/bwrap"));
  CHECK(s.to_json()["enabled"] == false);
  // What a child gets then: tests/unit/unsandboxed_test.cpp.
}

// The real thing: this machine's bubblewrap (scripts/setup.sh installs it; CI has it).
TEST_CASE("a confined child sees only what it is given, has no network and few processes") {
  const gpulab::Paths paths = gpulab::Paths::current();
  const gpulab::Sandbox sandbox = gpulab::Sandbox::detect(paths, false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  CHECK(contains(sandbox.version(), "bubblewrap"));
  test::TempDir tmp;
  fs::create_directories(tmp / "in");
  test::write_file(tmp / "in" / "data.txt", "input-data\n");
  fs::create_directories(tmp / "out");
  fs::permissions(tmp.path(), fs::perms::others_exec, fs::perm_options::add);
  SandboxSpec spec;
  spec.mounts = {{tmp / "in", "/gpulab/input", false, false},
                 {tmp / "out", "/gpulab/out", true, false}};
  spec.cwd = "/gpulab/out";
  spec.hidden = {paths.source, paths.build};
  const fs::path reference = paths.source / "reference";
  REQUIRE(fs::exists(reference));
  setenv("GPULAB_HIDDEN_SEED", "12345", 1);
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  po.argv = {"/bin/sh", "-c",
             "cat /gpulab/input/data.txt; echo written > result.txt && echo wrote-out;"
             "ls " +
                 reference.string() +
                 " >/dev/null 2>&1 || echo no-reference;"
                 "ls " +
                 (paths.build / "cache").string() +
                 " >/dev/null 2>&1 || echo no-cache;"
                 "echo x > /gpulab/input/new 2>/dev/null || echo input-read-only;"
                 "echo x > /planted 2>/dev/null || echo root-read-only;"
                 "echo \"seed=$GPULAB_HIDDEN_SEED\";"
                 "cat /proc/self/limits | grep 'Max processes';"
                 "ls /proc | grep -c '^[0-9]' | sed 's/^/processes-visible=/';"
                 "i=0; while [ $i -lt 400 ]; do sleep 5 & i=$((i+1)); done; echo forked-all"};
  const gpulab::ProcessResult r = gpulab::run_process(sandbox.confine(po, spec));
  unsetenv("GPULAB_HIDDEN_SEED");
  INFO(r.output);
  CHECK(contains(r.output, "input-data"));
  CHECK(contains(r.output, "wrote-out"));
  CHECK(test::read_file(tmp / "out" / "result.txt") == "written\n");
  CHECK(contains(r.output, "no-reference"));
  CHECK(contains(r.output, "no-cache"));
  CHECK(contains(r.output, "input-read-only"));
  CHECK_FALSE(fs::exists(tmp / "in" / "new"));
  CHECK(contains(r.output, "root-read-only"));
  CHECK(contains(r.output, "seed=\n"));
  CHECK_FALSE(contains(r.output, "12345"));
  // Its own pid namespace: bwrap, the shell and the commands of the moment, not the machine's.
  CHECK(contains(r.output, "processes-visible="));
  const size_t at = r.output.find("processes-visible=") + 18;
  CHECK(std::stoi(r.output.substr(at)) < 10);
  // The process limit stops the loop long before 400 sleeping children.
  CHECK(contains(r.output, "Cannot fork"));
  CHECK_FALSE(contains(r.output, "forked-all"));
  CHECK(r.wall_s < 20);  // the sleeping children died with the sandbox
}

TEST_CASE("a confined child has no network but a loopback") {
  const gpulab::Sandbox sandbox = gpulab::Sandbox::detect(gpulab::Paths::current(), false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  po.argv = {"/bin/sh", "-c", "ls /sys/class/net 2>/dev/null; cat /proc/net/dev"};
  const gpulab::ProcessResult r = gpulab::run_process(sandbox.confine(po, SandboxSpec{}));
  INFO(r.output);
  REQUIRE(r.ok());
  // /proc/net/dev lists the namespace's interfaces, one a line after two header lines.
  std::vector<std::string> interfaces;
  std::istringstream lines(r.output.substr(r.output.find("Inter-")));
  std::string line;
  for (int i = 0; std::getline(lines, line); ++i)
    if (i >= 2 && line.find(':') != std::string::npos) {
      line = line.substr(0, line.find(':'));
      line.erase(0, line.find_first_not_of(' '));
      interfaces.push_back(line);
    }
  CHECK(interfaces == std::vector<std::string>{"lo"});
}

TEST_CASE("a confined child killed by a signal is reported as killed by it") {
  const gpulab::Sandbox sandbox = gpulab::Sandbox::detect(gpulab::Paths::current(), false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  po.argv = {"/bin/sh", "-c", "kill -SEGV $$"};
  const gpulab::ProcessResult r = sandbox.run(po, SandboxSpec{});
  CHECK(r.signal == SIGSEGV);
  CHECK(contains(r.describe(), "segmentation fault"));
  po.argv = {"/bin/sh", "-c", "exit 3"};
  CHECK(sandbox.run(po, SandboxSpec{}).exit_code == 3);
}

TEST_CASE("a confined run sees the libraries its program loads, and no other file of the system") {
  gpulab::Sandbox sandbox = gpulab::Sandbox::detect(gpulab::Paths::current(), false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  test::TempDir tmp;
  fs::create_directories(tmp / "out");
  fs::permissions(tmp.path(), fs::perms::others_exec, fs::perm_options::add);
  SandboxSpec spec =
      gpulab::run_sandbox(gpulab::Paths::current(), "/bin/bash", tmp / "out", tmp / "out", false);
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  po.argv = {"/gpulab/runner", "-c", ""};
  CHECK_THROWS_AS(sandbox.confine(po, spec), std::logic_error);  // before show_runs

  // The shell as the runner: its libraries, and files of the system it does not load.
  const gpulab::LibrarySearch search = gpulab::LibrarySearch::current();
  const gpulab::LibraryClosure closure = gpulab::library_closure("/bin/bash", search);
  gpulab::RunLibraries shell;
  shell.runner = gpulab::system_files(closure.files);
  sandbox.show_runs(shell);
  std::vector<std::string> absent = {"/usr/bin/c++", "/bin/sh", "/usr/local/cuda", "/etc/passwd"};
  for (const char* lib : {"libz.so.1", "libcrypto.so.3", "libarchive.so.13"})
    for (const auto& f : gpulab::find_library(lib, "/bin/bash", search))
      absent.insert(absent.end(), {f.opened.string(), f.file.string()});
  std::string script;
  for (const auto& f : shell.runner)
    script += "[ -f '" + f.at.string() + "' ] || echo missing " + f.at.string() + ";";
  for (const auto& p : absent) script += "[ -e '" + p + "' ] && echo present " + p + ";";
  po.argv = {"/gpulab/runner", "-c", script + "echo done"};
  const gpulab::ProcessResult r = sandbox.run(po, spec);
  INFO(r.output);
  REQUIRE(r.ok());
  CHECK(absent.size() > 4);  // the host has them
  CHECK_FALSE(contains(r.output, "missing"));
  CHECK_FALSE(contains(r.output, "present"));
  CHECK(contains(r.output, "done"));
}
