// The DCS family's generator side (families/dcs/): the datasets of scatter-gather and
// coarsening, atoms around a lattice, and the fp64 oracle. Each lab registers it under its own
// id (datasets/<lab>/generator.cpp); binning's cutoff datasets have a generator of their own.
//
// Parameters: nx, ny, nz (lattice points), h (spacing), n_atoms, and optionally dominant =
// "first" | "last" | "block-boundary": one atom with 40 times the usual charge at that index,
// so that a kernel that drops the first, last or a tile-boundary atom fails visibly.
//
// Atoms are uniform in the lattice's box widened by 2h on every side (so some lie outside it),
// with charges uniform in [-1, 1] (mixed signs: sums cancel), and every atom is at least 0.1 h
// from every lattice point, measured with the float32 coordinates the student code uses.
#pragma once

#include <cmath>
#include <stdexcept>
#include <vector>

#include "lattice_gap.h"
#include "npy.h"
#include "parallel.h"
#include "parsed_generator.h"
#include "rng.h"

namespace gpulab {
namespace dcs {

struct Params {
  int nx, ny, nz, n_atoms;
  float h;
  std::string dominant;
};

inline Params parse(const nlohmann::json& p) {
  auto int_param = [&](const char* key, int lo) {
    if (!p.contains(key) || !p[key].is_number_integer() || p[key].get<long long>() < lo)
      throw std::invalid_argument(std::string("parameter \"") + key +
                                  "\" must be an integer >= " + std::to_string(lo));
    return p[key].get<int>();
  };
  Params r{int_param("nx", 1),
           int_param("ny", 1),
           int_param("nz", 1),
           int_param("n_atoms", 1),
           0.0f,
           p.value("dominant", std::string())};
  if (!p.contains("h") || !p["h"].is_number() || !(p["h"].get<double>() > 0))
    throw std::invalid_argument("parameter \"h\" must be a number > 0");
  r.h = p["h"].get<float>();
  if (!r.dominant.empty() && r.dominant != "first" && r.dominant != "last" &&
      r.dominant != "block-boundary")
    throw std::invalid_argument(
        "parameter \"dominant\" must be \"first\", \"last\" or \"block-boundary\"");
  return r;
}

// Index of the dominant atom: 0, n-1, or the largest power of two below n (a block and tile
// boundary for every power-of-two block size up to it).
// One lattice row's sums (value, magnitude, and s for the position bound) at points x[0..nx),
// y, z. The loop over atoms is the outer one so that the inner loop, over the row's points,
// vectorizes: each point still sums its atoms in order 0, 1, ..., so every sum is the one a
// point-by-point loop gives, bit for bit. Compiled for the widest vector unit the CPU has (the
// clones), without fused multiply-adds (-ffp-contract=off, datasets/CMakeLists.txt), so every
// clone gives the same bits too; sqrt sets no errno (-fno-math-errno), or it would not vectorize.
__attribute__((target_clones("avx512f", "avx2", "default"))) inline void row_sums(
    const double* __restrict x, int nx, double y, double z, const float* __restrict atoms, size_t n,
    double* __restrict v, double* __restrict m, double* __restrict s) {
  for (int i = 0; i < nx; ++i) v[i] = m[i] = s[i] = 0;
  for (size_t a = 0; a < n; ++a) {
    const double ax = atoms[4 * a], dy = y - atoms[4 * a + 1], dz = z - atoms[4 * a + 2],
                 q = atoms[4 * a + 3], aq = std::fabs(q);
    const double dy2 = dy * dy, dz2 = dz * dz;
    for (int i = 0; i < nx; ++i) {
      const double dx = x[i] - ax;
      const double inv_r = 1.0 / std::sqrt(dx * dx + dy2 + dz2);
      v[i] += q * inv_r;
      m[i] += aq * inv_r;
      s[i] += aq * inv_r * inv_r;
    }
  }
}

inline int dominant_index(const std::string& where, int n) {
  if (where == "first") return 0;
  if (where == "last") return n - 1;
  int b = 1;
  while (2 * b <= n - 1) b *= 2;
  return n > 1 ? b : 0;
}

}  // namespace dcs

class DcsGenerator final : public ParsedGenerator<dcs::Params, dcs::parse> {
 public:
  // 2: the oracle also writes potential_position.npy.
  int version() const override { return 2; }

