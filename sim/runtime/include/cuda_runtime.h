// What `#include <cuda_runtime.h>` finds when gpulab builds for the CPU backend (sim).
#pragma once

#include "gpulab_sim/sim.h"
