// binning datasets: atoms around a lattice for the cutoff potential, and the fp64 oracle.
//
// Parameters:
//   nx, ny, nz, h     the lattice; point (i, j, k) sits at (i*h, j*h, k*h), and h must make
//                     every such product exact in float32 (0.5, 0.375, 0.625, 1, ...)
//   n_atoms           how many atoms (the density is n_atoms over the volume of the region R)
//   cutoff, bin_size, bin_capacity   handed to the student's function as CutoffParams
//   layout            "uniform" (default), "clustered" or "empty-regions"
//   margin            R is the lattice box widened by `margin` on every side (default: cutoff)
//   clusters          clustered: the number of clusters (default 3)
//   cluster_radius    clustered: each cluster's standard deviation (default bin_size / 2)
//   holes             empty-regions: the number of empty boxes (default 3, at most 7)
//
// Layouts. uniform: atoms uniform in R (a water-like box at 0.1 atoms/Å³ when n_atoms says so).
// clustered: 80% of the atoms in Gaussian clusters centred in the lattice box, so dense that
// their bins overflow heavily; the rest uniform in R. empty-regions: uniform in R except inside
// a few boxes, each half of R's extent on every axis, the first at R's low corner, so many bins
// are empty and the lattice points near (0, 0, 0) have no atom within the cutoff (their exact
// answer is 0). Every layout also puts n_atoms / 50 atoms far outside: beyond the cutoff of
// every lattice point and beyond R, up to 2 cutoffs and a bin further (some have negative
// coordinates). They contribute nothing, and binning code must not write out of its bin array
// for them. One atom in 16 of the others has a coordinate snapped onto a bin boundary (a
// multiple of bin_size). Charges are uniform in [-1, 1] (mixed signs), never exactly 0 (a
// common mark for an empty bin slot), and the atoms are shuffled.
//
// Clearances, measured with the float32 coordinates the student code uses: every atom is at
// least 0.1 h from every lattice point (as in scatter-gather, so 1/r stays bounded), and no
// lattice point is at a distance r with |r² − rc²| < 2e-6 rc² from any atom. The second keeps
// the float32 test r² < rc² (a few ulps of error) agreeing with the fp64 oracle's, so that the
// grade does not depend on how the test is rounded; the term of such an atom is ~1e-12 q/r.
//
// The oracle writes, for each lattice point, over the atoms with r < rc (r in fp64 from the
// float32 coordinates): potential = Σ q/r·(1 − r²/rc²)², potential_terms = how many atoms, and
// potential_magnitude = Σ |q|/r·(1 + r²/rc²)², the term evaluated with every operand replaced
// by its absolute value. That is the error analysis of a float32 term: 1 − r²/rc² is computed
// with an absolute error of a few u (not a relative one), so near the cutoff a term's rounding
// error is not proportional to its tiny value, while it is always below a few u times
// |q|/r·(1 + r²/rc²)². The grader's bound is K·√n·u·magnitude with n = potential_terms.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "lattice_gap.h"
#include "npy.h"
#include "parallel.h"
#include "parsed_generator.h"
#include "rng.h"

