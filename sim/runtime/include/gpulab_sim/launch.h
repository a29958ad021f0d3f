// Kernel launches (contract item 1): the arguments are copied once, the configuration is
// checked like CUDA does, then every CUDA thread calls the rewriter's lambda with its own copy.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "runtime_api.h"

namespace gpulab_sim {
namespace detail {
bool launch_check(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem);
void launch_run(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
                void (*body)(void*), void* ctx);
}  // namespace detail

template <class F, class... A>
void launch(const char* file, int line, dim3 grid, dim3 block, std::size_t shmem,
            cudaStream_t stream, F&& kernel, A&&... args) {
  (void)stream;  // streams are in order and synchronous
  if (!detail::launch_check(file, line, grid, block, shmem)) return;
  std::tuple<std::decay_t<A>...> stored(std::forward<A>(args)...);
  auto body = [&]() {
    std::tuple<std::decay_t<A>...> mine(stored);
    std::apply(kernel, mine);
  };
  using Body = decltype(body);
  detail::launch_run(
      file, line, grid, block, shmem, [](void* b) { (*static_cast<Body*>(b))(); }, &body);
}
}  // namespace gpulab_sim
