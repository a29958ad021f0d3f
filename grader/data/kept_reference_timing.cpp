#include "data/kept_reference_timing.h"

#include <cmath>
#include <ctime>
#include <stdexcept>

#include "files/atomic_file.h"
#include "files/regular_file.h"
#include "files/secret.h"

namespace gpulab {

namespace {

// A kept file holds a key and a few dozen numbers: anything larger was not written by gpulab.
constexpr std::uintmax_t kMostBytes = 1 << 20;
// No timed round of a reference takes a day.
constexpr double kMostPlausibleMs = 24 * 3600 * 1e3;

bool plausible_ms(double ms) {
  return std::isfinite(ms) && ms > 0 && ms < kMostPlausibleMs;
}

// One file per key: the key's digest names it, and the file repeats the key, which must match.
std::filesystem::path kept_file(const DatasetDirs& d, const nlohmann::json& key) {
  return notes_dir(d) / ("reference-timing." + sha256(key.dump()).substr(0, 24) + ".json");
}

std::string now_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::optional<KeptReferenceTiming> kept_reference_timing(const DatasetDirs& d,
                                                         const nlohmann::json& key) {
  const auto text = read_regular_file(kept_file(d, key), kMostBytes);
  if (!text) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object() || j.value("key", nlohmann::json()) != key) return std::nullopt;
  const auto rounds = j.find("round_ms");
  const auto work = j.find("work");
  if (rounds == j.end() || !rounds->is_array() || rounds->empty() || work == j.end() ||
      !work->is_number())
    return std::nullopt;
  KeptReferenceTiming t;
  for (const auto& ms : *rounds) {
    if (!ms.is_number() || !plausible_ms(ms.get<double>())) return std::nullopt;
    t.round_ms.push_back(ms.get<double>());
  }
  t.work = work->get<double>();
  if (const auto at = j.find("measured"); at != j.end() && at->is_string()) t.measured = *at;
  return t;
}

void keep_reference_timing(const DatasetDirs& d, const nlohmann::json& key, KeptReferenceTiming t) {
  if (t.round_ms.empty())
    throw std::runtime_error("no timed round of the reference to keep on " + d.name);
  for (const double ms : t.round_ms)
    if (!plausible_ms(ms))
      throw std::runtime_error("the reference's time on " + d.name + " measured " +
                               std::to_string(ms) + " ms, which cannot be right");
  if (t.measured.empty()) t.measured = now_utc();
  const nlohmann::json j = {
      {"key", key}, {"round_ms", t.round_ms}, {"work", t.work}, {"measured", t.measured}};
  write_file_atomically(kept_file(d, key), j.dump(2) + "\n");
}

}  // namespace gpulab
