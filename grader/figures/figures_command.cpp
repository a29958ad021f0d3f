#include "figures/figures_command.h"

#include "figures/figures.h"
#include "files/atomic_file.h"
#include "files/paths.h"
#include "files/temp_folder.h"
#include "files/temporaries.h"
#include "os/exit_status.h"
#include "text/joined_words.h"

namespace gpulab {

std::vector<std::string> labs_with_figures(const std::filesystem::path& source) {
  std::vector<std::string> out;
  for (const auto& file : find_lab_files(source)) {
    const std::string id = file.parent_path().filename().string();
    if (find_figures(id) || !LabConfig::load(file).bench_sweeps.empty()) out.push_back(id);
  }
  return out;
}

int figures_command(const FiguresOptions& o, std::ostream& out) {
  const Paths& paths = Paths::current();
  const LabConfig lab = LabConfig::load_id(paths.source, o.lab);
  const FigureDrawer draw = find_figures(o.lab);
  if (!draw && lab.bench_sweeps.empty())
    throw std::runtime_error("no figures for the lab \"" + o.lab + "\"; the labs with figures: " +
                             joined(labs_with_figures(paths.source)));
  const std::filesystem::path dir =
      o.out.empty() ? paths.source / "handouts" / "figures" / o.lab : o.out;
  const Temporary work{make_temp_folder("gpulab-figures", "the figures' datasets")};
  // The lab's own figures, then its bench plots, drawn from their records (bench_record.h).
  std::vector<Figure> figures;
  if (draw) figures = draw(lab, work.path());
  std::vector<std::string> not_drawn;
  for (Figure& f : sweep_figures(lab, paths, not_drawn)) figures.push_back(std::move(f));
  if (figures.empty())
    throw std::runtime_error("no figure of the lab \"" + o.lab +
                             "\" could be drawn here: " + joined(not_drawn, "; "));
  std::filesystem::create_directories(dir);
  for (const Figure& f : figures) {
    write_file_atomically(dir / (f.name + ".svg"), f.canvas.svg());
    write_file_atomically(dir / (f.name + ".png"), f.canvas.png());
    out << "wrote " << (dir / f.name).string() << ".svg and .png\n";
  }
  for (const std::string& line : not_drawn) out << line << "\n";
  return kExitOk;
}

}  // namespace gpulab
