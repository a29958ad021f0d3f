#include "data/kept_outputs.h"

#include "files/temporaries.h"
#include "npy.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// Writes `path` through a temporary beside it, by `write` (which writes the file it is given).
template <class Write>
void write_beside(const fs::path& path, Write write) {
  Temporary tmp(path.parent_path() / ("." + path.filename().string() + ".tmp"));
  write(tmp.path());
  tmp.rename_to(path);
}

}  // namespace

fs::path kept_outputs_dir(const fs::path& keep_dir, const std::string& part,
                          const std::string& dataset) {
  return keep_dir / part / dataset;
}

std::string keep_outputs(const LabConfig& lab, const PartSpec& part, const DatasetDirs& d,
                         const SealedOutputs& run, const fs::path& keep_dir) {
  const fs::path dir = kept_outputs_dir(keep_dir, part.name, d.name);
  fs::create_directories(dir);
  std::string problems;
  for (const auto& name : part.outputs) {
    const bool ints = lab.outputs.at(name).dtype == "int32";
    const fs::path expected_from = d.expected / (name + ".npy");
    const fs::path got = dir / (name + ".npy"), expected = dir / (name + ".expected.npy");
    fs::remove(got);  // an earlier run's, which would now mislead
    write_beside(expected, [&](const fs::path& to) {
      fs::copy_file(expected_from, to, fs::copy_options::overwrite_existing);
    });
    try {
      const NpyArray a = run.read_npy(name, ints ? DType::i32 : DType::f32);
      const NpyArray e = map_npy(expected_from, ints ? DType::i32 : DType::f64);  // trusted
      if (a.shape != e.shape)
        throw NpyError(name + ".npy has shape " + a.shape_string() + ", not the expected " +
                       e.shape_string());
      write_beside(got, [&](const fs::path& to) { write_npy(to, a.dtype, a.shape, a.data()); });
    } catch (const NpyError& e) {
      problems += std::string(problems.empty() ? "" : "\n") + name + " not kept: " + e.what();
    }
  }
  return problems;
}

}  // namespace gpulab
