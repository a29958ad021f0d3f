// The boundary around every call of the student's code in a runner. The student's code shares
// the runner's process with the harness, so between its calls (while the harness loads a
// sample's inputs, captures its outputs and hands them to the grader) nothing of it may run:
//  - no thread it started: each call must end the threads it started before it returns, so
//    work cannot go on beside the harness, outside the clock, or change outputs being captured;
//  - no signal handler it installed: the handlers it set are put aside (ignored) from the moment
//    a call returns until the next call starts, so a timer cannot run its code between calls;
//  - no process: runs may not start any (the sandbox's seccomp filter), and the run ends with
//    _exit, so no exit handler or static destructor runs after the last call;
//  - no rewritten code of the functions the harness's clocks and channel go through
//    (clock_gettime, sendmsg, CUDA's events, syncs and copies): a call that changed the first
//    bytes of one (mprotect, then a jump to code of its own, to forge a time) fails. Code changed
//    deeper (the vDSO, the harness itself) is not seen here: the grader's clock outside the
//    process bounds what it can gain (grader/run/outside_clock.h).
// What runs between calls is the harness's own code: each call's outputs are captured and sent
// to the grader (grader_channel.h) before the student's code runs again.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <set>
#include <vector>

namespace gpulab {

// Once, before the first call of the student's code: the backend's own threads are started (the
// CUDA runtime's, with its host-callback thread, for a GPU part; the CPU backend's workers),
// then the threads and signal handlers of this process are taken as those that may outlive a
// call. `check_threads` false: a run under a checking tool (compute-sanitizer), which starts
// threads of its own when it likes (and may instrument the CUDA runtime), and whose runs are
// never timed or scored by their outputs: neither threads nor code are checked there.
void prepare_student_calls(bool gpu, bool check_threads);

// One call of the student's function `what`, from the constructor (which gives the student's
// signal handlers back) to returned().
class StudentCall {
 public:
  explicit StudentCall(const char* what);
  StudentCall(const StudentCall&) = delete;
  StudentCall& operator=(const StudentCall&) = delete;
  // The call has returned: the student's signal handlers are put aside until the next call; a
  // guarded function's code changed, or a thread the call started still running, throws, naming
  // `what`.
  void returned();

 private:
  const char* what_;
};

}  // namespace gpulab
