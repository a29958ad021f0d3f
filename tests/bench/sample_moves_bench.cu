// What each move of a graded timed sample's data costs on this machine, for a gigabyte input and
// output (scan's timing dataset): the ways the runner could load the inputs, hand the outputs
// over in a sealed memory file, and check the inputs after the call. docs/PERF.md ("A timed
// sample's moves") has the numbers and the choices they made.
//
//   nvcc -O2 -std=c++17 -o /tmp/sample_moves_bench tests/bench/sample_moves_bench.cu
//   /tmp/sample_moves_bench [MiB]     (default 1024; the file goes in $TMPDIR or /tmp)
//
// Each move is timed 5 times; the median is printed, in ms and GB/s.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                       \
  do {                                                              \
    cudaError_t e_ = (x);                                           \
    if (e_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                 \
    }                                                               \
  } while (0)

namespace {

size_t g_bytes = 0;

// The step now timed, and since when: a watchdog ends the bench where one runs past kStepLimit
// (its first run on an H100 stayed in cudaHostRegister of a file's read-only mapping for over a
// minute), naming it, so that the steps before it are not lost with it.
constexpr int kStepLimitS = 30;
std::atomic<const char*> g_step{nullptr};
std::atomic<long long> g_step_since{0};
long long now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
void watch_steps() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const char* step = g_step.load();
    if (step && now_s() - g_step_since.load() > kStepLimitS) {
      std::printf("%-58s did not finish in %d s: stopped here\n", step, kStepLimitS);
      std::fflush(stdout);
      std::_Exit(3);
    }
  }
}

void report(const char* what, const std::function<void()>& setup, const std::function<void()>& move,
            const std::function<void()>& teardown) {
  std::fprintf(stderr, "timing: %s\n", what);  // a step that hangs is named in the log
  g_step_since = now_s();
  g_step = what;
  std::vector<double> ms;
  for (int i = 0; i < 5; ++i) {
    setup();
    const auto t0 = std::chrono::steady_clock::now();
    move();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    teardown();
  }
  g_step = nullptr;
  std::sort(ms.begin(), ms.end());
  std::printf("%-58s %9.2f ms %8.2f GB/s\n", what, ms[2], g_bytes / (ms[2] * 1e6));
}

void* map_file(int fd, int prot, int flags) {
  void* at = mmap(nullptr, g_bytes, prot, flags, fd, 0);
  if (at == MAP_FAILED) std::perror("mmap"), std::exit(1);
  return at;
}

// The pinned staging buffer's size, and `work(offset, n)` on each piece of `g_bytes` in turn.
constexpr size_t kPiece = size_t{16} << 20;
template <class Work>
void in_pieces(Work work) {
  for (size_t d = 0; d < g_bytes; d += kPiece) work(d, std::min(kPiece, g_bytes - d));
}

// `work` on each eighth of the `g_bytes` at `at`, a thread each.
void in_eighths(void* at, void (*work)(char* from, size_t n)) {
  std::vector<std::thread> threads;
  for (size_t k = 0; k < 8; ++k)
    threads.emplace_back(work, static_cast<char*>(at) + k * (g_bytes / 8), g_bytes / 8);
  for (auto& t : threads) t.join();
}

