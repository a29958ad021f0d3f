#include "sandbox/sandbox.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "files/random_bytes.h"
#include "files/temp_folder.h"
#include "os/seccomp_filter.h"
#include "sandbox/ld_so_cache.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// The read-only system a build sees (SystemView::whole; a run sees its runner's libraries
// alone). /etc is not there: only the loader's cache and configuration, and Debian's
// alternatives (/usr/bin/c++ is a link through them).
const char* const kSystemDirs[] = {"/usr"};
const char* const kEtcFiles[] = {kLdSoCache, "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                 "/etc/alternatives"};
const char* const kRootEntries[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

// Where bubblewrap reads the seccomp program from: clear of the sample channel's 3 and 4.
constexpr int kSeccompFd = 10;

// The private /tmp of a build: nvcc keeps its intermediate files there.
constexpr size_t kBuildTmpBytes = size_t{1} << 30;
// The tmpfs laid over a hidden directory: it only holds mount points.
constexpr size_t kMaskBytes = size_t{1} << 20;
// POSIX shared memory.
constexpr size_t kShmBytes = size_t{64} << 20;

// The first uid of the range gpulab gives sandboxed children when the grader is root: past the
// ranges Linux distributions and container runtimes hand out (up to 0x6fffffff for nspawn), below
// 2^31, which some tools cannot print.
constexpr uid_t kFirstSandboxUid = 0x70000000;

bool under(const fs::path& path, const fs::path& dir) {
  const fs::path rel = path.lexically_normal().lexically_relative(dir.lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

bool under_any(const fs::path& path, const std::vector<fs::path>& dirs) {
  return std::any_of(dirs.begin(), dirs.end(), [&](const fs::path& d) { return under(path, d); });
}

// The files of the system a run sees (SystemView::libraries): its runner's, and the driver's for
// a GPU run; none of gpulab's trees, should the loader find a library there.
std::vector<SystemFile> run_files(const SandboxSpec& spec, const SandboxHost& host) {
  std::vector<SystemFile> files;
  const RunLibraries& libs = host.run_libraries;
  for (const auto* part : {&libs.runner, spec.gpu ? &libs.driver : nullptr})
    if (part)
      for (const SystemFile& f : *part)
        if (!under_any(f.file, spec.hidden) && !under_any(f.at, spec.hidden)) files.push_back(f);
  return files;
}

// The directories (and files) of the read-only system that `host` binds, as they appear inside.
std::vector<fs::path> system_dirs(const SandboxSpec& spec, const SandboxHost& host) {
  std::vector<fs::path> dirs;
  if (spec.system == SystemView::libraries) {
    for (const SystemFile& f : run_files(spec, host)) dirs.push_back(f.at);
    dirs.emplace_back(kLdSoCache);
  } else {
    dirs.assign(std::begin(kSystemDirs), std::end(kSystemDirs));
    for (const char* f : kEtcFiles) dirs.emplace_back(f);
    dirs.insert(dirs.end(), host.root_dirs.begin(), host.root_dirs.end());
    for (const auto& d : host.extra_system_dirs)
      if (!under_any(d, spec.hidden)) dirs.push_back(d);
  }
  if (spec.gpu) dirs.emplace_back("/sys");
  return dirs;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// ": what it printed", when it printed anything.
std::string with_output(const ProcessResult& r) {
  const std::string out = trim(r.output);
  return out.empty() ? "" : ": " + out;
}

// The processes and threads of `uid` now: RLIMIT_NPROC counts them all, so a limit for a child
// of a grader that is not root must leave room for them.
size_t tasks_of(uid_t uid) {
  size_t tasks = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "status");
    std::string line;
    bool mine = false;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string key;
      fields >> key;
      if (key == "Uid:") {
        uid_t real = 0;
        fields >> real;
        mine = real == uid;
      } else if (key == "Threads:" && mine) {
        size_t n = 0;
        fields >> n;
        tasks += n;
      }
    }
  }
  return tasks;
}

// Why the sandbox's user (not the owner, in no group of the grader) cannot use `m`, or "":
// bwrap runs as that user, so every directory above a mount must be searchable by others, and
// what it reads must be readable by others.
std::string unreachable(const SandboxMount& m) {
  struct stat st {};
  if (stat(m.host.c_str(), &st) != 0) return m.optional ? "" : m.host.string() + " is missing";
  fs::path above;
  for (const auto& part : m.host.parent_path()) {
    above /= part;
    struct stat a {};
    if (stat(above.c_str(), &a) == 0 && !(a.st_mode & S_IXOTH))
      return above.string() + " is not searchable by other users (chmod o+x)";
  }
  const mode_t need = S_ISDIR(st.st_mode) ? (S_IROTH | S_IXOTH) : S_IROTH;
  if (!m.writable && (st.st_mode & need) != need)
    return m.host.string() + " is not readable by other users (a umask of 077?)";
  return "";
}

std::string find_bwrap() {
  if (const char* env = std::getenv("GPULAB_BWRAP"); env && *env) return env;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((fs::path(dir) / "bwrap").c_str(), X_OK) == 0)
      return (fs::path(dir) / "bwrap").string();
  return "bwrap";
}

}  // namespace

