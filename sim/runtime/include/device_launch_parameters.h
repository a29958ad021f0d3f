// What `#include <device_launch_parameters.h>` finds under sim: in CUDA it declares threadIdx,
// blockIdx, blockDim and gridDim, which the sim's runtime header already provides.
#pragma once

#include "cuda_runtime.h"
