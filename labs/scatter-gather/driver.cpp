// scatter-gather's lab driver: loads a dataset, calls the student's functions through the
// shared run/check/time mechanism, and holds the plain input-oriented CPU loop that cpu_fast is
// timed against.
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "dcs.h"
#include "dcs/input.h"
#include "input_sets.h"

namespace {

using gpulab::RunContext;

using DcsInput = gpulab::dcs::Input<Lattice>;

using DcsFn = void (*)(const float*, int, Lattice, float*);

void gpu_part(RunContext& ctx, DcsFn fn, const char* what) {
  const DcsInput in = gpulab::dcs::load<Lattice>(ctx.dataset);
  gpulab::DeviceInputs<float> atoms(ctx, "atoms", in.atoms.data(), in.atoms.size());
  gpulab::GpuOutputs out(in.potential_spec(), gpulab::input_sets(ctx));
  gpulab::run_gpu_part(
      ctx, out, [&](int s) { fn(atoms.get(s), in.n_atoms, in.lattice, out.get(s)); }, what);
  ctx.result["work"] = static_cast<double>(in.points()) * in.n_atoms;
}

void scatter(RunContext& ctx) {
  gpu_part(ctx, dcs_scatter, "dcs_scatter");
}
void gather(RunContext& ctx) {
  gpu_part(ctx, dcs_gather, "dcs_gather");
}

// The plain input-oriented loop: every atom visits every point. Its cache behaviour (the whole
// lattice is streamed once per atom) is what the output-oriented code improves on.
void cpu_plain(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const size_t points = static_cast<size_t>(lat.nx) * lat.ny * lat.nz;
  std::memset(potential, 0, points * sizeof(float));
  for (int a = 0; a < n_atoms; ++a) {
    const float ax = atoms[4 * a], ay = atoms[4 * a + 1], az = atoms[4 * a + 2];
    const float q = atoms[4 * a + 3];
    for (int k = 0; k < lat.nz; ++k)
      for (int j = 0; j < lat.ny; ++j)
        for (int i = 0; i < lat.nx; ++i) {
          const float dx = i * lat.h - ax, dy = j * lat.h - ay, dz = k * lat.h - az;
          potential[(static_cast<size_t>(k) * lat.ny + j) * lat.nx + i] +=
              q / std::sqrt(dx * dx + dy * dy + dz * dz);
        }
  }
}

void cpu_fast(RunContext& ctx) {
  const DcsInput in = gpulab::dcs::load<Lattice>(ctx.dataset);
  gpulab::HostInputs<float> atoms(ctx, "atoms", in.atoms.data(), in.atoms.size());
  gpulab::CpuOutputs out(in.potential_spec(), gpulab::input_sets(ctx));
  gpulab::run_cpu_part(
      ctx, out, [&](int s) { dcs_cpu_fast(atoms.get(s), in.n_atoms, in.lattice, out.get(s)); },
      "dcs_cpu_fast");
  ctx.result["work"] = static_cast<double>(in.points()) * in.n_atoms;
  if (ctx.time_baseline) {
    std::vector<float> scratch(in.points());
    const gpulab::TimingResult plain = gpulab::time_cpu_baseline(
        ctx, [&](int) { cpu_plain(in.atoms.data(), in.n_atoms, in.lattice, scratch.data()); });
    ctx.result["baseline"] = {{"name", "plain input-oriented CPU loop"},
                              {"timing", plain.to_json()}};
  }
}

}  // namespace

GPULAB_PART("scatter", true, scatter);
GPULAB_PART("gather", true, gather);
GPULAB_PART("cpu_fast", false, cpu_fast);