SandboxHost SandboxHost::current(const Paths& paths) {
  SandboxHost h;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/dev", ec))
    if (e.path().filename().string().rfind("nvidia", 0) == 0) h.nvidia_devices.push_back(e.path());
  std::sort(h.nvidia_devices.begin(), h.nvidia_devices.end());
  for (const char* entry : kRootEntries) {
    if (fs::is_symlink(entry, ec))
      h.root_links.emplace_back(entry, fs::read_symlink(entry, ec));
    else if (fs::is_directory(entry, ec))
      h.root_dirs.emplace_back(entry);
  }
  if (const char* lib_path = std::getenv("LD_LIBRARY_PATH")) {
    std::istringstream dirs(lib_path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (fs::path(dir).is_absolute() && fs::is_directory(dir, ec))
        h.extra_system_dirs.push_back(dir);
  }
  // The CUDA toolkit where it is not under /usr (/opt/cuda, say): nvcc lives in its bin/.
  const fs::path toolkit = fs::weakly_canonical(paths.nvcc, ec).parent_path().parent_path();
  if (!toolkit.empty() && toolkit != "/" && !under(toolkit, "/usr") &&
      fs::is_directory(toolkit, ec))
    h.extra_system_dirs.push_back(toolkit);
  return h;
}

std::vector<std::string> bwrap_options(const SandboxSpec& spec, const SandboxHost& host) {
  // Every namespace new: no network (only a loopback with nothing behind it), its own pids (so
  // killing bwrap kills everything the child started, whatever session it moved to), no way to
  // make user namespaces of its own, no capabilities, killed with its parent.
  std::vector<std::string> a = {
      "--unshare-all",     "--unshare-user", "--disable-userns", "--cap-drop",    "ALL",
      "--die-with-parent", "--new-session",  "--hostname",       "gpulab-sandbox"};
  auto add = [&a](std::initializer_list<std::string> more) { a.insert(a.end(), more); };
  if (spec.system == SystemView::libraries) {
    // A run: the files its runner loads, at the paths the loader opens, and the loader's cache,
    // which only names paths (a library it names whose file is not bound fails to load).
    for (const SystemFile& f : run_files(spec, host)) add({"--ro-bind", f.file, f.at});
    add({"--ro-bind-try", kLdSoCache, kLdSoCache});
  } else {
    for (const char* d : kSystemDirs) add({"--ro-bind", d, d});
    for (const auto& [link, target] : host.root_links) add({"--symlink", target, link});
    for (const auto& d : host.root_dirs) add({"--ro-bind", d, d});
    for (const char* f : kEtcFiles) add({"--ro-bind-try", f, f});
    for (const auto& d : host.extra_system_dirs)
      if (!under_any(d, spec.hidden)) add({"--ro-bind-try", d, d});
  }
  add({"--proc", "/proc", "--dev", "/dev"});
  add({"--size", std::to_string(kShmBytes), "--tmpfs", "/dev/shm"});
  add({"--size", std::to_string(spec.tmp_bytes), "--tmpfs", "/tmp"});
  if (spec.gpu) {
    for (const auto& dev : host.nvidia_devices) add({"--dev-bind", dev, dev});
    add({"--ro-bind", "/sys", "/sys"});
  }
  // gpulab's trees, wherever a system directory holds them, under an empty tmpfs; what a child
  // needs from them is bound back below.
  const std::vector<fs::path> system = system_dirs(spec, host);
  std::vector<fs::path> masks;
  for (const auto& h : spec.hidden)
    if (under_any(h, system)) masks.push_back(h);
  for (const auto& h : masks) add({"--size", std::to_string(kMaskBytes), "--tmpfs", h});
  for (const auto& m : spec.mounts) {
    const std::string bind = m.writable ? "--bind" : "--ro-bind";
    add({m.optional ? bind + "-try" : bind, m.host, m.inside});
  }
  // The tmpfs bwrap builds the tree on (the root, /dev, the masks) read-only once every mount
  // point is made: in memory and without a size, it would take whatever a child wrote there.
  for (const auto& h : masks) add({"--remount-ro", h});
  add({"--remount-ro", "/dev", "--remount-ro", "/"});
  if (!spec.cwd.empty()) add({"--chdir", spec.cwd});
  if (spec.no_new_processes && !no_new_processes_filter().empty())
    add({"--seccomp", std::to_string(kSeccompFd)});
  return a;
}

SandboxSpec build_sandbox(const RunnerRecipe& recipe, const Paths& paths, const fs::path& src_dir,
                          const fs::path& work_dir) {
  SandboxSpec s;
  auto ro = [&s](const fs::path& p, bool optional = false) {
    for (const SandboxMount& m : s.mounts)
      if (m.host == p) return;  // the recipe's sim runtime is gpulab-sim-cc's own
    s.mounts.push_back({p, p, false, optional});
  };
  ro(src_dir);
  for (const fs::path& dir : recipe.include_dirs) ro(dir);
  for (const LinkedArchive& a : recipe.link_whole) ro(a.path);
  if (recipe.backend == Backend::sim) {
    ro(recipe.compiler);
    // Missing pieces fail the build with the compiler's own message, as without the sandbox.
    ro(paths.sim_rewriter, true);
    ro(paths.sim_include, true);
    ro(paths.sim_lib, true);
  }
  s.mounts.push_back({work_dir, work_dir, true, false});
  s.cwd = work_dir;
  s.tmp_bytes = kBuildTmpBytes;
  s.hidden = {paths.source, paths.build, paths.cache_dir()};
  return s;
}

SandboxSpec run_sandbox(const Paths& paths, const fs::path& runner, const fs::path& input_dir,
                        const fs::path& out_dir, bool gpu) {
  SandboxSpec s;
  s.mounts = {{runner, RunPaths::runner, false, false},
              {input_dir, RunPaths::input, false, false},
              {out_dir, RunPaths::out, true, false}};
  s.system = SystemView::libraries;
  s.gpu = gpu;
  s.cwd = RunPaths::out;
  s.hidden = {paths.source, paths.build, paths.cache_dir()};
  s.no_new_processes = true;
  return s;
}

bool sandbox_keeps_env(const std::string& name) {
  static const char* const kKept[] = {"PATH",
                                      "LANG",
                                      "LANGUAGE",
                                      "TZ",
                                      "LD_LIBRARY_PATH",
                                      "CUDA_VISIBLE_DEVICES",
                                      "CUDA_DEVICE_ORDER",
                                      "CUDA_MODULE_LOADING"};
  for (const char* k : kKept)
    if (name == k) return true;
  return name.rfind("LC_", 0) == 0 || name.rfind("GPULAB_SIM_", 0) == 0;
}

std::string readable_by_other_users(const fs::path& file) {
  const fs::path absolute = fs::absolute(file);
  fs::path above;
  for (const auto& part : absolute.parent_path()) {
    above /= part;
    struct stat a {};
    if (stat(above.c_str(), &a) != 0 || !(a.st_mode & S_IXOTH)) return "";
  }
  struct stat st {};
  if (stat(absolute.c_str(), &st) != 0 || !(st.st_mode & S_IROTH)) return "";
  return absolute.string() + " is readable by other users (mode " +
         std::to_string((st.st_mode >> 6) & 7) + std::to_string((st.st_mode >> 3) & 7) +
         std::to_string(st.st_mode & 7) + ", and every folder above it open to them)";
}

uid_t sandbox_uid() {
  uint32_t r = 0;
  random_bytes(&r, sizeof r);
  return kFirstSandboxUid + (r & ((uint32_t{1} << 28) - 1));
}

Sandbox Sandbox::detect(const Paths& paths, bool gpu) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, bool>, Sandbox> found;
  const std::string bwrap = find_bwrap();
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = found.find({bwrap, gpu}); it != found.end()) return it->second;

  Sandbox s;
  s.bwrap_ = bwrap;
  s.paths_ = paths;
  ProcessOptions version;
  version.argv = {bwrap, "--version"};
  version.timeout_s = 10;
  const ProcessResult v = run_process(version);
  if (!v.ok()) {
    s.problem_ = "bubblewrap (" + bwrap + ") " + v.describe() + with_output(v);
  } else {
    s.version_ = trim(v.output);
    // A child as a build or a run would start it: the system, gpulab's folders that builds and
    // runs bind (they must be reachable by the sandbox's user), a writable directory, the GPU.
    fs::path tmpl;
    try {
      tmpl = make_temp_folder("gpulab-sandbox-probe", "trying bubblewrap");
    } catch (const std::runtime_error& e) {
      s.problem_ = e.what();
    }
    if (!tmpl.empty()) {
      SandboxSpec spec;
      spec.mounts = {{paths.source / "labs", "/gpulab/labs", false, false},
                     {paths.build / "lib", "/gpulab/lib", false, false},
                     {tmpl, RunPaths::out, true, false}};
      spec.gpu = gpu;
      spec.cwd = RunPaths::out;
      spec.hidden = {paths.source, paths.build, paths.cache_dir()};
      s.enabled_ = true;
      ProcessOptions probe;
      probe.argv = {"true"};
      probe.timeout_s = 30;
      ProcessResult r;
      try {
        r = run_process(s.confine(probe, spec));
      } catch (const std::exception& e) {
        r.start_error = e.what();
      }
      std::error_code ec;
      fs::remove_all(tmpl, ec);
      if (!r.ok()) {
        s.enabled_ = false;
        s.problem_ = "bubblewrap (" + bwrap + ", " + s.version_ +
                     ") cannot make a sandbox on this machine: it " + r.describe() +
                     with_output(r) +
                     ". (It needs user namespaces, and, when gpulab runs as root, gpulab's "
                     "folders readable by other users along their whole path.)";
      }
    }
  }
  found.emplace(std::make_pair(bwrap, gpu), s);
  return s;
}