// Its own namespace: the student's build compiles every lab's generator as one file
// (GPULAB_UNITY), where the labs' Params and parse() would otherwise meet.
namespace gpulab::binning_data {
namespace {

constexpr double kShell = 2e-6;  // relative clearance of r² from rc², see above

struct Params {
  int nx, ny, nz, n_atoms, bin_capacity;
  float h, cutoff, bin_size, margin, cluster_radius;
  std::string layout;
  int clusters, holes;
};

Params parse(const nlohmann::json& p) {
  auto int_param = [&](const char* key, int lo, int fallback) {
    if (!p.contains(key) && fallback >= lo) return fallback;
    if (!p.contains(key) || !p[key].is_number_integer() || p[key].get<long long>() < lo ||
        p[key].get<long long>() > (1 << 30))
      throw std::invalid_argument(std::string("parameter \"") + key +
                                  "\" must be an integer >= " + std::to_string(lo));
    return p[key].get<int>();
  };
  auto num_param = [&](const char* key, double lo, double fallback) {
    if (!p.contains(key) && fallback >= lo) return static_cast<float>(fallback);
    if (!p.contains(key) || !p[key].is_number() || !(p[key].get<double>() >= lo))
      throw std::invalid_argument(std::string("parameter \"") + key +
                                  "\" must be a number >= " + std::to_string(lo));
    return p[key].get<float>();
  };
  Params r{};
  r.nx = int_param("nx", 1, -1);
  r.ny = int_param("ny", 1, -1);
  r.nz = int_param("nz", 1, -1);
  r.n_atoms = int_param("n_atoms", 1, -1);
  r.bin_capacity = int_param("bin_capacity", 1, -1);
  r.h = num_param("h", 1e-3, -1);
  r.cutoff = num_param("cutoff", 1e-3, -1);
  r.bin_size = num_param("bin_size", 1e-3, -1);
  r.margin = num_param("margin", 0, r.cutoff);
  r.cluster_radius = num_param("cluster_radius", 1e-3, r.bin_size / 2);
  r.clusters = int_param("clusters", 1, 3);
  r.holes = int_param("holes", 1, 3);
  if (r.holes > 7)  // each takes an eighth of R: seven leave room for the atoms
    throw std::invalid_argument("parameter \"holes\" must be at most 7");
  r.layout = p.value("layout", std::string("uniform"));
  if (r.layout != "uniform" && r.layout != "clustered" && r.layout != "empty-regions")
    throw std::invalid_argument(
        "parameter \"layout\" must be \"uniform\", \"clustered\" or \"empty-regions\"");
  if (r.cutoff > 100 * r.h)
    throw std::invalid_argument("parameter \"cutoff\" must be at most 100 h");
  // With such an h every lattice coordinate i*h is exact in float32, so it does not matter how
  // the student's compiler rounds it: nvcc contracts (i*h) - x_atom into one fused multiply-add,
  // which skips the rounding of i*h, and next to an atom (0.1 h away) that rounding alone would
  // be a relative error of up to u*|i*h| / (0.1 h) in r.
  for (int i = 0; i < std::max({r.nx, r.ny, r.nz}); ++i)
    if (static_cast<double>(static_cast<float>(i * r.h)) != i * static_cast<double>(r.h))
      throw std::invalid_argument(
          "parameter \"h\" must make every lattice coordinate i*h exact in float32 (e.g. 0.5, "
          "0.375, 0.625, 1)");
  return r;
}

using Vec = std::array<double, 3>;

struct Box {
  Vec lo, hi;
  bool contains(const Vec& c) const {
    for (int a = 0; a < 3; ++a)
      if (c[a] < lo[a] || c[a] >= hi[a]) return false;
    return true;
  }
};

Box widened(const Box& b, double by) {
  Box w = b;
  for (int a = 0; a < 3; ++a) {
    w.lo[a] -= by;
    w.hi[a] += by;
  }
  return w;
}

// Whether an atom at c keeps both clearances from every lattice point (see the top).
bool clear(const Params& p, const std::array<float, 3>& c) {
  float d2 = 0;
  const int n[3] = {p.nx, p.ny, p.nz};
  for (int a = 0; a < 3; ++a) {
    const float g = axis_gap(c[a], n[a], p.h);
    d2 += g * g;
  }
  if (d2 < (0.1f * p.h) * (0.1f * p.h)) return false;

  const double rc2 = static_cast<double>(p.cutoff) * p.cutoff, slack = kShell * rc2;
  const double reach = std::sqrt(rc2 + slack);
  auto range = [&](double c0, int count, int& lo, int& hi) {
    lo = std::max(0, static_cast<int>(std::floor((c0 - reach) / p.h)) - 1);
    hi = std::min(count - 1, static_cast<int>(std::ceil((c0 + reach) / p.h)) + 1);
  };
  int k0, k1, j0, j1;
  range(c[2], p.nz, k0, k1);
  range(c[1], p.ny, j0, j1);
  for (int k = k0; k <= k1; ++k) {
    const double dz = static_cast<double>(static_cast<float>(k * p.h)) - c[2];
    if (dz * dz > rc2 + slack) continue;
    for (int j = j0; j <= j1; ++j) {
      const double dy = static_cast<double>(static_cast<float>(j * p.h)) - c[1];
      const double dyz2 = dy * dy + dz * dz;
      if (dyz2 > rc2 + slack) continue;
      // Only the points whose dx² is near rc² − dyz² can be near the sphere: the one or two
      // lattice x positions on each side of c.x ± sqrt(rc² − dyz²).
      const double half = std::sqrt(std::max(0.0, rc2 - dyz2));
      for (double side : {-half, half}) {
        const int i0 = static_cast<int>(std::floor((c[0] + side) / p.h));
        for (int i = std::max(0, i0 - 1); i <= std::min(p.nx - 1, i0 + 2); ++i) {
          const double dx = static_cast<double>(static_cast<float>(i * p.h)) - c[0];
          if (std::fabs(dx * dx + dyz2 - rc2) < slack) return false;
        }
      }
    }
  }
  return true;
}

// Adds one atom's terms to the points i0..i1 of a row, all within the cutoff. This is most of
// the oracle's time; the compiler does not vectorize it (sqrt may set errno without
// -fno-math-errno), so on x86-64 it takes two points at a time with SSE2, same arithmetic.
void add_atom(const double* xs, int i0, int i1, double ax, double dyz2, double q, double inv_rc2,
              double* v, double* m, double* t) {
  const double aq = std::fabs(q);
  int i = i0;
#ifdef __SSE2__
  const __m128d one = _mm_set1_pd(1.0), vax = _mm_set1_pd(ax), vd = _mm_set1_pd(dyz2),
                vq = _mm_set1_pd(q), vaq = _mm_set1_pd(aq), vinv = _mm_set1_pd(inv_rc2);
  for (; i + 1 <= i1; i += 2) {
    const __m128d dx = _mm_sub_pd(_mm_loadu_pd(xs + i), vax);
    const __m128d r2 = _mm_add_pd(_mm_mul_pd(dx, dx), vd);
    const __m128d inv_r = _mm_div_pd(one, _mm_sqrt_pd(r2)), x = _mm_mul_pd(r2, vinv);
    const __m128d s = _mm_sub_pd(one, x), a = _mm_add_pd(one, x);
    _mm_storeu_pd(v + i, _mm_add_pd(_mm_loadu_pd(v + i),
                                    _mm_mul_pd(_mm_mul_pd(_mm_mul_pd(vq, inv_r), s), s)));
    _mm_storeu_pd(m + i, _mm_add_pd(_mm_loadu_pd(m + i),
                                    _mm_mul_pd(_mm_mul_pd(_mm_mul_pd(vaq, inv_r), a), a)));
    _mm_storeu_pd(t + i, _mm_add_pd(_mm_loadu_pd(t + i), one));
  }
#endif
  for (; i <= i1; ++i) {
    const double dx = xs[i] - ax, r2 = dx * dx + dyz2;
    const double inv_r = 1.0 / std::sqrt(r2), x = r2 * inv_rc2;
    v[i] += q * inv_r * (1 - x) * (1 - x);
    m[i] += aq * inv_r * (1 + x) * (1 + x);
    t[i] += 1;
  }
}

class Generator final : public ParsedGenerator<Params, parse> {
 public:
  int version() const override { return 1; }

