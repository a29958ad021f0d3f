// gpulab dist --github-classroom: the GitHub Actions workflow a GitHub Classroom assignment runs
// on each push to a student's repository (.github/workflows/classroom.yml in the kit), filled
// from the templates in packaging/github-classroom/. It builds the kit with the student preset,
// runs `gpulab run <lab> --backend sim --format github-classroom` for each lab it grades, and
// hands each report to GitHub Classroom's autograding reporter, which adds up the points.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpulab {

// What `gpulab dist` was asked for GitHub Classroom.
struct ClassroomOptions {
  bool workflow = false;          // --github-classroom: add the workflow
  std::vector<std::string> labs;  // --lab: the labs it grades; empty: every lab of the kit
};

// Where the workflow goes in the kit (under the kit's folder).
inline constexpr const char* kClassroomWorkflowPath = ".github/workflows/classroom.yml";

// The step id, and so the reporter's runner name, of `lab`'s step: the reporter takes runner
// names of letters and digits only, so the lab id without its other characters ("scatter-gather":
// "scattergather"). Throws std::runtime_error for a lab id a workflow cannot carry.
std::string classroom_step_id(const std::string& lab);

// The labs `options` asks to grade, in order: its --lab names (each one of `kit_labs`, none
// twice), else every lab of the kit. Throws std::runtime_error naming an unknown lab, and for
// two labs whose step ids are the same.
std::vector<std::string> classroom_labs(const ClassroomOptions& options,
                                        const std::vector<std::string>& kit_labs);

// The workflow for `labs`, from the templates' text (classroom.yml, and lab-step.yml once per
// lab). Throws std::runtime_error where a template and this filler are out of step.
std::string classroom_workflow(const std::string& workflow_template,
                               const std::string& step_template,
                               const std::vector<std::string>& labs);

// The same from the templates in `source`/packaging/github-classroom/.
std::string classroom_workflow(const std::filesystem::path& source,
                               const std::vector<std::string>& labs);

}  // namespace gpulab
