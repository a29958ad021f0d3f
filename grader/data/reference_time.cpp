#include "data/reference_time.h"

#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "files/atomic_file.h"
#include "files/file_lock.h"
#include "files/regular_file.h"

namespace gpulab {

namespace {

// No plausible CPU time is this long: a file that says so was not written by gpulab.
constexpr double kMostPlausibleS = 7 * 24 * 3600;

bool plausible(double s) {
  return std::isfinite(s) && s > 0 && s < kMostPlausibleS;
}

// Letters, digits, '.', '_' and '-' only: a part's name and flags in a file name.
std::string file_safe(const std::string& s) {
  std::string out;
  for (const char c : s)
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  return out;
}

// A small JSON file of gpulab's own (a dataset's meta.json, a kept time) read on a budget
// (regular_file.h), or null.
nlohmann::json read_json(const std::filesystem::path& file) {
  const std::optional<std::string> text = read_regular_file(file, std::uintmax_t{1} << 20);
  if (!text) return nullptr;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

// Where the time for `run` on `d` is kept, and what the file must say it is for.
struct KeptTimes {
  std::filesystem::path file;
  nlohmann::json key;

  KeptTimes(const DatasetDirs& d, const ReferenceRun& run) {
    const nlohmann::json dataset = read_json(d.input / "meta.json");
    if (dataset.is_null())
      throw std::runtime_error("the dataset " + d.name + " has no readable " +
                               (d.input / "meta.json").string());
    key = {{"dataset", dataset},
           {"part", run.part},
           {"flags", run.flags},
           {"reference", run.reference}};
    std::string name = run.part;
    for (const auto& flag : run.flags) name += flag;
    const std::string build = run.reference.substr(run.reference.find(':') + 1);
    file = notes_dir(d) / file_safe("reference-cpu-time." + name + "." + build + ".json");
  }

  std::optional<double> read() const {
    const nlohmann::json j = read_json(file);
    if (!j.is_object() || j.value("key", nlohmann::json()) != key) return std::nullopt;
    const auto s = j.find("cpu_s");
    if (s == j.end() || !s->is_number() || !plausible(s->get<double>())) return std::nullopt;
    return s->get<double>();
  }
};

}  // namespace

std::optional<double> kept_reference_cpu_time(const DatasetDirs& d, const ReferenceRun& run) {
  return KeptTimes(d, run).read();
}

double reference_cpu_time(const DatasetDirs& d, const ReferenceRun& run,
                          const std::function<double()>& measure) {
  const KeptTimes kept(d, run);
  if (const auto s = kept.read()) return *s;
  const FileLock lock(kept.file.string() + ".lock");
  if (const auto s = kept.read()) return *s;  // measured by another grader while this one waited
  const double s = measure();
  if (!plausible(s))
    throw std::runtime_error("the reference's CPU time on " + d.name + " measured " +
                             std::to_string(s) + " s, which cannot be right");
  write_file_atomically(kept.file, nlohmann::json{{"key", kept.key}, {"cpu_s", s}}.dump(2) + "\n");
  return s;
}

}  // namespace gpulab