  void generate_from(const Params& p, Rng& rng, const std::filesystem::path& dir) const override {
    const Box lattice{{0, 0, 0},
                      {(p.nx - 1) * static_cast<double>(p.h), (p.ny - 1) * static_cast<double>(p.h),
                       (p.nz - 1) * static_cast<double>(p.h)}};
    const Box region = widened(lattice, p.margin);
    // Far atoms are more than the cutoff away from the lattice box along some axis.
    const Box near = widened(lattice, std::max(p.margin, p.cutoff));
    const Box far = widened(near, 2.0 * p.cutoff + p.bin_size);
    auto uniform_in = [&](const Box& b) {
      Vec c;
      for (int a = 0; a < 3; ++a) c[a] = rng.uniform(b.lo[a], b.hi[a]);
      return c;
    };

    // What each atom is: far outside, in a cluster, or spread over the region.
    const int n = p.n_atoms, n_far = n / 50;
    const int n_clustered = p.layout == "clustered" ? static_cast<int>(0.8 * (n - n_far)) : 0;
    std::vector<Vec> centres;
    for (int c = 0; c < (n_clustered ? p.clusters : 0); ++c) centres.push_back(uniform_in(lattice));
    std::vector<Box> holes;
    if (p.layout == "empty-regions") {
      for (int k = 0; k < p.holes; ++k) {
        Box b;
        for (int a = 0; a < 3; ++a) {
          const double side = 0.5 * (region.hi[a] - region.lo[a]);
          b.lo[a] = k == 0 ? region.lo[a] : rng.uniform(region.lo[a], region.hi[a] - side);
          b.hi[a] = b.lo[a] + side;
        }
        holes.push_back(b);
      }
    }
    auto in_hole = [&](const Vec& c) {
      return std::any_of(holes.begin(), holes.end(), [&](const Box& b) { return b.contains(c); });
    };
    auto gaussian = [&] {  // Box-Muller, from two of our deterministic uniforms
      const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();
      return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    };
    auto draw = [&](int a) {
      Vec c;
      if (a < n_far) {
        do c = uniform_in(far);
        while (near.contains(c));
      } else if (a < n_far + n_clustered) {
        const Vec& m = centres[static_cast<size_t>(a) % centres.size()];
        for (int ax = 0; ax < 3; ++ax) c[ax] = m[ax] + p.cluster_radius * gaussian();
      } else {
        do c = uniform_in(region);
        while (in_hole(c));
      }
      std::array<float, 3> f;
      for (int ax = 0; ax < 3; ++ax) f[ax] = static_cast<float>(c[ax]);
      if (a >= n_far && a % 16 == 0) {  // on a bin boundary
        const int ax = (a / 16) % 3;
        f[ax] = static_cast<float>(std::round(f[ax] / p.bin_size)) * p.bin_size;
      }
      return f;
    };

    // Draw in index order; check the clearances in parallel; redraw the rejected atoms, again
    // in index order, so the result depends on (params, seed) alone.
    std::vector<std::array<float, 3>> pos(static_cast<size_t>(n));
    std::vector<int> todo(static_cast<size_t>(n));
    for (int a = 0; a < n; ++a) todo[static_cast<size_t>(a)] = a;
    for (int round = 0; !todo.empty(); ++round) {
      if (round == 200)
        throw std::invalid_argument("cannot place the atoms clear of the lattice points");
      for (int a : todo) pos[static_cast<size_t>(a)] = draw(a);
      std::vector<char> ok(todo.size());
      parallel_for(todo.size(),
                   [&](size_t t) { ok[t] = clear(p, pos[static_cast<size_t>(todo[t])]); });
      std::vector<int> again;
      for (size_t t = 0; t < todo.size(); ++t)
        if (!ok[t]) again.push_back(todo[t]);
      todo.swap(again);
    }

    std::vector<float> atoms(4 * static_cast<size_t>(n));
    for (size_t a = 0; a < pos.size(); ++a) {
      float q = 0;
      while (q == 0) q = static_cast<float>(rng.uniform(-1.0, 1.0));
      for (int ax = 0; ax < 3; ++ax) atoms[4 * a + ax] = pos[a][ax];
      atoms[4 * a + 3] = q;
    }
    for (size_t a = pos.size(); a-- > 1;) {  // Fisher-Yates: clusters are not contiguous
      const size_t b = static_cast<size_t>(rng.next() % (a + 1));
      for (int w = 0; w < 4; ++w) std::swap(atoms[4 * a + w], atoms[4 * b + w]);
    }
    write_npy(dir / "atoms.npy", {static_cast<size_t>(n), 4}, atoms.data());
  }

