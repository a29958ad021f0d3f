// binning's lab driver: loads a dataset (atoms and lattice as the DCS family's, dcs/input.h,
// plus the cutoff and the bins' parameters) and calls the student's cutoff_potential through the
// shared run/check/time mechanism. The atoms stay on the host: binning them is the student's work.
#include <stdexcept>
#include <string>

#include "binning.h"
#include "dcs/input.h"
#include "input_sets.h"

namespace {

using gpulab::RunContext;

CutoffParams load_params(const gpulab::Dataset& ds) {
  const CutoffParams p = {static_cast<float>(ds.num_param("cutoff")),
                          static_cast<float>(ds.num_param("bin_size")),
                          static_cast<int>(ds.int_param("bin_capacity"))};
  if (!(p.cutoff > 0) || !(p.bin_size > 0) || p.bin_capacity < 1)
    throw std::runtime_error((ds.dir / "meta.json").string() +
                             ": cutoff and bin_size must be > 0 and bin_capacity >= 1");
  return p;
}

void cutoff(RunContext& ctx) {
  const auto in = gpulab::dcs::load<CutoffLattice>(ctx.dataset);
  const CutoffParams params = load_params(ctx.dataset);
  // The atoms stay on the host, a copy per input set that moves before each timed sample.
  gpulab::HostInputs<float> atoms(ctx, "atoms", in.atoms.data(), in.atoms.size());
  gpulab::GpuOutputs out(in.potential_spec(), gpulab::input_sets(ctx));
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) { cutoff_potential(atoms.get(s), in.n_atoms, in.lattice, params, out.get(s)); },
      "cutoff_potential");
  // The work is linear in the lattice points (the per-point normaliser of the scalability
  // check): with binning, each point visits a bounded neighbourhood whatever the box size.
  ctx.result["work"] = static_cast<double>(in.points());
}

}  // namespace

GPULAB_PART("cutoff", true, cutoff);
