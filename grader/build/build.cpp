#include "build/build.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "build/include_tree.h"
#include "build/library_rule.h"
#include "build/line_markers.h"
#include "build/linked_libraries.h"
#include "build/startup_policy.h"
#include "build/symbol_policy.h"
#include "core/grade_phases.h"
#include "files/regular_file.h"
#include "files/remove_tree.h"
#include "os/process.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

// The address space of one compiler process: several times what nvcc's and g++'s largest
// passes use on the labs, far below a grading machine's memory.
constexpr size_t kBuildAddressSpace = size_t{8} << 30;
// The largest file a build may write (a `static char big[1 << 40] = {1};` would fill the disk):
// far above any object file or runner of the labs.
constexpr size_t kBuildFileSize = size_t{1} << 30;
// What nm may print about one object: far above the labs' largest (about 100 KB on the sim).
constexpr size_t kSymbolListingLimit = size_t{16} << 20;
// What the compiler's list of a file's headers may take: cub/cub.cuh under nvcc's three passes
// prints about 0.5 MB.
constexpr size_t kIncludeListingLimit = size_t{16} << 20;
// Names c++filt is given at once: CUB's instantiations run to thousands of characters, and a
// command line has a limit.
constexpr size_t kDemangledAtOnce = 256;
// Findings quoted in full in the build's message; the rest are counted.
constexpr size_t kBuildFindingsShown = 10;
// What a report quotes of a compiler's output: its start, where the first errors are.
constexpr size_t kCompilerOutputQuoted = 16 * 1024;

// Runs a command in the build's sandbox; output_limit bounds what is kept of its output.
using BuildTool = std::function<ProcessResult(const std::vector<std::string>&, size_t)>;

// The build's sandbox for `src_dir` and `work_dir`, each command's memory, file sizes and time
// bounded.
BuildTool build_tool(const RunnerRecipe& recipe, const Paths& paths,
                     const std::filesystem::path& src_dir, const std::filesystem::path& work_dir,
                     const Sandbox& sandbox, double timeout_s) {
  return [box = build_sandbox(recipe, paths, src_dir, work_dir), work_dir, timeout_s, &sandbox](
             const std::vector<std::string>& cmd, size_t output_limit) {
    ProcessOptions po;
    po.argv = cmd;
    po.cwd = work_dir;
    po.timeout_s = timeout_s;
    po.output_limit = output_limit;
    // `#include "/dev/zero"` makes the compiler read without end: its memory is bounded here.
    po.address_space_limit = kBuildAddressSpace;
    po.file_size_limit = kBuildFileSize;
    po.cpu_limit_s = timeout_s;
    return sandbox.run(po, box);
  };
}

// The names as people read them: C++ names demangled by c++filt, in the sandbox like nm, since
// they are the submission's (C names are shown as they are).
// `read`, where given, says whether c++filt gave a line for each name.
std::vector<std::string> demangled(const std::vector<std::string>& names, const BuildTool& run,
                                   bool* read = nullptr) {
  if (read) *read = true;
  std::vector<std::string> mangled;
  for (const auto& n : names)
    if (n.rfind("_Z", 0) == 0) mangled.push_back(n);
  if (mangled.empty()) return names;
  std::vector<std::string> cmd = {"c++filt"};
  cmd.insert(cmd.end(), mangled.begin(), mangled.end());
  const ProcessResult r = run(cmd, kSymbolListingLimit);
  std::vector<std::string> lines;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (!r.ok() || lines.size() != mangled.size()) {
    if (read) *read = false;
    return names;
  }
  std::vector<std::string> shown = names;
  size_t next = 0;
  for (auto& n : shown)
    if (n.rfind("_Z", 0) == 0) n = lines[next++];
  return shown;
}

