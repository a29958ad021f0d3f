// scatter-gather.md's figure: the DCS potential of a public dataset, the oracle's expected
// output (families/dcs/generator.h, run through the generators' registry), one lattice plane
// as a heat map with the atoms near that plane marked.
#include "figures/figures.h"

#include <algorithm>
#include <cmath>

#include "npy.h"
#include "plot/colour_map.h"
#include "text/number_text.h"

namespace gpulab {

namespace {

std::vector<Figure> scatter_gather_figures(const LabConfig& lab,
                                           const std::filesystem::path& work) {
  const std::string name = "odd-33x31x5";
  const GeneratedDataset ds = generate_public_dataset(lab, name, work);
  const NpyArray v = read_npy(ds.expected / "potential.npy", DType::f64);
  const NpyArray atoms = read_npy(ds.input / "atoms.npy", DType::f32);
  if (v.shape.size() != 3) throw std::runtime_error("potential.npy is not (nz, ny, nx)");
  const int nz = static_cast<int>(v.shape[0]), ny = static_cast<int>(v.shape[1]),
            nx = static_cast<int>(v.shape[2]);
  const double h = ds.spec->params.at("h").get<double>();
  const int k = nz / 2;
  const double* plane = v.as<double>() + static_cast<size_t>(k) * ny * nx;

  // 1/r is steep next to an atom: the colours saturate at the 95th percentile of |V| in the
  // plane, so that the rest of it is not all white.
  std::vector<double> mags(plane, plane + static_cast<size_t>(ny) * nx);
  for (double& m : mags) m = std::fabs(m);
  std::sort(mags.begin(), mags.end());
  const double limit = std::max(mags[mags.size() * 95 / 100], 1e-12);

  const double cell = 14, left = 20, top = 56;
  const std::string title = "scatter-gather, dataset " + name +
                            ": potential V at the plane k = " + std::to_string(k) + " (" +
                            std::to_string(nx) + " x " + std::to_string(ny) + " points)";
  const std::string note = "the oracle's expected output; squares: atoms within h of the plane";
  Canvas c(fitting_width(left + nx * cell + 110, {{title, 15}, {note, 12}}),
           static_cast<int>(top + ny * cell + 40));
  const std::string limit_text = printf_text("%.3g", limit);
  c.text(12, 22, title, 15);
  c.text(12, 42, note, 12, Anchor::start, kGrey);
  // Row j = 0 at the bottom, as y grows upwards.
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      c.rect(left + i * cell, top + (ny - 1 - j) * cell, cell, cell,
             diverging_colour(plane[static_cast<size_t>(j) * nx + i] / limit));
  const float* a = atoms.as<float>();
  for (size_t n = 0; n < atoms.shape.at(0); ++n) {
    const double x = a[4 * n] / h, y = a[4 * n + 1] / h, z = a[4 * n + 2] / h;
    if (std::fabs(z - k) > 1 || x < -0.5 || y < -0.5 || x > nx - 0.5 || y > ny - 0.5) continue;
    c.rect(left + (x + 0.5) * cell - 3, top + (ny - 0.5 - y) * cell - 3, 6, 6,
           a[4 * n + 3] > 0 ? Rgb{120, 0, 0} : Rgb{0, 30, 110}, kBlack);
  }
  // The colour bar.
  const double bx = left + nx * cell + 24, bh = ny * cell;
  for (int s = 0; s < 64; ++s)
    c.rect(bx, top + s * bh / 64, 16, bh / 64 + 0.5, diverging_colour(1 - (s + 0.5) / 32));
  c.text(bx + 20, top + 10, "+" + limit_text, 11);
  c.text(bx + 20, top + bh / 2 + 4, "0", 11);
  c.text(bx + 20, top + bh, "-" + limit_text, 11);
  return {{"potential", c}};
}

}  // namespace

GPULAB_FIGURES("scatter-gather", scatter_gather_figures);

}  // namespace gpulab
