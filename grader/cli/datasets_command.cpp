#include "cli/datasets_command.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "data/dataset_store.h"
#include "files/disk_usage.h"
#include "files/paths.h"
#include "os/exit_status.h"
#include "os/progress.h"
#include "os/stop_signals.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// How often the terminal line shows the bytes written so far of the dataset being made: a
// timing dataset takes tens of seconds, and a line that does not move looks hung.
constexpr auto kTick = std::chrono::milliseconds(500);

std::string datasets_word(size_t n) {
  return std::to_string(n) + (n == 1 ? " dataset" : " datasets");
}

// Redraws "<group>/<name>: <seconds> s, <bytes> written" every kTick while a dataset is made.
class SizeTicker {
 public:
  explicit SizeTicker(Progress& progress) : progress_(progress) {
    thread_ = std::thread([this] { loop(); });
  }
  ~SizeTicker() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // Watching `dir` (a dataset's folder: its entries and the one being made), called `label`.
  void watch(const std::string& label, const fs::path& dir) {
    const std::lock_guard<std::mutex> lock(mutex_);
    label_ = label;
    dir_ = dir;
    since_ = Clock::now();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, kTick, [this] { return done_; })) {
      if (dir_.empty()) continue;
      const std::string label = label_;
      const fs::path dir = dir_;
      // A generator may hold a dataset in memory until it is whole: the clock moves meanwhile.
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - since_);
      lock.unlock();
      const std::string line = label + ": " + std::to_string(seconds.count()) + " s, " +
                               human_bytes(tree_bytes(dir)) + " written";
      lock.lock();
      if (!done_ && dir == dir_) progress_.now(line);
    }
  }

  Progress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::string label_;
  fs::path dir_;
  Clock::time_point since_;
  std::thread thread_;
};

}  // namespace

DatasetGroupChoice choose_dataset_groups(const LabConfig& lab, const std::string& group,
                                         bool seeded) {
  DatasetGroupChoice c;
  if (!group.empty()) {
    std::vector<std::string> names;
    for (const auto& g : lab.groups) names.push_back(g.name);
    const GroupSpec* chosen = nullptr;
    for (const auto& g : lab.groups)
      if (g.name == group) chosen = &g;
    if (!chosen)
      throw std::runtime_error("lab " + lab.id + ": " + unknown_name("group", group, names));
    if (chosen->hidden && !seeded)
      throw std::runtime_error("the " + group + " group of lab " + lab.id +
                               " is hidden, made from the instructor's hidden seed: pass it "
                               "with --hidden-seed S");
    c.write.push_back(chosen);
    return c;
  }
  for (const auto& g : lab.groups) {
    const std::string what = "the " + g.name + " group (" + datasets_word(g.datasets.size());
    if (g.hidden && !seeded)
      c.left_out.push_back(what + ", hidden: graded only, made from the instructor's hidden seed)");
    else if (g.timing)
      c.left_out.push_back(what + ", for timed runs: large); write it with: gpulab datasets " +
                           lab.id + " --group " + g.name + " --out DIR");
    else
      c.write.push_back(&g);
  }
  return c;
}

int datasets_command(const DatasetsOptions& o, std::ostream& out) {
  // Ctrl-C or SIGTERM: the dataset being made is removed (the stop thread's temporaries) and
  // gpulab exits at once; those renamed into place before are whole and stay.
  stop_at_once_on_signals("datasets",
                          "removed the dataset being made; those finished before "
                          "are in " +
                              o.out.string());
  const bool tty = Progress::is_tty(1);
  const LabConfig lab = LabConfig::load_id(Paths::current().source, o.lab);
  const DatasetGroupChoice choice = choose_dataset_groups(lab, o.group, o.seed.has_value());
  size_t total = 0;
  for (const GroupSpec* g : choice.write) total += g->datasets.size();
  uint64_t bytes = 0;
  const auto start = Clock::now();
  {
    Progress progress(out, tty, total, 0, Progress::terminal_width(1));
    try {
      SizeTicker ticker(progress);
      for (const GroupSpec* g : choice.write)
        for (const auto& ds : g->datasets) {
          const std::string label = g->name + "/" + ds.name;
          const auto began = Clock::now();
          progress.started();
          progress.now(label);
          ticker.watch(label, o.out / g->name / ds.name);
          const DatasetDirs d = materialize(lab, *g, ds, o.seed.value_or(""), o.out);
          const uint64_t size = tree_bytes(d.input.parent_path());
          bytes += size;
          char took[32];
          std::snprintf(took, sizeof took, "%.1f s",
                        std::chrono::duration<double>(Clock::now() - began).count());
          progress.finished(label + ": " + human_bytes(size) + " in " + took + ", " +
                            d.input.parent_path().string());
        }
    } catch (...) {
      progress.close();  // the error gpulab prints starts on a line of its own
      throw;
    }
    progress.close();
  }
  char took[32];
  std::snprintf(took, sizeof took, "%.0f s",
                std::chrono::duration<double>(Clock::now() - start).count());
  out << "wrote " << datasets_word(total) << " (" << human_bytes(bytes) << ") in " << took << " to "
      << o.out.string() << "/<group>/<dataset>/<key>/: input/ and expected/ as .npy\n";
  for (const auto& line : choice.left_out) out << "left out: " << line << "\n";
  return kExitOk;
}

}  // namespace gpulab