  // For each row of the lattice: the atoms within rc of the row's line, from a 2-D grid of
  // (y, z) cells of side rc; each sweeps the points of the row within rc of it.
  void oracle_from(const Params& p, const std::filesystem::path& input_dir,
                   const std::filesystem::path& expected_dir) const override {
    const NpyArray atoms_npy = read_npy(input_dir / "atoms.npy", DType::f32);
    if (atoms_npy.shape.size() != 2 || atoms_npy.shape[1] != 4)
      throw std::runtime_error("atoms.npy is not (n, 4)");
    const float* atoms = atoms_npy.as<float>();
    const size_t n = atoms_npy.shape[0];
    const double rc = p.cutoff, rc2 = rc * rc;

    // Lattice coordinates are the float32 products i*h, as the students compute them.
    auto coords = [&](int count) {
      std::vector<double> c(static_cast<size_t>(count));
      for (int i = 0; i < count; ++i) c[static_cast<size_t>(i)] = static_cast<float>(i * p.h);
      return c;
    };
    const std::vector<double> xs = coords(p.nx), ys = coords(p.ny), zs = coords(p.nz);

    const double y0 = -rc, z0 = -rc;
    const int cy = static_cast<int>((ys.back() + 2 * rc) / rc) + 1;
    const int cz = static_cast<int>((zs.back() + 2 * rc) / rc) + 1;
    std::vector<std::vector<size_t>> cells(static_cast<size_t>(cy) * cz);
    for (size_t a = 0; a < n; ++a) {
      const double x = atoms[4 * a], y = atoms[4 * a + 1], z = atoms[4 * a + 2];
      if (x <= -rc || x >= xs.back() + rc || y <= -rc || y >= ys.back() + rc || z <= -rc ||
          z >= zs.back() + rc)
        continue;  // beyond the cutoff of every lattice point
      const int ky = static_cast<int>((y - y0) / rc), kz = static_cast<int>((z - z0) / rc);
      cells[static_cast<size_t>(kz) * cy + ky].push_back(a);
    }

    const size_t row = static_cast<size_t>(p.nx);
    const size_t total = static_cast<size_t>(p.nz) * p.ny * row;
    std::vector<double> value(total), magnitude(total), terms(total);
    parallel_for(static_cast<size_t>(p.nz) * p.ny, [&](size_t r) {
      const int j = static_cast<int>(r % p.ny), k = static_cast<int>(r / p.ny);
      const double y = ys[static_cast<size_t>(j)], z = zs[static_cast<size_t>(k)];
      double* v = &value[r * row];
      double* m = &magnitude[r * row];
      double* t = &terms[r * row];
      const int ky0 = std::max(0, static_cast<int>((y - rc - y0) / rc));
      const int ky1 = std::min(cy - 1, static_cast<int>((y + rc - y0) / rc));
      const int kz0 = std::max(0, static_cast<int>((z - rc - z0) / rc));
      const int kz1 = std::min(cz - 1, static_cast<int>((z + rc - z0) / rc));
      for (int kz = kz0; kz <= kz1; ++kz)
        for (int ky = ky0; ky <= ky1; ++ky)
          for (size_t a : cells[static_cast<size_t>(kz) * cy + ky]) {
            const double ax = atoms[4 * a], dy = y - atoms[4 * a + 1], dz = z - atoms[4 * a + 2];
            const double q = atoms[4 * a + 3], dyz2 = dy * dy + dz * dz;
            if (dyz2 >= rc2) continue;
            // The points of the row with r < rc: a conservative range, trimmed exactly.
            const double half = std::sqrt(rc2 - dyz2);
            int i0 = std::max(0, static_cast<int>(std::floor((ax - half) / p.h)) - 1);
            int i1 = std::min(p.nx - 1, static_cast<int>(std::ceil((ax + half) / p.h)) + 1);
            auto outside = [&](int i) {
              const double dx = xs[static_cast<size_t>(i)] - ax;
              return dx * dx + dyz2 >= rc2;
            };
            while (i0 <= i1 && outside(i0)) ++i0;
            while (i1 >= i0 && outside(i1)) --i1;
            if (i0 <= i1) add_atom(xs.data(), i0, i1, ax, dyz2, q, 1.0 / rc2, v, m, t);
          }
    });
    const std::vector<size_t> shape = {static_cast<size_t>(p.nz), static_cast<size_t>(p.ny), row};
    write_npy(expected_dir / "potential.npy", shape, value.data());
    write_npy(expected_dir / "potential_magnitude.npy", shape, magnitude.data());
    write_npy(expected_dir / "potential_terms.npy", shape, terms.data());
  }
};

}  // namespace
}  // namespace gpulab::binning_data

GPULAB_DATASETS("binning", gpulab::binning_data::Generator);
