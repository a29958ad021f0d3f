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
  // Two pinned pieces in turn, on a stream of the harness's own: the next piece crosses the bus
  // while this one is compared, so a gigabyte's check costs about its copy, not copy + compare.
  constexpr size_t kPiece = size_t{16} << 20;
  struct Pieces {
    unsigned char* at[2] = {};
    cudaEvent_t copied[2] = {};
    cudaStream_t stream = nullptr;
  };
  static const Pieces p = [] {  // the process's, for as long as it runs
    Pieces made;
    for (int i = 0; i < 2; ++i) {
      void* at = nullptr;
      GPULAB_CUDA(cudaMallocHost(&at, kPiece));
      made.at[i] = static_cast<unsigned char*>(at);
      GPULAB_CUDA(cudaEventCreateWithFlags(&made.copied[i], cudaEventDisableTiming));
    }
    GPULAB_CUDA(cudaStreamCreateWithFlags(&made.stream, cudaStreamNonBlocking));
    return made;
  }();
  const auto* now = static_cast<const char*>(device);
  const auto* was = static_cast<const unsigned char*>(host);
  const size_t pieces = (bytes + kPiece - 1) / kPiece;
  const auto length = [&](size_t k) { return std::min(kPiece, bytes - k * kPiece); };
  const auto fetch = [&](size_t k) {
    GPULAB_CUDA(cudaMemcpyAsync(p.at[k % 2], now + k * kPiece, length(k), cudaMemcpyDeviceToHost,
                                p.stream));
    GPULAB_CUDA(cudaEventRecord(p.copied[k % 2], p.stream));
  };
  if (pieces > 0) fetch(0);
  for (size_t k = 0; k < pieces; ++k) {
    // Piece k + 1 goes into the buffer that piece k - 1 left, compared already.
    if (k + 1 < pieces) fetch(k + 1);
    GPULAB_CUDA(cudaEventSynchronize(p.copied[k % 2]));
    const unsigned char* piece = p.at[k % 2];
    const unsigned char* expected = was + k * kPiece;
    const size_t n = length(k);
    if (std::memcmp(piece, expected, n) == 0) continue;
    GPULAB_CUDA(cudaStreamSynchronize(p.stream));  // no copy left in flight into a buffer
    for (size_t i = 0; i < n; ++i)
      if (piece[i] != expected[i]) return static_cast<long long>(k * kPiece + i);
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