fs::path Sandbox::inside(const SandboxSpec& spec, const fs::path& host) const {
  if (!enabled_) return host;
  for (const auto& m : spec.mounts) {
    if (host.lexically_normal() == m.host.lexically_normal()) return m.inside;
    if (under(host, m.host)) return m.inside / host.lexically_normal().lexically_relative(m.host);
  }
  return host;
}

void Sandbox::stage_runs_in(const fs::path& dir) {
  staging_ = std::make_shared<RunStaging>(dir);
}

void Sandbox::show_runs(RunLibraries libraries) {
  run_libraries_ = std::make_shared<const RunLibraries>(std::move(libraries));
}

bool Sandbox::run_unsandboxed_as_own_users() {
  unsandboxed_own_users_ = !enabled_ && geteuid() == 0;
  return unsandboxed_own_users_;
}

bool Sandbox::own_users() const {
  return geteuid() == 0 && (enabled_ || unsandboxed_own_users_);
}

fs::path Sandbox::stage_input(const fs::path& input) const {
  if (!(enabled_ || unsandboxed_own_users_) || !staging_) return input;
  return staging_->staged(input);
}

StagedRun Sandbox::stage_run(const fs::path& runner, const fs::path& input,
                             const fs::path& out_dir) const {
  // Outside the sandbox too, where children run as users of their own: the dataset's input
  // folder is reached through its stand-in, not through the cache, which is closed to them.
  if (!(enabled_ || unsandboxed_own_users_) || !staging_)
    return unstaged_run(runner, input, out_dir);
  return staging_->stage(runner, input, out_dir);
}

