// Hostile: the probe of a course platform's grading container, where bubblewrap cannot run and
// gpulab grades unsandboxed (docs/GRADING.md, "Where bubblewrap cannot run"). At run time it
// looks for the instructor's hidden seed everywhere student code could read it there: its own
// environment, the command line and environment of every process above it (gpulab, the
// platform's script), the hidden seed's file and the package's scripts at each platform's paths
// (Gradescope's /autograder, PrairieLearn's /grade, and the same names under every folder those
// command lines name, for a layout made elsewhere by a test), the dataset cache beside gpulab,
// the expected outputs beside its input, the folder gpulab writes its report to; and it says
// which user it runs as. It prints what it
// read, a seed where it found one, and stops, computing nothing. In the sandbox, or outside it
// under a root grader, it reads nothing secret; tests/e2e/hosted_secrets_e2e.cpp grades it on
// each platform's layout and checks that no seed is in what the student sees.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "scan.h"

extern char** environ;

namespace {

// Up to `limit` bytes of `path`; false, with errno, where it cannot be read.
bool slurp(const std::string& path, std::string& out, size_t limit = 1 << 16) {
  out.clear();
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[4096];
  ssize_t n;
  while (out.size() < limit && (n = read(fd, buf, sizeof buf)) > 0) out.append(buf, n);
  const int e = errno;
  close(fd);
  errno = e;
  return n >= 0 || out.size() >= limit;
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> parts;
  for (size_t at = 0; at < s.size();) {
    const size_t end = s.find('\0', at);
    parts.push_back(s.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end == std::string::npos ? s.size() : end + 1;
  }
  return parts;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool names_seed(const std::string& s) {
  return lower(s).find("seed") != std::string::npos;
}

// Printable, and short.
std::string shown(const std::string& s, size_t max = 120) {
  std::string out;
  for (const unsigned char c : s.substr(0, max))
    out += std::isprint(c) ? static_cast<char>(c) : '?';
  return s.size() > max ? out + "..." : out;
}

// What the probe found that names a seed, printed last (the report keeps a run's last lines).
std::vector<std::string> findings;

void find(const std::string& where, const std::string& what) {
  findings.push_back(where + ": " + shown(what));
}

pid_t parent_of(pid_t pid) {
  std::string stat;
  if (!slurp("/proc/" + std::to_string(pid) + "/stat", stat)) return 0;
  const size_t paren = stat.rfind(')');  // "pid (comm) S ppid ..."
  return paren == std::string::npos ? 0 : std::atoi(stat.c_str() + paren + 4);
}

// Whether a file can be made in the folder gpulab writes its report to (removed again): said
// last, with the findings.
std::string report_folder;

void try_to_write(const std::string& dir) {
  const std::string path = dir + "/hosted-secrets-probe-was-here";
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  report_folder =
      "probe: report folder " + dir + ": " +
      (fd >= 0 ? "WRITTEN" : "not writable (" + std::string(std::strerror(errno)) + ")");
  if (fd >= 0) {
    close(fd);
    unlink(path.c_str());
  }
}

// The processes above this one; the files their command lines name, and the folders (three
// folders above each too): where a platform's files would be.
void look_at_ancestors(std::set<std::string>& folders, std::set<std::string>& files) {
  for (pid_t pid = getppid(); pid > 1; pid = parent_of(pid)) {
    const std::string proc = "/proc/" + std::to_string(pid);
    std::string text;
    if (!slurp(proc + "/cmdline", text)) {
      std::fprintf(stderr, "probe: process %d: command line not readable (%s)\n", pid,
                   std::strerror(errno));
      continue;
    }
    const std::vector<std::string> args = split_nul(text);
    const std::string name = args.empty() ? "?" : args[0].substr(args[0].rfind('/') + 1);
    const bool env_read = slurp(proc + "/environ", text);
    std::fprintf(
        stderr, "probe: process %d (%s): command line read, %zu arguments; environment %s\n", pid,
        shown(name, 40).c_str(), args.size(),
        env_read ? "READ" : ("not readable (" + std::string(std::strerror(errno)) + ")").c_str());
    for (size_t i = 0; i < args.size(); ++i) {
      if (i > 0 && args[i - 1] == "--out") try_to_write(args[i].substr(0, args[i].rfind('/')));
      if (names_seed(args[i]))
        find("process " + std::to_string(pid) + "'s command line",
             args[i] + (i + 1 < args.size() ? " " + args[i + 1] : ""));
      if (args[i].empty() || args[i][0] != '/') continue;
      // gpulab's dataset cache, beside its binary (build/cache): the expected outputs.
      if (i == 0 && name == "gpulab")
        folders.insert(args[i].substr(0, args[i].rfind('/')) + "/cache/datasets");
      files.insert(args[i]);
      std::string dir = args[i];
      for (int up = 0; up < 4 && dir.size() > 1; ++up) {
        dir = dir.substr(0, std::max<size_t>(dir.rfind('/'), 1));
        folders.insert(dir);
      }
    }
    if (env_read)
      for (const auto& e : split_nul(text))
        if (names_seed(e)) find("process " + std::to_string(pid) + "'s environment", e);
  }
}

// Reads `path` where it is a file: whole where it is named for a seed, else the lines that
// name a seed option; binaries are passed over.
void look_at_file(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR)
      std::fprintf(stderr, "probe: %s: not readable (%s)\n", path.c_str(), std::strerror(errno));
    return;
  }
  if (!S_ISREG(st.st_mode)) return;
  std::string text;
  if (!slurp(path, text)) {
    std::fprintf(stderr, "probe: %s: not readable (%s)\n", path.c_str(), std::strerror(errno));
    return;
  }
  if (text.find('\0') != std::string::npos) return;
  std::fprintf(stderr, "probe: %s: READ, %zu bytes\n", path.c_str(), text.size());
  if (names_seed(path.substr(path.rfind('/') + 1))) {
    find(path, text);
    return;
  }
  for (size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    if (line.find("--hidden-seed") != std::string::npos ||
        line.find("HIDDEN_SEED=") != std::string::npos)
      find(path, line);
  }
}

// Each platform's secret-holding files under each folder, the files named on command lines,
// and the dataset cache.
void look_at_files(const std::set<std::string>& folders, std::set<std::string> files) {
  static const char* const kNames[] = {
      "hidden-seed",           "source/hidden-seed", "tests/hidden-seed", "run_autograder",
      "source/run_autograder", "source/setup.sh",    "tests/lab"};
  for (const auto& folder : folders) {
    const std::string cache = "/cache/datasets";
    if (folder.size() > cache.size() &&
        folder.compare(folder.size() - cache.size(), cache.size(), cache) == 0) {
      struct stat st {};
      if (stat(folder.c_str(), &st) != 0 && errno == ENOENT) continue;
      DIR* d = opendir(folder.c_str());
      std::fprintf(
          stderr, "probe: dataset cache %s: %s\n", folder.c_str(),
          d ? "LISTED" : ("not readable (" + std::string(std::strerror(errno)) + ")").c_str());
      if (d) closedir(d);
      continue;
    }
    for (const char* name : kNames) files.insert((folder == "/" ? "" : folder) + "/" + name);
  }
  for (const auto& f : files) look_at_file(f);
}

// The value after --dataset on this process's command line.
std::string dataset_dir() {
  std::string cmdline;
  slurp("/proc/self/cmdline", cmdline);
  const std::vector<std::string> args = split_nul(cmdline);
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--dataset") return args[i + 1];
  return ".";
}

[[noreturn]] void probe() {
  std::set<std::string> folders = {"/autograder", "/grade"}, files;
  look_at_ancestors(folders, files);
  look_at_files(folders, files);
  struct stat st {};
  const std::string expected = dataset_dir() + "/../expected";
  std::fprintf(stderr, "probe: expected outputs beside the input: %s\n",
               stat(expected.c_str(), &st) == 0 ? "THERE" : std::strerror(errno));
  if (!report_folder.empty()) std::fprintf(stderr, "%s\n", report_folder.c_str());
  std::string names;
  int variables = 0;
  for (char** e = environ; *e; ++e, ++variables) {
    const std::string entry = *e;
    names += " " + entry.substr(0, entry.find('='));
    if (names_seed(entry) && entry.rfind("GPULAB_SIM_SEED=", 0) != 0) find("environment", entry);
  }
  std::fprintf(stderr, "probe: environment, %d variables:%s\n", variables,
               shown(names, 400).c_str());
  for (const auto& f : findings) std::fprintf(stderr, "probe: names a seed: %s\n", f.c_str());
  gid_t groups[64];
  const int n = getgroups(64, groups);
  std::string group_list;
  for (int i = 0; i < n; ++i) group_list += " " + std::to_string(groups[i]);
  std::fprintf(stderr, "hosted-secrets-probe: uid %u euid %u gid %u groups:%s\n", getuid(),
               geteuid(), getgid(), group_list.empty() ? " none" : group_list.c_str());
  std::fprintf(stderr, "hosted-secrets-probe: done, %zu things name a seed\n", findings.size());
  std::exit(3);
}

}  // namespace

void scan_int(const int*, int*, int, ScanKind) {
  probe();
}

void scan_float(const float*, float*, int, ScanKind) {
  probe();
}

void scan_int_hillis_steele(const int*, int*, int) {
  probe();
}
