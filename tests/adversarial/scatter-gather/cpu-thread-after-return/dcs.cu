// Hostile, appended to the slowed reference (its twin is slow-cpu): the first call starts a
// worker thread and turns the names a runner once wrote its outputs to into FIFOs; each call
// queues its inputs and output for the worker and returns at once, and the worker computes the
// result while the harness, after the clock stopped, waits to open the FIFO.
#include <sys/stat.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Job {
  std::vector<float> atoms;
  Lattice lat;
  float* out;
};

std::mutex mu;
std::condition_variable wake;
std::deque<Job> jobs;

void worker() {
  for (;;) {
    std::unique_lock<std::mutex> lock(mu);
    wake.wait(lock, [] { return !jobs.empty(); });
    Job j = std::move(jobs.front());
    jobs.pop_front();
    lock.unlock();
    slow_cpu_fast(j.atoms.data(), static_cast<int>(j.atoms.size() / 4), j.lat, j.out);
  }
}

}  // namespace

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static const bool started = [] {
    mkfifo("potential.npy", 0600);
    for (int k = 1; k <= 8; ++k)
      mkfifo(("sample" + std::to_string(k) + "_potential.npy").c_str(), 0600);
    std::thread(worker).detach();
    return true;
  }();
  (void)started;
  std::lock_guard<std::mutex> lock(mu);
  jobs.push_back({std::vector<float>(atoms, atoms + 4 * static_cast<size_t>(n_atoms)), lat,
                  potential});
  wake.notify_one();
}
