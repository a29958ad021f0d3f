// scatter-gather datasets: the DCS generator and oracle (dcs_generator.h, shared with coarsening).
#include "scatter-gather/dcs_generator.h"

GPULAB_DATASETS("scatter-gather", gpulab::DcsGenerator);
