// coarsening's lab driver: loads a DCS dataset (families/dcs/input.h) and calls the student's
// coarsened gather through the shared run/check/time mechanism. In a baseline run (the grader's
// speedup test, gpulab bench: runner_flags.h's kTimeBaselineFlag) run_gpu_part calls no student
// code, and lab 1's plain gather (reference/coarsening/driver_baseline.cu, in the student kit
// only compiled) is timed on the same inputs instead.
#include <stdexcept>

#include "coarsening.h"
#include "dcs/input.h"
#include "driver_baseline.h"
#include "input_sets.h"

namespace {

void coarsened(gpulab::RunContext& ctx) {
  const auto in = gpulab::dcs::load<Lattice>(ctx.dataset);
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> atoms(ctx, "atoms", in.atoms.data(), in.atoms.size());
  gpulab::GpuOutputs out(in.potential_spec(), sets);
  gpulab::run_gpu_part(
      ctx, out, [&](int s) { dcs_coarsened(atoms.get(s), in.n_atoms, in.lattice, out.get(s)); },
      "dcs_coarsened");
  ctx.result["work"] = static_cast<double>(in.points()) * in.n_atoms;
  if (ctx.time_baseline) {
    if (!baseline_plain_gather)
      throw std::runtime_error(
          "this runner has no baseline: its driver was built without "
          "reference/coarsening/driver_baseline.cu (the student kit times the baseline with the "
          "runner it ships, runners/coarsening-baseline)");
    const gpulab::TimingResult plain = gpulab::time_gpu_baseline(ctx, sets, [&](int s) {
      baseline_plain_gather(atoms.get(s), in.n_atoms, in.lattice, out.get(s));
    });
    ctx.result["baseline"] = {{"name", "lab 1's plain gather"}, {"timing", plain.to_json()}};
  }
}

}  // namespace

GPULAB_PART("coarsened", true, coarsened);
