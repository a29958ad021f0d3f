#include "student_kit.h"

#include "dist_policy.h"
#include "paths.h"

namespace gpulab {

int make_student_kit(const std::filesystem::path& out, std::ostream& log) {
  const Paths paths = Paths::current();
  const auto files = select_files(Bundle::student_kit, tracked_files(paths.source));
  write_archive(out, read_bundle(paths.source, files, "gpulab/"));
  log << "wrote " << out.string() << ": " << files.size()
      << " files under gpulab/ (see its README.md)\n";
  return 0;
}

}  // namespace gpulab
