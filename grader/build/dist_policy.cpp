#include "build/dist_policy.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "os/process.h"
#include "text/joined_words.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// A path matches a rule that names it, or a folder ("labs/") holding it.
bool matches(const std::string& path, const std::string& rule) {
  return rule.back() == '/' ? path.rfind(rule, 0) == 0 : path == rule;
}

struct Rule {
  const char* path;  // a file, or a folder ending in '/'
  bool student_kit, gradescope;
};

// Everything either bundle holds; a tracked path named nowhere here goes nowhere, so a new
// top-level folder stays with the instructor until it is added.
//  - The student kit: what building gpulab and `gpulab run` need (the harness, the CPU backend,
//    the grader, the generators and fp64 oracles that make the public datasets and their
//    expected outputs on demand, the labs), the handouts, and its own README. Hidden datasets
//    come from the same generators with the instructor's seed, which is in no tracked file.
//  - Gradescope: what building gpulab for the CPU backend needs; no reference/, which only
//    timing uses, and Gradescope has no GPU to time on.
constexpr Rule kRules[] = {
    {"CMakeLists.txt", true, true},
    {"CMakePresets.json", true, false},  // the student preset: the kit's build is one command
    {"cmake/", true, true},
    {"harness/", true, true},
    {"sim/", true, true},
    {"grader/", true, true},
    {"datasets/", true, true},
    {"families/", true, true},  // code several labs' drivers and generators share
    {"labs/", true, true},
    {"handouts/", true, false},
    {".clang-format", true, false},
    {"scripts/setup.sh", true, true},         // run with --packages-only
    {"scripts/cuda-toolkit.sh", true, true},  // Ubuntu's CUDA toolkit where there is none
    {"packaging/student-kit/README.md", true, false},
    {"packaging/student-kit/gitignore", true, false},  // the kit's .gitignore: its build
};

// Never shipped, whatever a rule above says: the hidden solutions, the instructors' tests
// (planted bugs are edits of the reference), their documentation and CI.
constexpr const char* kNever[] = {"reference/", "tests/", "docs/", ".ci/", "packaging/gradescope/"};

// Files that take another name in a bundle.
constexpr std::pair<const char*, const char*> kRenames[] = {
    {"packaging/student-kit/README.md", "README.md"},
    {"packaging/student-kit/gitignore", ".gitignore"},
};

}  // namespace

namespace {

// `git ls-files -z <options>` in `source`, '/'-separated, sorted.
std::vector<std::string> git_files(const fs::path& source,
                                   const std::vector<std::string>& options) {
  ProcessOptions po;
  po.argv = {"git", "-C", source.string(), "ls-files", "-z"};
  po.argv.insert(po.argv.end(), options.begin(), options.end());
  po.timeout_s = 60;
  po.output_limit = size_t{64} << 20;
  const ProcessResult r = run_process(po);
  if (!r.ok())
    throw std::runtime_error("cannot list the files git tracks in " + source.string() +
                             " (git ls-files " + r.describe() +
                             "); the student kit and the Gradescope autograder are built from a "
                             "git checkout of gpulab:\n" +
                             r.output);
  std::vector<std::string> files;
  std::istringstream in(r.output);
  for (std::string f; std::getline(in, f, '\0');)
    if (!f.empty()) files.push_back(f);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<std::string> tracked_files(const fs::path& source) {
  // A tracked file deleted in the work tree has no content to ship: it is left out, as the
  // commit that deletes it will leave it (a file moved out of the bundles, say).
  const std::vector<std::string> all = git_files(source, {});
  const std::vector<std::string> deleted = git_files(source, {"--deleted"});
  std::vector<std::string> files;
  std::set_difference(all.begin(), all.end(), deleted.begin(), deleted.end(),
                      std::back_inserter(files));
  return files;
}

std::vector<BundleFile> select_files(Bundle bundle, const std::vector<std::string>& tracked) {
  std::vector<BundleFile> out;
  for (const auto& path : tracked) {
    bool never = false;
    for (const char* rule : kNever) never |= matches(path, rule);
    if (never) continue;
    bool wanted = false;
    for (const Rule& r : kRules)
      if (matches(path, r.path))
        wanted |= bundle == Bundle::student_kit ? r.student_kit : r.gradescope;
    if (!wanted) continue;
    std::string to = path;
    for (const auto& [from, renamed] : kRenames)
      if (path == from) to = renamed;
    out.push_back({path, to});
  }
  return out;
}

std::vector<ArchiveFile> read_bundle(const fs::path& source, const std::vector<BundleFile>& files,
                                     const std::string& prefix) {
  std::vector<ArchiveFile> out;
  for (const auto& f : files) {
    const fs::path file = source / f.source;
    std::ifstream in(file, std::ios::binary);
    if (!in)
      throw std::runtime_error("cannot read " + file.string() +
                               " (tracked by git, but missing from the work tree?)");
    std::ostringstream content;
    content << in.rdbuf();
    const bool exec = (fs::status(file).permissions() & fs::perms::owner_exec) != fs::perms::none;
    out.push_back({prefix + f.path, content.str(), exec});
  }
  return out;
}

std::string fill_template(std::string text,
                          const std::vector<std::pair<std::string, std::string>>& values,
                          const std::string& what) {
  for (const auto& [name, value] : values) {
    const std::string placeholder = "@" + name + "@";
    for (size_t at; (at = text.find(placeholder)) != std::string::npos;)
      text.replace(at, placeholder.size(), value);
  }
  std::smatch left;
  if (std::regex_search(text, left, std::regex("@[A-Z_]+@")))
    throw std::runtime_error(what + " has a placeholder gpulab does not fill: " + left.str());
  return text;
}

}  // namespace gpulab
