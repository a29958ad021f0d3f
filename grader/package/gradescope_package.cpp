#include "package/gradescope_package.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "build/dist_policy.h"
#include "files/paths.h"
#include "files/secret.h"
#include "lab/lab_config.h"
#include "text/number_text.h"

namespace gpulab {

namespace {

// The hidden seed's file at the package's root: /autograder/source/hidden-seed on Gradescope.

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The Gradescope base image setup.sh is made for, from its line "# gpulab-base-image: <OS>
// <version> ...", which scripts/platform-image-check.sh builds in too.
std::string base_image(const std::string& setup, const std::string& file) {
  static const std::regex line("(^|\n)# gpulab-base-image: ([^\n]+)");
  std::smatch m;
  if (!std::regex_search(setup, m, line))
    throw std::runtime_error(file + " names no base image (a line \"# gpulab-base-image: ...\")");
  return m[2];
}

}  // namespace

int make_gradescope_package(const std::string& lab, const std::string& hidden_seed,
                            const std::filesystem::path& out, std::ostream& log, double timeout_s) {
  const Paths paths = Paths::current();
  LabConfig::load_id(paths.source, lab);  // the lab exists and its lab.json is sound
  const std::vector<std::pair<std::string, std::string>> values = {
      {"GPULAB_LAB", lab},
      {"GPULAB_VERSION", GPULAB_VERSION},
      {"GPULAB_SEED_FILE", kHiddenSeedFileName},
      {"GPULAB_PLATFORM_TIMEOUT", printf_text("%g", timeout_s)},
      {"GPULAB_TIME_BUDGET", platform_time_budget_text(timeout_s)}};
  std::vector<ArchiveFile> files;
  std::string base;
  for (const char* script : {"setup.sh", "run_autograder"}) {
    const auto file = paths.source / "packaging" / "gradescope" / script;
    const std::string text = read_text(file);
    if (script == std::string("setup.sh")) base = base_image(text, file.string());
    files.push_back({script, fill_template(text, values, file.string()), true});
  }
  // In a file of its own, as given, which run_autograder makes root's alone before any student
  // code runs; never in a script (Gradescope copies run_autograder, with whatever mode it gives
  // the copy) nor on a command line.
  files.push_back({kHiddenSeedFileName, hidden_seed, false});
  const auto sources = select_files(Bundle::gradescope, tracked_files(paths.source));
  for (auto& f : read_bundle(paths.source, sources, "gpulab/")) files.push_back(std::move(f));
  write_archive(out, files);
  log << "wrote " << out.string() << ": the Gradescope autograder for " << lab
      << " (CPU backend), with setup.sh, run_autograder and " << sources.size()
      << " gpulab sources; upload it as the assignment's autograder, base image " << base
      << ". It grades within " << platform_time_budget_text(timeout_s)
      << " s, for an autograder timeout of " << printf_text("%g", timeout_s)
      << " s: set that timeout in the assignment's settings, or package again with "
         "--platform-timeout\n";
  return 0;
}

}  // namespace gpulab
