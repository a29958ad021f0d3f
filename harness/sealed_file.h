// A memory file written once and then sealed against every change (memfd with F_SEAL_WRITE,
// F_SEAL_GROW, F_SEAL_SHRINK and F_SEAL_SEAL): after sealing, nobody, its maker included, can
// change a byte of it or its size. The runner hands its outputs to the grader so
// (grader_channel.h); the grader checks the seals before it takes one
// (grader/data/sealed_outputs.h).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "unique_fd.h"

namespace gpulab {

// A sealed memory file of `bytes` bytes that `fill` wrote (through a mapping, unmapped before
// sealing). `name` shows in /proc (memfd:gpulab-<name>). Throws std::runtime_error, naming it,
// where it cannot be made.
UniqueFd sealed_memory_file(const std::string& name, size_t bytes,
                            const std::function<void(void* data)>& fill);

}  // namespace gpulab
