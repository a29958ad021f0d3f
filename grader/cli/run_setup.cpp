#include "cli/run_setup.h"

#include <algorithm>

#include "cli/run_backend.h"
#include "device.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "lab/lab_tree.h"

namespace gpulab {

namespace fs = std::filesystem;

void settle_run_options(GradeOptions& o, const RunSetupFacts& facts, std::ostream& note) {
  const Paths paths = Paths::current();
  LabConfig lab;
  try {
    lab = LabConfig::load_id(paths.source, o.lab);
  } catch (const LabConfigError&) {
    return;  // grading says what is wrong with the lab, in its report too
  }

  if (o.submission.empty()) {
    const StudentLabFolder folder =
        student_lab_folder(fs::current_path(), lab.id, paths.lab_dir(lab.id));
    o.submission = folder.dir;
    if (!folder.from_cwd_tree)
      note << "gpulab: your files: " << folder.dir.string() << " (no labs/" << lab.id
           << " here or above; --submission DIR names another)\n";
  }

  RunBackendFacts f;
  if (facts.backend_given) f.given = o.backend;
  f.cuda_runners_built = facts.cuda_runners_built;
  f.sim_built = fs::exists(paths.sim_cc());
  const auto selected = [&](const PartSpec& p) {
    return o.parts.empty() || std::find(o.parts.begin(), o.parts.end(), p.name) != o.parts.end();
  };
  f.gpu_part_selected = f.timed_cpu_part_selected = false;
  for (const auto& p : lab.parts) {
    if (!selected(p)) continue;
    if (p.gpu)
      f.gpu_part_selected = true;
    else if (lab.rubric.at(p.name).timed_points() > 0)
      f.timed_cpu_part_selected = true;
  }
  if (!f.given) {
    const DeviceInfo device = device_preflight();
    f.gpu_usable = device.usable;
    f.gpu_problem = device.problem;
  }
  const RunBackend chosen = choose_run_backend(f);
  o.backend = chosen.backend;
  if (!chosen.note.empty()) note << chosen.note << "\n";
}

}  // namespace gpulab
