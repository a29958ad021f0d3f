// What the harness asks of a backend's runtime around the student's code, where the runtime has
// something to do: the CPU backend's runtime (sim/runtime/settings.cpp) sets these in its
// start-up constructor, before main; the CUDA backend sets none (student_call.cpp starts the
// CUDA runtime's threads itself). Held here, not declared by the runtime, so that the harness
// never includes a layer above it (scripts/check_layers.py).
#pragma once

namespace gpulab {

struct BackendHooks {
  // Starts the runtime's worker threads now, before the first call of the student's code, so
  // that they count among the threads that may outlive a call (student_call.h).
  void (*start_workers)() = nullptr;
  // Finishes what the runtime reports at exit (the CPU backend's findings and their end
  // record): a runner ends with _exit, after which no exit handler runs.
  void (*finish)() = nullptr;
};

// The process's hooks: one object, whichever translation unit asks.
inline BackendHooks& backend_hooks() {
  static BackendHooks hooks;
  return hooks;
}

}  // namespace gpulab
