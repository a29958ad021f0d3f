#include "student_kit.h"

#include "dist_policy.h"
#include "kit_runners.h"
#include "paths.h"

namespace gpulab {

int make_student_kit(const std::filesystem::path& out, std::ostream& log) {
  const Paths paths = Paths::current();
  const std::string prefix = "gpulab/";
  const auto files = select_files(Bundle::student_kit, tracked_files(paths.source));
  std::vector<ArchiveFile> archive = read_bundle(paths.source, files, prefix);
  const KitRunnerFiles runners = kit_runner_files(paths, files, prefix);
  const std::string architectures = runners.architectures.describe();
  // The README names the GPUs the shipped runners run on.
  for (ArchiveFile& f : archive)
    if (f.path == prefix + "README.md")
      f.content = fill_template(f.content, {{"KIT_ARCHITECTURES", architectures}},
                                "packaging/student-kit/README.md");
  archive.insert(archive.end(), runners.files.begin(), runners.files.end());
  write_archive(out, archive);
  log << "wrote " << out.string() << ": " << files.size() << " files and "
      << runners.files.size() - 1 << " compiled runners (reference, baseline) for " << architectures
      << " under " << prefix << " (see its README.md)\n";
  return 0;
}

}  // namespace gpulab