  void generate_from(const dcs::Params& p, Rng& rng,
                     const std::filesystem::path& dir) const override {
    const float lo = -2 * p.h;
    const float hi[3] = {(p.nx - 1 + 2) * p.h, (p.ny - 1 + 2) * p.h, (p.nz - 1 + 2) * p.h};
    const int n[3] = {p.nx, p.ny, p.nz};
    const int dom = p.dominant.empty() ? -1 : dcs::dominant_index(p.dominant, p.n_atoms);
    std::vector<float> atoms(4 * static_cast<size_t>(p.n_atoms));
    for (int a = 0; a < p.n_atoms; ++a) {
      float c[3];
      for (;;) {  // rejection: keep 0.1 h away from every lattice point
        float d2 = 0;
        for (int ax = 0; ax < 3; ++ax) {
          c[ax] = static_cast<float>(rng.uniform(lo, hi[ax]));
          const float g = axis_gap(c[ax], n[ax], p.h);
          d2 += g * g;
        }
        if (d2 >= (0.1f * p.h) * (0.1f * p.h)) break;
      }
      float q = static_cast<float>(rng.uniform(-1.0, 1.0));
      if (a == dom) q = q < 0 ? -40.0f : 40.0f;
      for (int ax = 0; ax < 3; ++ax) atoms[4 * static_cast<size_t>(a) + ax] = c[ax];
      atoms[4 * static_cast<size_t>(a) + 3] = q;
    }
    write_npy(dir / "atoms.npy", {static_cast<size_t>(p.n_atoms), 4}, atoms.data());
  }

  void oracle_from(const dcs::Params& p, const std::filesystem::path& input_dir,
                   const std::filesystem::path& expected_dir) const override {
    const NpyArray atoms_npy = read_npy(input_dir / "atoms.npy", DType::f32);
    const float* atoms = atoms_npy.as<float>();
    const size_t n = atoms_npy.shape.at(0);
    const size_t row = static_cast<size_t>(p.nx);
    std::vector<double> value(static_cast<size_t>(p.nz) * p.ny * row), magnitude(value.size()),
        position(value.size());
    // The lattice coordinates are the float32 products i*h, exactly as the students compute
    // them; the rest is fp64. position: how far the sum moves when the point's coordinates
    // move by one rounding (harness/compare.h), per unit roundoff.
    std::vector<double> xs(row);
    for (int i = 0; i < p.nx; ++i) xs[i] = static_cast<float>(i * p.h);
    parallel_for(static_cast<size_t>(p.nz) * p.ny, [&](size_t r) {
      const int j = static_cast<int>(r % p.ny), k = static_cast<int>(r / p.ny);
      const double y = static_cast<float>(j * p.h), z = static_cast<float>(k * p.h);
      std::vector<double> s(row);
      dcs::row_sums(xs.data(), p.nx, y, z, atoms, n, &value[r * row], &magnitude[r * row],
                    s.data());
      for (int i = 0; i < p.nx; ++i)
        position[r * row + i] = (std::fabs(xs[i]) + std::fabs(y) + std::fabs(z)) * s[i];
    });
    const std::vector<size_t> shape = {static_cast<size_t>(p.nz), static_cast<size_t>(p.ny), row};
    write_npy(expected_dir / "potential.npy", shape, value.data());
    write_npy(expected_dir / "potential_magnitude.npy", shape, magnitude.data());
    write_npy(expected_dir / "potential_position.npy", shape, position.data());
  }
};

}  // namespace gpulab
