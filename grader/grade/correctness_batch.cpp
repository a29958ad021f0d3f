#include "grade/correctness_batch.h"

#include <algorithm>
#include <random>

#include "files/secret.h"
#include "run/sim_report.h"
#include "sample_protocol.h"

namespace gpulab {

std::vector<size_t> batch_order(std::vector<size_t> places, const std::string& key) {
  // Fisher-Yates by hand: std::shuffle's steps differ between standard libraries, and the order
  // must be the same wherever the grade is made.
  std::mt19937_64 random(public_seed("batch order/" + key));
  for (size_t i = places.size(); i > 1; --i) std::swap(places[i - 1], places[random() % i]);
  return places;
}

std::vector<BatchedDataset> split_batch(const RunOutcome& batch,
                                        const std::vector<std::string>& outputs, size_t n,
                                        bool sim) {
  // How many datasets' calls ended, in order: each asks for the next only once its own ended.
  size_t ended = batch.ran ? n : 0;
  if (!batch.ran && !batch.samples.empty()) ended = std::min(n, 1 + batch.samples.size());
  // On the CPU backend a run that did not end well may not have written its findings whole. A
  // run whose own code spoke on the channel may have rewritten the harness's checks before any
  // call: its word on no dataset is final.
  bool final = batch.channel_problem.empty() && (!sim || batch.ran);
  std::vector<BatchedDataset> each(n);
  // Each finding to every dataset whose call made it; one of no call (or of a call the batch did
  // not have) is the process's.
  for (const nlohmann::json& f : batch.sim_findings) {
    const auto calls = f.find(kSimCallsKey);
    if (calls == f.end() || !calls->is_array() || calls->empty()) {
      final = false;
      continue;
    }
    for (const nlohmann::json& call : *calls) {
      const long long k = call.is_number_integer() ? call.get<long long>() : -1;
      if (k >= 0 && static_cast<size_t>(k) < n)
        each[static_cast<size_t>(k)].findings.push_back(f);
      else
        final = false;
    }
  }
  for (size_t k = 0; k < ended; ++k) {
    // Only what the dataset's check reads: its outputs. The process and its record are the
    // batch's, and a settled dataset has nothing to be told of them.
    RunOutcome& o = each[k].outcome.emplace();
    o.ran = true;
    o.outputs = batch.outputs->renamed(k ? sample_output_prefix(static_cast<int>(k)) : "", outputs);
    each[k].settled = final && each[k].findings.empty();
  }
  return each;
}

RunLimit batch_limit(const std::vector<RunLimit>& each) {
  RunLimit limit = each.at(0);
  limit.cpu_s = 0;
  for (const RunLimit& l : each) {
    limit.wall_s = std::max(limit.wall_s, l.wall_s);
    limit.cpu_s += l.cpu_s;
    limit.awaits_reference = limit.awaits_reference || l.awaits_reference;
  }
  limit.why = "each dataset's limit on the clock counts from its start; " + limit.why;
  return limit;
}

}  // namespace gpulab
