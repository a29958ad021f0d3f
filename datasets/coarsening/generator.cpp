// coarsening datasets: lab 1's DCS problem (dcs_generator.h): the same atoms, lattice and fp64
// oracle, at sizes where the atoms fill several constant-memory chunks.
#include "scatter-gather/dcs_generator.h"

GPULAB_DATASETS("coarsening", gpulab::DcsGenerator);
