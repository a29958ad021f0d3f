#include "input_sets.h"

namespace gpulab {

namespace {

constexpr size_t kStepBytes = 256;  // what cudaMalloc aligns to: every place is as aligned
constexpr size_t kPlaces = 64;      // a set's copy takes each in turn: 4 sets, 256 addresses

}  // namespace

MovingInputs::MovingInputs(RunContext& ctx, size_t element_bytes)
    : ctx_(ctx),
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

}  // namespace gpulab
