// coarsening's baseline (driver_baseline.cu): lab 1's plain gather, trusted.
#pragma once

#include "coarsening.h"

void baseline_plain_gather(const float* atoms, int n_atoms, Lattice lattice, float* potential);
