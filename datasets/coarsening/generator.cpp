// coarsening datasets: lab 1's DCS problem (families/dcs/generator.h): the same atoms, lattice
// and fp64 oracle, at sizes where the atoms fill several constant-memory chunks.
#include "dcs/generator.h"

GPULAB_DATASETS("coarsening", gpulab::DcsGenerator);
