#include "package/classroom_workflow.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "build/dist_policy.h"
#include "os/platform_time.h"
#include "text/joined_words.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace {

// A lab id a workflow carries as it is: in a step's name, a shell command line and a file name.
const std::regex kWorkflowLabId("[A-Za-z0-9][A-Za-z0-9._-]*");

std::string read_template(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the GitHub Classroom template " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string classroom_step_id(const std::string& lab) {
  if (!std::regex_match(lab, kWorkflowLabId))
    throw std::runtime_error("lab \"" + lab +
                             "\" cannot be graded by the GitHub Classroom workflow: a lab id there "
                             "is letters, digits, '.', '_' and '-', starting with a letter or "
                             "digit");
  std::string id;
  for (const char c : lab)
    if (std::isalnum(static_cast<unsigned char>(c)))
      id += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // A step id starts with a letter.
  return std::isdigit(static_cast<unsigned char>(id.front())) ? "lab" + id : id;
}

std::vector<std::string> classroom_labs(const ClassroomOptions& options,
                                        const std::vector<std::string>& kit_labs) {
  std::vector<std::string> labs;
  for (const auto& lab : options.labs) {
    if (std::find(kit_labs.begin(), kit_labs.end(), lab) == kit_labs.end())
      throw std::runtime_error("gpulab dist --lab: " + unknown_name("lab", lab, kit_labs));
    if (std::find(labs.begin(), labs.end(), lab) != labs.end())
      throw std::runtime_error("gpulab dist --lab: lab " + lab + " is named twice");
    labs.push_back(lab);
  }
  if (options.labs.empty()) labs = kit_labs;
  if (labs.empty()) throw std::runtime_error("gpulab dist --github-classroom: the kit has no lab");
  std::map<std::string, std::string> by_id;
  for (const auto& lab : labs) {
    const auto [at, fresh] = by_id.emplace(classroom_step_id(lab), lab);
    if (!fresh)
      throw std::runtime_error("labs " + at->second + " and " + lab +
                               " would be one runner of GitHub Classroom's reporter (" + at->first +
                               "); grade one of them (--lab)");
  }
  return labs;
}

std::string classroom_workflow(const std::string& workflow_template,
                               const std::string& step_template,
                               const std::vector<std::string>& labs) {
  std::string steps, reporter_env, runners;
  for (const auto& lab : labs) {
    const std::string id = classroom_step_id(lab);
    // Under build/, which the kit's own build makes and git leaves alone.
    const std::string result = "build/classroom-" + id + ".json";
    steps += fill_template(
        step_template,
        {{"GPULAB_LAB", lab},
         {"GPULAB_STEP_ID", id},
         {"GPULAB_RESULT", result},
         {"GPULAB_STEP_MINUTES", std::to_string(kClassroomStepMinutes)},
         {"GPULAB_TIME_BUDGET", platform_time_budget_text(60.0 * kClassroomStepMinutes)}},
        "packaging/github-classroom/lab-step.yml");
    // The reporter reads runner <id>'s result from the variable <ID>_RESULTS.
    reporter_env += std::string(reporter_env.empty() ? "" : "\n") + "          " + upper(id) +
                    "_RESULTS: ${{ steps." + id + ".outputs.result }}";
    runners += (runners.empty() ? "" : ",") + id;
  }
  while (!steps.empty() && steps.back() == '\n') steps.pop_back();
  // The steps last: no text of theirs is taken for another placeholder.
  return fill_template(workflow_template,
                       {{"GPULAB_VERSION", GPULAB_VERSION},
                        {"GPULAB_LABS", listed(labs)},
                        {"GPULAB_JOB_MINUTES",
                         std::to_string(kClassroomSetupMinutes +
                                        kClassroomStepMinutes * static_cast<int>(labs.size()))},
                        {"GPULAB_REPORTER_ENV", reporter_env},
                        {"GPULAB_RUNNERS", runners},
                        {"GPULAB_LAB_STEPS", steps}},
                       "packaging/github-classroom/classroom.yml");
}

std::string classroom_workflow(const std::filesystem::path& source,
                               const std::vector<std::string>& labs) {
  const auto dir = source / "packaging" / "github-classroom";
  return classroom_workflow(read_template(dir / "classroom.yml"),
                            read_template(dir / "lab-step.yml"), labs);
}

}  // namespace gpulab
