#include "package/student_kit.h"

#include <regex>

#include "build/dist_policy.h"
#include "build/kit_runners.h"
#include "files/paths.h"
#include "grade/writeup_template.h"

namespace gpulab {

namespace {

// The labs of the kit: each labs/<lab>/lab.json it holds.
std::vector<std::string> kit_labs(const std::vector<BundleFile>& files) {
  static const std::regex lab_json("labs/([^/]+)/lab\\.json");
  std::vector<std::string> labs;
  std::smatch m;
  for (const BundleFile& f : files)
    if (std::regex_match(f.path, m, lab_json)) labs.push_back(m[1]);
  return labs;
}

}  // namespace

int make_student_kit(const std::filesystem::path& out, const ClassroomOptions& classroom,
                     std::ostream& log) {
  const Paths paths = Paths::current();
  const std::string prefix = "gpulab/";
  const auto files = select_files(Bundle::student_kit, tracked_files(paths.source));
  // The labs the workflow grades, checked before the runners take their time.
  const std::vector<std::string> graded =
      classroom.workflow ? classroom_labs(classroom, kit_labs(files)) : std::vector<std::string>{};
  std::vector<ArchiveFile> archive = read_bundle(paths.source, files, prefix);
  const KitRunnerFiles runners = kit_runner_files(paths, files, prefix);
  const std::string architectures = runners.architectures.describe();
  // The README names the GPUs the shipped runners run on.
  for (ArchiveFile& f : archive)
    if (f.path == prefix + "README.md")
      f.content = fill_template(f.content, {{"KIT_ARCHITECTURES", architectures}},
                                "packaging/student-kit/README.md");
  archive.insert(archive.end(), runners.files.begin(), runners.files.end());
  // The templates' fingerprints, for the kit's self-grading: the student fills in the kit's own
  // copy of each template (writeup_template.h).
  std::vector<LabConfig> labs;
  for (const std::string& id : kit_labs(files))
    labs.push_back(LabConfig::load_id(paths.source, id));
  archive.push_back({prefix + kWriteupTemplateRecord, writeup_template_record(labs)});
  if (classroom.workflow)
    archive.push_back({prefix + kClassroomWorkflowPath, classroom_workflow(paths.source, graded)});
  write_archive(out, archive);
  log << "wrote " << out.string() << ": " << files.size() << " files and " << runners.cuda_runners
      << " compiled runners (reference, baseline) for " << architectures
      << (runners.sim_runners
              ? " and " + std::to_string(runners.sim_runners) + " for the CPU backend"
              : std::string())
      << " under " << prefix << " (see its README.md)\n";
  if (classroom.workflow) {
    log << "and " << prefix << kClassroomWorkflowPath
        << ", the GitHub Classroom workflow: on each push it runs gpulab run --backend sim for";
    for (const auto& lab : graded) log << " " << lab;
    log << "\n";
  }
  return 0;
}

}  // namespace gpulab
