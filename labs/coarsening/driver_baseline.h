// coarsening's baseline (reference/coarsening/driver_baseline.cu): lab 1's plain gather, trusted.
// Weak: the student kit's driver is built without it (its source is the instructor's alone), so
// there the name is null and the kit times the baseline with the runner it ships instead.
#pragma once

#include "coarsening.h"

__attribute__((weak)) void baseline_plain_gather(const float* atoms, int n_atoms, Lattice lattice,
                                                 float* potential);
