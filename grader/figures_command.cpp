#include "figures_command.h"

#include <functional>
#include <map>

#include "atomic_file.h"
#include "exit_status.h"
#include "figures.h"
#include "joined_words.h"
#include "paths.h"
#include "png_file.h"
#include "temp_folder.h"
#include "temporaries.h"

namespace gpulab {

namespace {

using Drawer = std::function<std::vector<Figure>(const LabConfig&, const std::filesystem::path&)>;

const std::map<std::string, Drawer>& drawers() {
  static const std::map<std::string, Drawer> all{
      {"binning", binning_figures},
      {"scan", [](const LabConfig&, const std::filesystem::path&) { return scan_figures(); }},
      {"scatter-gather", scatter_gather_figures},
      {"segmented-scan",
       [](const LabConfig&, const std::filesystem::path&) { return segmented_scan_figures(); }},
  };
  return all;
}

}  // namespace

std::vector<std::string> labs_with_figures() {
  std::vector<std::string> out;
  for (const auto& [lab, drawer] : drawers()) out.push_back(lab);
  return out;
}

int figures_command(const FiguresOptions& o, std::ostream& out) {
  const auto it = drawers().find(o.lab);
  if (it == drawers().end())
    throw std::runtime_error("no figures for the lab \"" + o.lab +
                             "\"; the labs with figures: " + joined(labs_with_figures()));
  const Paths& paths = Paths::current();
  const LabConfig lab = LabConfig::load_id(paths.source, o.lab);
  const std::filesystem::path dir =
      o.out.empty() ? paths.source / "handouts" / "figures" / o.lab : o.out;
  const Temporary work{make_temp_folder("gpulab-figures", "the figures' datasets")};
  const std::vector<Figure> figures = it->second(lab, work.path());
  std::filesystem::create_directories(dir);
  for (const Figure& f : figures) {
    write_file_atomically(dir / (f.name + ".svg"), f.canvas.svg());
    write_file_atomically(dir / (f.name + ".png"),
                          png_bytes({f.canvas.width(), f.canvas.height(), f.canvas.raster()}));
    out << "wrote " << (dir / f.name).string() << ".svg and .png\n";
  }
  return kExitOk;
}

}  // namespace gpulab
