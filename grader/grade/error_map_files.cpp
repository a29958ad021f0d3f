#include "grade/error_map_files.h"

#include <vector>

#include "data/check.h"
#include "data/kept_outputs.h"
#include "files/atomic_file.h"
#include "npy.h"
#include "plot/error_map.h"
#include "report/report_formats.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// The map's files but for their .png and .svg, where `o` keeps them; nullopt where nowhere.
std::optional<fs::path> map_stem(const GradeOptions& o, const std::string& part,
                                 const std::string& dataset, const std::string& output) {
  if (!o.keep_outputs.empty())
    return kept_outputs_dir(o.keep_outputs, part, dataset) / (output + ".error");
  if (!o.error_maps_beside.empty())
    return beside_report(o.error_maps_beside, part + "." + dataset + ".error");
  return std::nullopt;
}

// Where the message says a map is: beside the report by its name alone (a graded report's
// folder is the grader's, not the student's), under the student's own --keep-outputs folder
// by its path.
std::string shown(const GradeOptions& o, const fs::path& file) {
  if (!o.keep_outputs.empty()) return file.string();
  return file.filename().string() + " beside the report";
}

fs::path with_suffix(fs::path stem, const char* suffix) {
  return stem += suffix;
}

// The map of `output` on `d`, from the run's outputs; nothing where it does not map.
std::optional<ErrorMap> map_of(const LabConfig& lab, const PartSpec& part,
                               const std::string& output, const DatasetDirs& d,
                               const SealedOutputs& run) {
  const OutputSpec& spec = lab.outputs.at(output);
  if (spec.dtype != "float32") return std::nullopt;
  const NpyArray expected = map_npy(d.expected / (output + ".npy"), DType::f64);
  if (expected.shape.size() != 2 && expected.shape.size() != 3) return std::nullopt;
  NpyArray got;
  try {
    got = run.read_npy(output, DType::f32);
  } catch (const NpyError&) {
    return std::nullopt;  // the check's message says what is wrong with it
  }
  if (got.shape != expected.shape) return std::nullopt;
  const std::vector<double> bound = element_bounds(spec, d);
  return draw_error_map({output + " of " + part.name + " on dataset " + d.name, expected.shape,
                         got.shape, got.as<float>(), expected.as<double>(), bound.data()});
}

}  // namespace

void remove_error_maps(const LabConfig& lab, const GradeOptions& o) {
  std::error_code ec;
  for (const auto& part : lab.parts)
    for (const auto& g : lab.groups)
      for (const auto& ds : g.datasets)
        for (const auto& output : part.outputs)
          if (const auto stem = map_stem(o, part.name, ds.name, output))
            for (const char* suffix : {".png", ".svg"}) fs::remove(with_suffix(*stem, suffix), ec);
}

std::optional<DrawnErrorMap> draw_error_map_files(const LabConfig& lab, const PartSpec& part,
                                                  const DatasetDirs& d, const SealedOutputs& run,
                                                  const GradeOptions& o, std::ostream& log) {
  if (d.hidden) return std::nullopt;
  for (const auto& output : part.outputs) {
    DrawnErrorMap drawn;
    try {
      const std::optional<ErrorMap> m = map_of(lab, part, output, d, run);
      if (!m) continue;
      const std::optional<fs::path> stem = map_stem(o, part.name, d.name, output);
      const std::string what = kErrorMapNote + output + " is wrong on " + d.name;
      if (!stem) {
        drawn.note = what + ": gpulab run --keep-outputs DIR (or --out FILE) draws one.";
        return drawn;
      }
      const fs::path png = with_suffix(*stem, ".png"), svg = with_suffix(*stem, ".svg");
      std::string bytes = m->canvas.png();
      write_file_atomically(png, bytes);
      write_file_atomically(svg, m->canvas.svg());
      drawn.note = what + " (each value's error over its bound" +
                   (m->plane_words.empty() ? "" : "; " + m->plane_words + ", the worst") +
                   "): " + shown(o, png) + " (as SVG: " + svg.filename().string() + ").";
      drawn.image = ReportImage{m->words +
                                    " Blue to yellow: within the bound; red: over it; magenta: "
                                    "NaN or infinite; grey: never written.",
                                png.string(), std::move(bytes)};
    } catch (const std::exception& e) {
      log << "  the map of where " << part.name << "'s " << output << " is wrong on " << d.name
          << " was not drawn: " << e.what() << "\n";
      drawn.note = kErrorMapNote + output + " is wrong on " + d.name +
                   " could not be drawn; the grader's log says why.";
    }
    return drawn;
  }
  return std::nullopt;
}

}  // namespace gpulab
