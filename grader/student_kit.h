// gpulab dist: the student kit, a .tar.gz with gpulab's sources as students need them (no
// reference solutions, no instructor tests, no hidden seed; dist_policy.cpp says exactly what),
// under gpulab/, with its own README.md saying how to build it and check a lab.
#pragma once

#include <filesystem>
#include <ostream>

namespace gpulab {

int make_student_kit(const std::filesystem::path& out, std::ostream& log);

}  // namespace gpulab
