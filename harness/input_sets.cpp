#include "input_sets.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpulab {

namespace {

constexpr size_t kStepBytes = 256;  // what cudaMalloc aligns to: every place is as aligned
constexpr size_t kPlaces = 64;      // a set's copy takes each in turn: 4 sets, 256 addresses

}  // namespace

MovingInputs::MovingInputs(RunContext& ctx, std::string name, size_t element_bytes)
    : ctx_(ctx),
      name_(std::move(name)),
      element_bytes_(element_bytes),
      padded_(ctx.time),
      places_(static_cast<size_t>(input_sets(ctx)), 0) {
  ctx_.moving_inputs.push_back(this);
}

MovingInputs::~MovingInputs() {
  auto& all = ctx_.moving_inputs;
  all.erase(std::remove(all.begin(), all.end(), this), all.end());
}

size_t MovingInputs::offset(int set) const {
  return places_[static_cast<size_t>(set)] * kStepBytes / element_bytes_;
}

size_t MovingInputs::room() const {
  return padded_ ? (kPlaces - 1) * kStepBytes / element_bytes_ : 0;
}

void MovingInputs::refresh(int set) {
  if (padded_) {
    auto& place = places_[static_cast<size_t>(set)];
    place = (place + 1) % kPlaces;
  } else {
    reallocate(set);
  }
  write(set);
}

void RunContext::refresh_inputs(int set) {
  for (MovingInputs* in : moving_inputs) in->refresh(set);
}

void RunContext::check_inputs(int set, const char* what) const {
  if (trusted) return;
  for (const MovingInputs* in : moving_inputs) {
    const long long at = in->first_change(set);
    if (at < 0) continue;
    throw std::runtime_error(
        std::string("your ") + what + " changed its input \"" + in->name() + "\" (element " +
        std::to_string(at) +
        " first). Inputs are read-only: a function that writes into its const inputs (sorts "
        "them in place, say, or uses them as scratch) changes what the next call sees. Work on "
        "a copy of your own.");
  }
}

}  // namespace gpulab
