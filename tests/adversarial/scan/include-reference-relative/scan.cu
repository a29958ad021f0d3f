// Hostile: compiles the grader's hidden reference solution into itself. Seen from the lab's
// folder, which the grader puts on the include path for scan.h, the reference is
// ../../reference/scan/scan.cu.
#include "../../reference/scan/scan.cu"
