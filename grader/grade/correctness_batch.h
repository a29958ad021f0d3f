// A part's correctness datasets in one runner process (docs/GRADING.md, "Correctness datasets in
// one process"): each process a runner starts costs the grading a sandbox, a CUDA context and its
// libraries' start, often more than the call it makes. The part's first dataset still runs in a
// fresh process of its own (a bug of the first call, where nothing is set up yet, stays visible),
// as does the dataset whose function is called twice; the rest of each group run in one process,
// in a shuffled order fixed by the part and group, each call on fresh poisoned outputs, its
// inputs checked after it, its outputs handed over before the next call starts
// (harness/sample_protocol.h, kBatchFlag).
//
// A batch's word on a dataset is final only where its call ended, its outputs passed their
// check, and, on the CPU backend, the run ended well and its call made no finding (the harness
// marks each call in the CPU backend's report: sim_report.h; a finding of no call is the
// whole process's, and settles nothing); nowhere if the run sent on its channel what the
// harness never does (RunOutcome::channel_problem: the student's code spoke there). Every other
// dataset of the batch (the one whose call failed or hung and those after it, one whose outputs
// were wrong or whose call made a finding, all of them where the run spoke out of turn) runs
// again alone, one process each, so that what a student reads of it is what a run of its own
// says. A dataset wrong in the batch, or whose call there made a finding that fails a dataset,
// fails even where it is right and clean alone: a call after other calls in one process must be
// right too (code that keeps state from call to call, a buffer sized on an earlier call, or a
// race that showed there).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "run/runner_client.h"

namespace gpulab {

// `places` (a group's datasets, by their places in its list) in the batch's order: a shuffle
// that `key` (the part's and group's names) fixes, so that a regrade repeats it and no run can
// count on the small datasets coming first.
std::vector<size_t> batch_order(std::vector<size_t> places, const std::string& key);

// What a batch's run says of one of its datasets.
struct BatchedDataset {
  std::optional<RunOutcome> outcome;     // where its call ended: its outputs, to check
  bool settled = false;                  // its outcome is final where its outputs pass their check
  std::vector<nlohmann::json> findings;  // the CPU backend's, made in its call
};

// Each of a batch's `n` datasets, in the batch's order (the run's own dataset, then sample 1,
// 2, ...); `outputs` are the part's output names, `sim` whether it ran on the CPU backend.
std::vector<BatchedDataset> split_batch(const RunOutcome& batch,
                                        const std::vector<std::string>& outputs, size_t n,
                                        bool sim);

// The limit of a batch whose datasets' own limits are `each`: on the clock the longest of them
// for each dataset, from its hand-over (RunRequest::batch); of CPU time their sum for the whole
// run.
RunLimit batch_limit(const std::vector<RunLimit>& each);

}  // namespace gpulab