// What one object calls of the lab's forbidden library work (library_rule.h), a line each; its
// symbols that may name it are demangled in batches, in the build's sandbox.
std::string forbidden_work_called_in(const LabConfig& lab, const std::string& file,
                                     const std::vector<NmSymbol>& symbols, const BuildTool& run) {
  if (lab.library.empty()) return "";
  std::vector<std::string> candidates;
  for (const NmSymbol& s : symbols)
    if (may_name_forbidden(s.name, lab.library)) candidates.push_back(s.name);
  std::vector<std::string> names;
  for (size_t at = 0; at < candidates.size(); at += kDemangledAtOnce) {
    const std::vector<std::string> batch(
        candidates.begin() + at,
        candidates.begin() + std::min(candidates.size(), at + kDemangledAtOnce));
    bool read = false;
    for (std::string& n : demangled(batch, run, &read)) names.push_back(std::move(n));
    // Names not read could hide a forbidden one: the build stops rather than pass them.
    if (!read)
      return "gpulab could not read the names of " + file +
             "'s symbols (c++filt failed), so it cannot check them for library code this lab "
             "does not allow\n";
  }
  return describe_forbidden_uses(file, forbidden_uses(names, lab.library), lab.library);
}

// What the lab's "library" rule says of the headers `file` (at `src`) includes, from the
// compiler's own list of them (include_tree_command, in the build's sandbox; recorded in
// `commands`): "" where it may be compiled. `listed` says whether the compiler listed them all;
// where it did not (its preprocessing failed), what it listed is judged, and the compile that
// follows has the say: it fails too, or the build stops (build_runner).
std::string library_headers_of(const LabConfig& lab, const RunnerRecipe& recipe, RecipeUse use,
                               const std::string& file, const std::filesystem::path& src,
                               const BuildTool& run,
                               std::vector<std::vector<std::string>>& commands, bool& listed) {
  listed = true;
  if (lab.library.empty()) return "";
  std::ifstream in(src, std::ios::binary);
  const std::string source{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // A line marker would make the compiler's list lie (line_markers.h).
  if (const std::vector<int> markers = line_marker_lines(source); !markers.empty())
    return describe_line_markers(file, markers);
  const std::vector<std::string> cmd = include_tree_command(recipe, use, src);
  commands.push_back(cmd);
  const ProcessResult r = run(cmd, kIncludeListingLimit);
  if (r.output_truncated)
    return "gpulab could not list the headers " + file +
           " includes (the compiler printed more than gpulab reads), so it cannot check them "
           "for library code this lab does not allow\n";
  listed = r.ok();
  return describe_forbidden_headers(
      file, forbidden_headers(parse_include_tree(r.output), lab.library, source), lab.library);
}

// The definitions in the submission's objects that would replace a linked library's symbols
// (symbol_policy.h), and the code that would run before the CPU backend's settings are read
// (startup_policy.h), described for the report; empty when there are none. The objects are the
// student's, so nm and readelf read them in the build's sandbox.
std::string refused_definitions(const LabConfig& lab, const std::filesystem::path& driver_lib,
                                const std::vector<LibraryFile>& files,
                                const std::vector<std::pair<std::string, std::string>>& objects,
                                const BuildTool& run) {
  std::vector<LinkedLibrary> libraries;
  std::optional<LinkedLibrary> driver;
  for (const LibraryFile& f : files) {
    std::string error;
    std::optional<LinkedLibrary> lib = read_library(f, error);
    if (!lib) return "gpulab cannot check which symbols the submission defines: " + error;
    if (f.path == driver_lib) driver = lib;
    libraries.push_back(std::move(*lib));
  }
  const SymbolPolicy policy(
      libraries, interface_names(driver ? driver->symbols : std::vector<NmSymbol>{}, libraries));
  std::vector<std::pair<std::string, SymbolFinding>> findings;
  std::string startup, forbidden;
  for (const auto& [file, object] : objects) {
    // Undefined symbols too: the startup policy refuses calls of the runtime's test hook.
    const ProcessResult r = run({"nm", "-P", object}, kSymbolListingLimit);
    if (!r.ok() || r.output_truncated)
      return "the symbols " + file + " defines could not be listed (nm " +
             (r.output_truncated ? "printed more than gpulab checks" : r.describe()) + ")";
    const ProcessResult sections = run({"readelf", "-S", "-W", object}, kSymbolListingLimit);
    if (!sections.ok() || sections.output_truncated)
      return "the sections of " + file + " could not be listed (readelf " +
             (sections.output_truncated ? "printed more than gpulab checks" : sections.describe()) +
             ")";
    const std::vector<NmSymbol> symbols = parse_nm(r.output);
    const std::vector<std::string> early =
        startup_findings(parse_readelf_sections(sections.output), symbols);
    if (!early.empty()) startup += describe_startup_findings(file, early) + "\n";
    for (const SymbolFinding& f : policy.check(symbols)) findings.push_back({file, f});
    forbidden += forbidden_work_called_in(lab, file, symbols, run);
  }
  startup += forbidden;
  if (findings.empty()) return startup;
  std::vector<std::string> names;
  for (size_t i = 0; i < findings.size() && i < kBuildFindingsShown; ++i)
    names.push_back(findings[i].second.symbol);
  const std::vector<std::string> shown = demangled(names, run);
  std::string message;
  std::set<std::string> said;  // a constructor's or destructor's variants read the same
  for (size_t i = 0; i < shown.size(); ++i) {
    const std::string line =
        describe_finding(findings[i].first, shown[i], findings[i].second, lab.interface);
    if (said.insert(line).second) message += line + "\n";
  }
  if (findings.size() > shown.size())
    message += "(and " + std::to_string(findings.size() - shown.size()) + " more like these)\n";
  return startup + message;
}

// The archive the recipe links in `role`; empty when it links none.
std::filesystem::path linked_archive(const RunnerRecipe& recipe, const std::string& role) {
  for (const LinkedArchive& a : recipe.link_whole)
    if (a.role == role) return a.path;
  return {};
}

}  // namespace

