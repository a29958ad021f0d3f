// A timed part's inputs, one copy per input set, each written afresh before every timed sample:
// from a pristine copy, so a submission that wrote into its const inputs (or hid results
// there) starts again from the true ones; and to a place that moves by 256 bytes with every
// sample of the set, so a submission that keeps results by input address finds none to reuse.
// The copy is made before the sample's clock starts, and on the GPU before its L2 flush.
// (Results kept by input content, not address, are caught by the roofline floor where they pay:
// the grader rejects times below what the hardware can do.)
//
// Only a timed run (RunContext::time) pads a set's allocation with the room its places need.
// Otherwise each input is allocated at its exact size, so a read one element past its end is
// outside the allocation (an error with file and line on the CPU backend, and under
// compute-sanitizer), not in padding; a refresh there (the grader's second call) writes the
// input into a new allocation, made while the old one still stands: a new address too.
//
// A driver holds each input in one of these, named as the dataset names it, and hands get(set)
// to the student's function; run_gpu_part and run_cpu_part move every input of the run before
// each timed sample, and after every call whose outputs are checked compare each input with
// its pristine copy (RunContext::check_inputs): a call that wrote into its const inputs fails,
// the input named, on both backends.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "run_part.h"

namespace gpulab {

// The byte offset of the first difference between `bytes` bytes of device memory at `device` and
// of host memory at `host`, or -1. Read back in pieces through two pinned buffers, one piece's
// copy overlapping the last one's comparison: a student's timed run checks a gigabyte's input
// after every sample, and pageable copies of it cost several times more. The comparison is with
// the dataset's read-only mapping, which no student code can write, not with the device's
// pristine copy, which a kernel that guesses its address can.
long long first_device_difference(const void* device, const void* host, size_t bytes);

// Where each input set's copy sits in its allocation, and the input's place in the run.
class MovingInputs {
 public:
  MovingInputs(const MovingInputs&) = delete;
  MovingInputs& operator=(const MovingInputs&) = delete;
  virtual ~MovingInputs();

  // Moves set `set` to its next place (or, unpadded, into a new allocation) and writes it there
  // from the pristine copy.
  void refresh(int set);

  const std::string& name() const { return name_; }
  // The index of the first element of set `set` that differs from the pristine copy; -1 where
  // none does.
  virtual long long first_change(int set) const = 0;

 protected:
  MovingInputs(RunContext& ctx, std::string name, size_t element_bytes);
  int sets() const { return static_cast<int>(places_.size()); }
  size_t offset(int set) const;  // in elements, from the start of the set's allocation
  size_t room() const;           // elements a set's allocation holds beyond the input
  virtual void write(int set) = 0;
  virtual void reallocate(int set) = 0;  // a new allocation for the set, before the old goes

 private:
  RunContext& ctx_;
  std::string name_;
  size_t element_bytes_;
  bool padded_;  // a timed run: each set's allocation has room for its places
  std::vector<size_t> places_;
};

template <class T>
class DeviceInputs : public MovingInputs {
  static_assert(256 % sizeof(T) == 0, "an input moves by 256 bytes: whole elements");

 public:
  // `host` (the dataset's array) outlives this: the inputs are checked against it.
  DeviceInputs(RunContext& ctx, std::string name, const T* host, size_t count)
      : MovingInputs(ctx, std::move(name), sizeof(T)),
        host_(host),
        count_(count),
        pristine_(count) {
    if (count) pristine_.upload(host);
    for (int s = 0; s < sets(); ++s) {
      sets_.emplace_back(count + room());
      write(s);
    }
  }
  const T* get(int set) const { return sets_[static_cast<size_t>(set)].get() + offset(set); }
  size_t size() const { return count_; }
  long long first_change(int set) const override {
    const long long byte = first_device_difference(get(set), host_, count_ * sizeof(T));
    return byte < 0 ? -1 : byte / static_cast<long long>(sizeof(T));
  }

 private:
  void write(int set) override {
    if (count_)
      GPULAB_CUDA(cudaMemcpy(sets_[static_cast<size_t>(set)].get() + offset(set), pristine_.get(),
                             count_ * sizeof(T), cudaMemcpyDeviceToDevice));
  }
  void reallocate(int set) override {
    DeviceBuffer<T> fresh(count_ + room());
    std::swap(sets_[static_cast<size_t>(set)], fresh);
  }

  const T* host_;
  size_t count_;
  DeviceBuffer<T> pristine_;  // on the device, so that a refresh is a device-to-device copy
  std::vector<DeviceBuffer<T>> sets_;
};

template <class T>
class HostInputs : public MovingInputs {
  static_assert(256 % sizeof(T) == 0, "an input moves by 256 bytes: whole elements");

 public:
  HostInputs(RunContext& ctx, std::string name, const T* host, size_t count)
      : MovingInputs(ctx, std::move(name), sizeof(T)), pristine_(host, host + count) {
    for (int s = 0; s < sets(); ++s) {
      sets_.emplace_back(count + room());
      write(s);
    }
  }
  const T* get(int set) const { return sets_[static_cast<size_t>(set)].data() + offset(set); }
  size_t size() const { return pristine_.size(); }
  long long first_change(int set) const override {
    const T* now = get(set);
    if (pristine_.empty() || std::memcmp(now, pristine_.data(), pristine_.size() * sizeof(T)) == 0)
      return -1;
    for (size_t i = 0; i < pristine_.size(); ++i)
      if (std::memcmp(&now[i], &pristine_[i], sizeof(T)) != 0) return static_cast<long long>(i);
    return -1;
  }

 private:
  void write(int set) override {
    std::copy(pristine_.begin(), pristine_.end(),
              sets_[static_cast<size_t>(set)].begin() + static_cast<std::ptrdiff_t>(offset(set)));
  }
  void reallocate(int set) override {
    std::vector<T> fresh(pristine_.size() + room());
    std::swap(sets_[static_cast<size_t>(set)], fresh);
  }

  std::vector<T> pristine_;
  std::vector<std::vector<T>> sets_;
};

}  // namespace gpulab
