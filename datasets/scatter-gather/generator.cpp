// scatter-gather datasets: the DCS family's generator and oracle (families/dcs/generator.h,
// shared with coarsening).
#include "dcs/generator.h"

GPULAB_DATASETS("scatter-gather", gpulab::DcsGenerator);