BuildResult build_runner(const LabConfig& lab, const Paths& paths,
                         const std::filesystem::path& src_dir,
                         const std::filesystem::path& work_dir, Backend backend,
                         const Sandbox& sandbox, double timeout_s) {
  return build_runner(load_recipe(paths, lab, backend), lab, paths, src_dir, work_dir, sandbox,
                      RecipeUse::student, timeout_s);
}

BuildResult build_runner(const RunnerRecipe& recipe, const LabConfig& lab, const Paths& paths,
                         const std::filesystem::path& src_dir,
                         const std::filesystem::path& work_dir, const Sandbox& sandbox,
                         RecipeUse use, double timeout_s) {
  const ScopedPhase phase(GradePhase::kBuild);
  BuildResult b;
  // Fresh, so that nothing of an earlier build (owned by an earlier sandbox's user) is in the way.
  remove_tree_or_throw(work_dir);
  std::filesystem::create_directories(work_dir);
  const BuildTool tool = build_tool(recipe, paths, src_dir, work_dir, sandbox, timeout_s);
  const auto compile = [&](const std::vector<std::string>& cmd, size_t output_limit = 32 * 1024) {
    return tool(cmd, output_limit);
  };
  const Backend backend = recipe.backend;
  std::vector<std::filesystem::path> needed = {recipe.compiler};
  for (const LinkedArchive& a : recipe.link_whole) needed.push_back(a.path);
  for (const auto& path : needed)
    if (!std::filesystem::exists(path)) {
      b.message = "gpulab is not fully built for the " + std::string(backend_name(backend)) +
                  " backend: " + path.string() + " is missing (run cmake --build" +
                  (backend == Backend::sim
                       ? "; the sim backend needs the packages scripts/setup.sh installs)"
                       : ")");
      return b;
    }
  std::vector<std::pair<std::string, std::string>> objects;  // each student file's object
  for (const auto& file : lab.student_files) {
    const auto src = src_dir / file;
    if (!std::filesystem::is_regular_file(src)) {
      b.message = "the submission has no " + file + " (expected files: ";
      for (size_t i = 0; i < lab.student_files.size(); ++i)
        b.message += (i ? ", " : "") + lab.student_files[i];
      b.message += ")";
      return b;
    }
    // Before the compile: a file the rule refuses is not compiled (CUB's device-wide algorithms
    // take tens of seconds to).
    bool listed = true;
    b.message = library_headers_of(lab, recipe, use, file, src, compile, b.commands, listed);
    if (!b.message.empty()) return b;
    const auto obj = work_dir / (file + ".o");
    const std::vector<std::string> cmd = compile_command(recipe, use, src, obj);
    b.commands.push_back(cmd);
    const ProcessResult r = compile(cmd);
    if (!r.ok()) {
      b.message = "compiling " + file + " failed (the compiler " + r.describe() + "):\n" +
                  quote_head(r.output, kCompilerOutputQuoted);
      return b;
    }
    if (!listed) {
      b.message = "gpulab could not list the headers " + file +
                  " includes (the compiler's preprocessing failed where its compile did not), so "
                  "it cannot check them for library code this lab does not allow";
      return b;
    }
    objects.push_back({file, obj.string()});
  }
  std::string missing;
  const std::vector<LibraryFile> libraries = runner_libraries(recipe, missing);
  if (!missing.empty()) {
    b.message = "gpulab cannot check which symbols the submission defines: " + missing +
                " is missing (the toolkit or the compiler's libraries are not installed)";
    return b;
  }
  b.message =
      refused_definitions(lab, linked_archive(recipe, "driver"), libraries, objects, compile);
  if (!b.message.empty()) return b;
  b.runner = work_dir / "runner";
  std::vector<std::filesystem::path> object_files;
  for (const auto& o : objects) object_files.push_back(o.second);
  const std::vector<std::string> cmd = link_command(recipe, object_files, b.runner);
  b.commands.push_back(cmd);
  const ProcessResult r = compile(cmd);
  if (!r.ok()) {
    b.message = "linking the runner failed (the linker " + r.describe() + "):\n" +
                quote_head(r.output, kCompilerOutputQuoted) +
                "\nDid you define every function declared in " + lab.interface + ", once?";
    return b;
  }
  b.ok = true;
  return b;
}

