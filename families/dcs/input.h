// The DCS family's driver side (families/dcs/): the problem as the drivers of scatter-gather,
// coarsening and binning load it: the atoms and the lattice of a dataset, and the shape of the
// potential. A template over the lab's own lattice struct ({nx, ny, nz, h}), as each lab's
// interface header declares it for its students.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "run_part.h"

namespace gpulab::dcs {

template <class Lattice>
struct Input {
  std::vector<float> atoms;  // n x 4: x, y, z, q
  int n_atoms = 0;
  Lattice lattice{};
  size_t points() const {
    return static_cast<size_t>(lattice.nx) * static_cast<size_t>(lattice.ny) *
           static_cast<size_t>(lattice.nz);
  }
  OutputArray potential_spec() const {
    return {"potential",
            {static_cast<size_t>(lattice.nz), static_cast<size_t>(lattice.ny),
             static_cast<size_t>(lattice.nx)}};
  }
};

template <class Lattice>
Input<Lattice> load(const Dataset& ds) {
  Input<Lattice> in;
  const NpyArray atoms = ds.input("atoms", DType::f32);
  if (atoms.shape.size() != 2 || atoms.shape[1] != 4)
    throw std::runtime_error((ds.dir / "atoms.npy").string() + ": shape " + atoms.shape_string() +
                             " is not (n, 4)");
  in.atoms.assign(atoms.as<float>(), atoms.as<float>() + atoms.count());
  in.n_atoms = static_cast<int>(atoms.shape[0]);
  in.lattice = {static_cast<int>(ds.int_param("nx")), static_cast<int>(ds.int_param("ny")),
                static_cast<int>(ds.int_param("nz")), static_cast<float>(ds.num_param("h"))};
  if (in.lattice.nx < 1 || in.lattice.ny < 1 || in.lattice.nz < 1 || !(in.lattice.h > 0))
    throw std::runtime_error((ds.dir / "meta.json").string() +
                             ": lattice sizes must be >= 1 and h > 0");
  return in;
}

}  // namespace gpulab::dcs
