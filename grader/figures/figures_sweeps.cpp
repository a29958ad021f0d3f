// The handouts' bench plots: each of lab.json's bench_sweeps drawn from its record in
// docs/bench/<lab>/ (bench_record.h), the reference's throughput at each value, a line per
// part, beside the lab's ceiling.
#include "bench/bench_record.h"
#include "figures/figures.h"
#include "plot/line_plot.h"

namespace gpulab {

std::vector<Figure> sweep_figures(const LabConfig& lab, const Paths& paths,
                                  std::vector<std::string>& not_drawn) {
  std::vector<Figure> out;
  for (const BenchSweep& s : lab.bench_sweeps) {
    const std::filesystem::path record = sweep_record_path(paths, lab.id, s.name);
    if (!std::filesystem::exists(record)) {
      not_drawn.push_back(
          s.name + " is not drawn: it plots measurements made on a GPU, " + record.string() +
          ", which this copy of gpulab lacks (the student kit ships the handout's plot, "
          "handouts/figures/" +
          lab.id + "/" + s.name + ".svg, but not the measurements); measure them with `" +
          sweep_record_command(lab.id, s.name) + "` on a GPU to draw it");
      continue;
    }
    const SweepRecord r = read_sweep_record(record, lab, s);
    LinePlot plot;
    plot.title = lab.id + ": " + s.title;
    plot.subtitle = "the reference on " + s.dataset +
                    (s.params.empty() ? "" : " with " + s.params.dump()) + "\nmeasured on " +
                    r.device + ", " + r.date + ": gpulab bench " + lab.id + " --sweep " + s.name;
    plot.x_label = s.axis;
    plot.y_label = r.work_unit + " per second";
    for (const auto& part : s.parts) {
      PlotSeries series{part, {}, {}};
      for (const long long v : s.values)
        for (const auto& row : r.rows)
          if (row.part == part && row.value == v) {
            series.x.push_back(static_cast<double>(v));
            series.y.push_back(row.per_s);
          }
      plot.series.push_back(series);
    }
    plot.ceiling = r.ceiling_per_s;
    plot.ceiling_label = "the ceiling";
    out.push_back({s.name, draw_line_plot(plot)});
  }
  return out;
}

}  // namespace gpulab
