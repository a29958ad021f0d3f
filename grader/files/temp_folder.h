// A fresh folder of gpulab's own in the system's temporary directory (TMPDIR, else /tmp), for
// a grading's work, a scratch build or a probe.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab {

// Makes <temporary directory>/<prefix>-XXXXXX (mkdtemp: a new name, readable by its owner
// only). Throws std::runtime_error, saying what it was for (`what`) and why it failed.
std::filesystem::path make_temp_folder(const std::string& prefix, const std::string& what);

}  // namespace gpulab
