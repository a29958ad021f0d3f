// What gpulab's harness asks of the runtime around the student's code (harness/student_call.h,
// harness/runner_main.cpp); not for programs.
#pragma once

namespace gpulab_sim {

// Starts the worker threads that run blocks now, rather than at the first launch: the harness
// then counts them among the threads that may outlive a call of the student's code.
void start_workers();

// Sends the findings' final counts and the end record now (sim/README.md, "What is reported"):
// a runner ends with _exit, after which no exit handler runs. Once; later calls do nothing.
void finish_report_now();

}  // namespace gpulab_sim