// The first word that differs between a and b, by atomicMin over the words; n words.
__global__ void first_difference(const unsigned* a, const unsigned* b, size_t n,
                                 unsigned long long* first) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    if (a[i] != b[i]) atomicMin(first, static_cast<unsigned long long>(i));
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line reaches the log as it is printed
  std::thread(watch_steps).detach();
  g_bytes = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024) << 20;
  const char* tmp = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  const std::string path = std::string(tmp) + "/sample_moves_bench.bin";
  std::vector<unsigned> host(g_bytes / 4);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned>(i * 2654435761u);
  {
    const int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (fd < 0 || write(fd, host.data(), g_bytes) != static_cast<ssize_t>(g_bytes))
      std::perror("write"), std::exit(1);
    close(fd);
  }
  const int in_fd = open(path.c_str(), O_RDONLY);
  unsigned *dev_a, *dev_b, *pinned;
  unsigned long long* first;
  CK(cudaMalloc(&dev_a, g_bytes));
  CK(cudaMalloc(&dev_b, g_bytes));
  CK(cudaMalloc(&first, sizeof *first));
  CK(cudaMallocHost(&pinned, kPiece));
  CK(cudaMemcpy(dev_a, host.data(), g_bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dev_b, dev_a, g_bytes, cudaMemcpyDeviceToDevice));
  std::printf("%zu MiB, %s\n", g_bytes >> 20, path.c_str());

  void* at = nullptr;
  int mfd = -1;
  const auto none = [] {};
  const auto unmap = [&] { munmap(at, g_bytes); };
  const auto map_input = [&] { at = map_file(in_fd, PROT_READ, MAP_PRIVATE | MAP_POPULATE); };
  // Loading the inputs: the dataset's file, in the page cache, mapped and copied up.
  report("load: mmap MAP_POPULATE (page cache)", none, map_input, unmap);
  report(
      "load: cudaMemcpy H2D from the mapping (pageable)", map_input,
      [&] { CK(cudaMemcpy(dev_a, at, g_bytes, cudaMemcpyHostToDevice)); }, unmap);
  report(
      "load: H2D through a 16 MiB pinned buffer (memcpy + copy)", map_input,
      [&] {
        in_pieces([&](size_t d, size_t n) {
          std::memcpy(pinned, static_cast<char*>(at) + d, n);
          CK(cudaMemcpy(reinterpret_cast<char*>(dev_a) + d, pinned, n, cudaMemcpyHostToDevice));
        });
      },
      unmap);
  // Handing the outputs over: a memory file, filled from the device.
  const auto new_memfd = [&] {
    mfd = memfd_create("bench", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (mfd < 0 || ftruncate(mfd, static_cast<off_t>(g_bytes)) != 0)
      std::perror("memfd"), std::exit(1);
  };
  const auto close_memfd = [&] {
    munmap(at, g_bytes);
    close(mfd);
  };
  report(
      "hand over: memfd mmap MAP_POPULATE", new_memfd,
      [&] { at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE); }, close_memfd);
  report(
      "hand over: memfd fallocate + mmap MAP_POPULATE", new_memfd,
      [&] {
        if (fallocate(mfd, 0, 0, static_cast<off_t>(g_bytes)) != 0) std::perror("fallocate");
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE);
      },
      close_memfd);
  report(
      "hand over: memfd mmap, 8 threads touch each page", new_memfd,
      [&] {
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED);
        in_eighths(at, [](char* from, size_t n) {
          for (size_t i = 0; i < n; i += 4096) static_cast<volatile char*>(from)[i] = 0;
        });
      },
      close_memfd);
  report(
      "hand over: memfd mmap, 8 threads MADV_POPULATE_WRITE", new_memfd,
      [&] {
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED);
        in_eighths(at, [](char* from, size_t n) {
          if (madvise(from, n, 23) != 0) std::perror("madvise");  // MADV_POPULATE_WRITE
        });
      },
      close_memfd);
  report(
      "hand over: munmap + close of a filled memfd",
      [&] {
        new_memfd();
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE);
      },
      [&] { close_memfd(); }, none);
  report(
      "hand over: memfd mmap MAP_POPULATE + D2H (pageable)", new_memfd,
      [&] {
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE);
        CK(cudaMemcpy(at, dev_a, g_bytes, cudaMemcpyDeviceToHost));
      },
      close_memfd);
  report(
      "hand over: memfd mmap (faults) + D2H (pageable)", new_memfd,
      [&] {
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED);
        CK(cudaMemcpy(at, dev_a, g_bytes, cudaMemcpyDeviceToHost));
      },
      close_memfd);
  const auto locked_copy_down = [&] {
    at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE);
    CK(cudaHostRegister(at, g_bytes, cudaHostRegisterDefault));
    CK(cudaMemcpy(at, dev_a, g_bytes, cudaMemcpyDeviceToHost));
    CK(cudaHostUnregister(at));
  };
  report(
      "hand over: memfd mmap + D2H through a 16 MiB pinned buffer", new_memfd,
      [&] {
        at = map_file(mfd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE);
        in_pieces([&](size_t d, size_t n) {
          CK(cudaMemcpy(pinned, reinterpret_cast<char*>(dev_a) + d, n, cudaMemcpyDeviceToHost));
          std::memcpy(static_cast<char*>(at) + d, pinned, n);
        });
      },
      close_memfd);
  // Checking the inputs after a call: against the host's copy, or against the device's.
  report(
      "check: D2H through a 16 MiB pinned buffer + memcmp", map_input,
      [&] {
        in_pieces([&](size_t d, size_t n) {
          CK(cudaMemcpy(pinned, reinterpret_cast<char*>(dev_a) + d, n, cudaMemcpyDeviceToHost));
          if (std::memcmp(pinned, static_cast<char*>(at) + d, n) != 0) std::puts("differs?");
        });
      },
      unmap);
  report(
      "check: a kernel comparing with the device's copy", none,
      [&] {
        const unsigned long long none_yet = ~0ull;
        CK(cudaMemcpy(first, &none_yet, sizeof none_yet, cudaMemcpyHostToDevice));
        first_difference<<<1024, 512>>>(dev_a, dev_b, g_bytes / 4, first);
        unsigned long long got = 0;
        CK(cudaMemcpy(&got, first, sizeof got, cudaMemcpyDeviceToHost));
        if (got != ~0ull) std::puts("differs?");
      },
      none);
  report(
      "refresh: D2D copy", none,
      [&] {
        CK(cudaMemcpy(dev_b, dev_a, g_bytes, cudaMemcpyDeviceToDevice));
        CK(cudaDeviceSynchronize());
      },
      none);
  report(
      "allocate: cudaMalloc + cudaFree", none,
      [&] {
        void* p = nullptr;
        CK(cudaMalloc(&p, g_bytes));
        CK(cudaFree(p));
      },
      none);
  // Then the page-locking moves, which may hang (the watchdog names the step that does).
  report("hand over: memfd mmap + cudaHostRegister + D2H + unregister", new_memfd, locked_copy_down,
         close_memfd);
  // The seal a handed-over output takes needs every page unpinned: the driver's unregister must
  // have let go of them by then (the kernel refuses F_SEAL_WRITE on pinned pages).
  report(
      "hand over: as above, then munmap + F_SEAL_WRITE", new_memfd,
      [&] {
        locked_copy_down();
        munmap(at, g_bytes);
        if (fcntl(mfd, F_ADD_SEALS, F_SEAL_WRITE) != 0) std::perror("seal after unregister");
        at = map_file(mfd, PROT_READ, MAP_SHARED);
      },
      close_memfd);
  // Last: the page-locking of a file's mapping, which stayed past a minute on an H100.
  report(
      "load: cudaHostRegister(ReadOnly) + H2D + unregister", map_input,
      [&] {
        CK(cudaHostRegister(at, g_bytes, cudaHostRegisterReadOnly));
        CK(cudaMemcpy(dev_a, at, g_bytes, cudaMemcpyHostToDevice));
        CK(cudaHostUnregister(at));
      },
      unmap);
  unlink(path.c_str());
  return 0;
}