ProcessOptions Sandbox::confine(ProcessOptions po, const SandboxSpec& spec) const {
  if (enabled_) {
    std::vector<std::string> argv = {bwrap_};
    SandboxHost host = SandboxHost::current(paths_);
    if (spec.system == SystemView::libraries) {
      if (!run_libraries_)
        throw std::logic_error("a run was confined before its runner's libraries were read");
      host.run_libraries = *run_libraries_;
    }
    const auto options = bwrap_options(spec, host);
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("--");
    argv.insert(argv.end(), po.argv.begin(), po.argv.end());
    po.argv = std::move(argv);
    if (spec.no_new_processes && !no_new_processes_filter().empty())
      po.fd_inputs.emplace_back(kSeccompFd, no_new_processes_filter());
    po.cwd = "/";  // bwrap's own; the child's is spec.cwd
  } else {
    // No namespace: what bubblewrap would have done that needs none, run_process does. (Not with
    // bubblewrap: no_new_privs would stop a set-user-ID bwrap.)
    po.no_new_privs = true;
    if (spec.no_new_processes) po.seccomp_filter = no_new_processes_filter();
  }

  // The environment: the whitelist, a home and temporary directory in /tmp (the sandbox's own),
  // then what the caller sets, each name once.
  std::vector<std::string> env = {"HOME=/tmp", "TMPDIR=/tmp"};
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (sandbox_keeps_env(entry.substr(0, entry.find('=')))) env.push_back(entry);
  }
  env.insert(env.end(), po.env.begin(), po.env.end());
  std::map<std::string, std::string> last;  // the last value of each name wins
  for (const auto& entry : env) last[entry.substr(0, entry.find('='))] = entry;
  po.env.clear();
  for (const auto& [name, entry] : last) po.env.push_back(entry);
  po.inherit_env = false;

  if (own_users()) {
    const uid_t uid = sandbox_uid();
    po.run_as = std::make_pair(uid, static_cast<gid_t>(uid));
    po.process_limit = kSandboxProcesses;
    for (const auto& m : spec.mounts)
      if (const std::string why = unreachable(m); !why.empty())
        throw std::runtime_error("the sandbox cannot show " + m.host.string() +
                                 " to student code: " + why);
    for (const auto& m : spec.mounts)
      if (m.writable && chown(m.host.c_str(), uid, uid) != 0)
        throw std::runtime_error("cannot hand " + m.host.string() + " to the sandbox's user " +
                                 std::to_string(uid) + ": " + std::strerror(errno));
  } else if (geteuid() != 0) {
    // The grader's user: the limit counts its other processes too, so it gets room beyond them.
    rlimit current{};
    getrlimit(RLIMIT_NPROC, &current);
    po.process_limit = std::min<size_t>(tasks_of(getuid()) + kSandboxProcesses, current.rlim_max);
  }
  // (Else root, outside the sandbox, for gpulab run: RLIMIT_NPROC does not bind root.)
  return po;
}

ProcessResult Sandbox::run(const ProcessOptions& po, const SandboxSpec& spec) const {
  ProcessResult r = run_process(confine(po, spec));
  if (enabled_ && r.signal == 0 && r.exit_code > 128 && r.exit_code < 128 + NSIG) {
    r.signal = r.exit_code - 128;
    r.exit_code = -1;
  }
  return r;
}

nlohmann::json Sandbox::to_json() const {
  nlohmann::json j = {{"enabled", enabled_}};
  if (!version_.empty()) j["bwrap"] = version_;
  if (!problem_.empty()) j["problem"] = problem_;
  return j;
}

}  // namespace gpulab
