// The grader's end of one run's channel (harness/channel_protocol.h). The harness sends each
// output when it is final, each timed sample's end, and the run's record last; the run's code
// can send on the same descriptor, so every message is read as an adversary's: bounded, typed,
// each name once, samples in order. Anything a harness would never send fails the run, with a
// message for the student that says what came. A record of a failed run (status "error") may
// end an open timed sample: the harness sends one where the sample's call failed, and a run
// that says it failed gains nothing by saying so.
//
// It also keeps the grader's own clock of each timed sample, outside the run's process: from the
// grader's answer to "ask" k (the moment the sample's inputs exist where the run can read them)
// to its receipt of "done" k (the moment its outputs are the grader's), both the wall time and
// the CPU time of the run's whole process tree (process_tree.h). No work on sample k can fall
// outside that window: its inputs did not exist before it, and its outputs are taken only inside
// it, every one of them before its "done" (outside_clock.h says what the grader makes of it). An
// output has its turn: sample k's while sample k is open, the run's own before sample 1 is asked
// for. A run whose code said a sample was done before its work, and silenced the harness's own
// "done", would otherwise hand its outputs over after the window (tests/adversarial/
// scatter-gather/cpu-outputs-after-done).
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "data/sample_stage.h"
#include "data/sealed_outputs.h"
#include "os/process.h"

namespace gpulab {

// One timed sample, as the run said it went and as the grader saw it from outside.
struct SampleClock {
  double inside_ms = 0;      // the harness's time of the call ("done"'s "ms")
  double inside_cpu_ms = 0;  // the process's CPU time during the call ("done"'s "cpu_ms")
  double outside_wall_ms = 0, outside_cpu_ms = 0;  // hand-over to receipt, by the grader
};

// The names a run may hand over, each with its turn: the sample k (1..n) whose output it is, or 0
// for the run's own (its first, second or timed call's).
using OutputTurns = std::map<std::string, int>;

class RunChannel {
 public:
  // `outputs`: the names the run may hand over; `max_output_bytes`: the largest an output may
  // be; `stage`: a graded timed run's samples (null: the run asks for none).
  RunChannel(OutputTurns outputs, size_t max_output_bytes, SampleStage* stage);

  // ProcessOptions::on_message.
  std::string on_message(ChannelMessage& m);

  // After the run: what was wrong with what it sent ("" for nothing), its record (null without
  // one), its outputs, and its samples as the grader saw them.
  const std::string& problem() const { return problem_; }
  const nlohmann::json& record() const { return record_; }
  std::shared_ptr<SealedOutputs> outputs() const { return outputs_; }
  const std::vector<SampleClock>& samples() const { return samples_; }

 private:
  std::string refuse(const std::string& why);  // fails the run; the answer to send
  std::string output(const nlohmann::json& message, ChannelMessage& m);
  std::string ask(const nlohmann::json& message, const ChildClock& clock);
  std::string done(const nlohmann::json& message, const ChildClock& clock);
  std::string record(const nlohmann::json& message);

  OutputTurns allowed_;
  size_t max_output_bytes_;
  SampleStage* stage_;
  std::shared_ptr<SealedOutputs> outputs_ = std::make_shared<SealedOutputs>();
  std::vector<SampleClock> samples_;
  bool sample_open_ = false;  // asked for, not done yet
  double asked_wall_s_ = 0, asked_cpu_s_ = 0;
  nlohmann::json record_;
  bool ended_ = false;  // the record came
  std::string problem_;
};

// "" when a run's record (the runner protocol's, harness/runner_protocol.h) has every field it
// holds of the type the grader reads; else which is not. A record that does not hold together
// fails the run, never the grading.
std::string record_problem(const nlohmann::json& record);

}  // namespace gpulab
