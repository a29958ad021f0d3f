// The host side of every form: one program per form, whose argument picks one of its four cases.
// Each form writes the same two bugs its own way, each beside a clean twin:
//   oob   out[i] = in[i + 1] over the whole input: the last thread reads one element past the end
//         of the input's allocation (made at its exact size). The twin guards the read.
//   race  one block of two warps: each thread stores its element to shared memory, then reads the
//         element of its mirror thread (63 - t), which the other warp stored, with no
//         __syncthreads() between. The twin has it.
// A twin's output is checked: out[i] = in[i + 1] (0 for the last), out[t] = in[63 - t].
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace corpus {

constexpr int kN = 130;     // not a multiple of 4: the vector form's last float4 runs over
constexpr int kBlock = 64;  // two warps: each thread's mirror is in the other warp

using Launcher = void (*)(const float* in, float* out, int n);
struct Cases {
  Launcher oob_bug, oob_twin, race_bug, race_twin;
};

inline int run(int argc, char** argv, const Cases& cases) {
  const std::string which = argc > 1 ? argv[1] : "";
  Launcher launch = which == "oob-bug"     ? cases.oob_bug
                    : which == "oob-twin"  ? cases.oob_twin
                    : which == "race-bug"  ? cases.race_bug
                    : which == "race-twin" ? cases.race_twin
                                           : nullptr;
  if (!launch) {
    std::fprintf(stderr, "usage: %s oob-bug|oob-twin|race-bug|race-twin\n", argv[0]);
    return 2;
  }
  float host_in[kN], host_out[kN], *in = nullptr, *out = nullptr;
  for (int i = 0; i < kN; ++i) host_in[i] = static_cast<float>(i + 1);
  cudaMalloc(&in, kN * sizeof(float));
  cudaMalloc(&out, kN * sizeof(float));
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, kN * sizeof(float));
  launch(in, out, kN);
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("%s: the kernel failed\n", which.c_str());
    return 0;
  }
  const bool oob = which.rfind("oob", 0) == 0;
  for (int i = 0; i < (oob ? kN : kBlock); ++i) {
    const float want = oob ? (i + 1 < kN ? host_in[i + 1] : 0.0f) : host_in[kBlock - 1 - i];
    if (host_out[i] != want) {
      std::printf("%s: out[%d] is %g, not %g\n", which.c_str(), i, host_out[i], want);
      return 1;
    }
  }
  std::printf("%s: right\n", which.c_str());
  return 0;
}

}  // namespace corpus
