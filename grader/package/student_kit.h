// gpulab dist: the student kit, a .tar.gz with gpulab's sources as students need them (no
// reference solutions, no instructor tests, no hidden seed; dist_policy.cpp says exactly what),
// under gpulab/, with its own README.md saying how to build it and check a lab; with
// `classroom.workflow`, also the GitHub Classroom workflow (classroom_workflow.h).
#pragma once

#include <filesystem>
#include <ostream>

#include "package/classroom_workflow.h"

namespace gpulab {

int make_student_kit(const std::filesystem::path& out, const ClassroomOptions& classroom,
                     std::ostream& log);

}  // namespace gpulab