std::optional<std::vector<std::string>> headers_read(const RunnerRecipe& recipe,
                                                     const LabConfig& lab, const Paths& paths,
                                                     const std::filesystem::path& src_dir,
                                                     const std::filesystem::path& work_dir,
                                                     const Sandbox& sandbox, double timeout_s) {
  const BuildTool run = build_tool(recipe, paths, src_dir, work_dir, sandbox, timeout_s);
  std::set<std::string> headers;
  const std::filesystem::path rule = work_dir / "dependencies.d";
  for (const auto& file : lab.student_files) {
    const std::filesystem::path src = src_dir / file;
    const ProcessResult r = run(dependency_command(recipe, src, rule), kIncludeListingLimit);
    // Read on a budget, as everything a sandboxed process leaves: a plain file, not a link to
    // one, not too big.
    std::error_code ec;
    if (!r.ok() || std::filesystem::is_symlink(std::filesystem::symlink_status(rule, ec)))
      return std::nullopt;
    const std::optional<std::string> text = read_regular_file(rule, kIncludeListingLimit);
    if (!text) return std::nullopt;
    for (const std::string& h : parse_make_prerequisites(*text))
      if (std::filesystem::path(h) != src) headers.insert(h);
  }
  std::filesystem::remove(rule);
  return std::vector<std::string>(headers.begin(), headers.end());
}

std::filesystem::path trusted_build_dir(const Paths& paths, const std::string& runner_name) {
  return paths.build / "runner-builds" / runner_name;
}

std::filesystem::path recorded_commands(const std::filesystem::path& build_dir) {
  return build_dir / "commands.json";
}

}  // namespace gpulab
