// Hostile: compiles the hidden reference solution as its own, through the -I path of the lab's
// folder (labs/scatter-gather/../../reference/...). The compiler's sandbox has no reference/.
#include "../../reference/scatter-gather/dcs.cu"
