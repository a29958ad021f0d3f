// What the harness asks of a backend's runtime around the student's code, where the runtime has
// something to do: the CPU backend's runtime (sim/runtime/settings.cpp) sets these in its
// start-up constructor, before main; the CUDA backend sets none (student_call.cpp starts the
// CUDA runtime's threads itself). Held here, not declared by the runtime, so that the harness
// never includes a layer above it (scripts/check_layers.py).
#pragma once

#include <cstddef>

namespace gpulab {

struct BackendHooks {
  // Starts the runtime's worker threads now, before the first call of the student's code, so
  // that they count among the threads that may outlive a call (student_call.h).
  void (*start_workers)() = nullptr;
  // Finishes what the runtime reports at exit (the CPU backend's findings and their end
  // record): a runner ends with _exit, after which no exit handler runs.
  void (*finish)() = nullptr;
  // Says that the device allocation at `whole` is a grader's output: `bytes` of the student's
  // array after `before` bytes of guard zone, the rest guard zone too (run_part.h). The CPU
  // backend then names the array in findings by `name` and its own size and offsets, treats the
  // guards as outside it (an access there is out of bounds at once), and the array as not yet
  // written by the student (a read before a write is a read of the poison).
  void (*mark_output)(const void* whole, std::size_t before, std::size_t bytes,
                      const char* name) = nullptr;
  // Copies `n` bytes of device memory at `src` to `dst` whatever error the student's kernels
  // left, where the backend can (the CPU backend: its device memory is the process's); false
  // where [src, src + n) is not inside one allocation. So that the outputs of a call that failed
  // can be handed over as its kernels left them (run_part.h).
  bool (*read_device)(void* dst, const void* src, std::size_t n) = nullptr;
  // Says that the call on dataset `k` of a batch (sample_protocol.h, kBatchFlag: 0 the run's own,
  // then each sample) begins: the CPU backend marks its report there, so that the grader tells
  // which dataset's call made each finding (grader/grade/correctness_batch.h).
  void (*begin_call)(int k) = nullptr;
};

// The key of the CPU backend's mark of a call in its report, {"call":k} (k = -1: the calls are
// over), after which each finding a call makes is sent again (grader/run/sim_report.h).
inline constexpr const char* kCallMarkKey = "call";

// The process's hooks: one object, whichever translation unit asks.
inline BackendHooks& backend_hooks() {
  static BackendHooks hooks;
  return hooks;
}

}  // namespace gpulab
