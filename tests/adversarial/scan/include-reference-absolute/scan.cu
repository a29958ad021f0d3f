// Hostile: compiles the grader's hidden reference solution into itself by its absolute path
// (the test puts in the grader's source tree for the placeholder).
#include "@GPULAB_SOURCE_DIR@/reference/scan/scan.cu"
