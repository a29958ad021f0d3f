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

long long first_device_difference(const void* device, const void* host, size_t bytes) {
  constexpr size_t kPiece = size_t{16} << 20;
  static unsigned char* const piece = [] {  // the process's one, for as long as it runs
    void* p = nullptr;
    GPULAB_CUDA(cudaMallocHost(&p, kPiece));
    return static_cast<unsigned char*>(p);
  }();
  const auto* now = static_cast<const char*>(device);
  const auto* was = static_cast<const unsigned char*>(host);
  for (size_t done = 0; done < bytes; done += kPiece) {
    const size_t n = std::min(kPiece, bytes - done);
    GPULAB_CUDA(cudaMemcpy(piece, now + done, n, cudaMemcpyDeviceToHost));
    if (std::memcmp(piece, was + done, n) != 0)
      for (size_t i = 0; i < n; ++i)
        if (piece[i] != was[done + i]) return static_cast<long long>(done + i);
  }
  return -1;
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
