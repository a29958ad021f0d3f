#include "bench/bench_record.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

namespace gpulab {

nlohmann::json to_json(const SweepRecord& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows)
    rows.push_back({{"value", row.value},
                    {"part", row.part},
                    {"median_ms", row.median_ms},
                    {"rel_se", row.rel_se},
                    {"per_s", row.per_s}});
  return {{"lab", r.lab},
          {"sweep", r.sweep},
          {"device", r.device},
          {"date", r.date},
          {"work_unit", r.work_unit},
          {"ceiling_per_s", r.ceiling_per_s},
          {"command", sweep_record_command(r.lab, r.sweep)},
          {"rows", rows}};
}

SweepRecord read_sweep_record(const std::filesystem::path& file, const LabConfig& lab,
                              const BenchSweep& sweep) {
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error(file.string() + ": " + why + "; record it again on a GPU with `" +
                             sweep_record_command(lab.id, sweep.name) + "`");
  };
  std::ifstream in(file, std::ios::binary);
  if (!in) fail("cannot be read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
    SweepRecord r{j.at("lab").get<std::string>(),
                  j.at("sweep").get<std::string>(),
                  j.at("device").get<std::string>(),
                  j.at("date").get<std::string>(),
                  j.at("work_unit").get<std::string>(),
                  j.at("ceiling_per_s").get<double>(),
                  {}};
    if (r.lab != lab.id || r.sweep != sweep.name)
      fail("holds the sweep " + r.lab + "/" + r.sweep + ", not " + lab.id + "/" + sweep.name);
    std::set<std::pair<long long, std::string>> seen;
    for (const auto& row : j.at("rows")) {
      SweepRow s{row.at("value").get<long long>(), row.at("part").get<std::string>(),
                 row.at("median_ms").get<double>(), row.at("rel_se").get<double>(),
                 row.at("per_s").get<double>()};
      const std::string what = s.part + " at " + std::to_string(s.value);
      if (std::find(sweep.values.begin(), sweep.values.end(), s.value) == sweep.values.end() ||
          std::find(sweep.parts.begin(), sweep.parts.end(), s.part) == sweep.parts.end())
        fail("has a row for " + what + ", which lab.json's sweep does not measure");
      if (!(s.median_ms > 0) || !(s.per_s > 0) || !std::isfinite(s.median_ms) ||
          !std::isfinite(s.per_s))
        fail("the row for " + what + " is not a positive time and rate");
      if (!seen.insert({s.value, s.part}).second) fail("has two rows for " + what);
      r.rows.push_back(s);
    }
    if (seen.size() != sweep.values.size() * sweep.parts.size())
      fail("lacks rows: lab.json's sweep measures " + std::to_string(sweep.parts.size()) +
           " part(s) at " + std::to_string(sweep.values.size()) + " values");
    return r;
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("is not a sweep record: ") + e.what());
  }
  return {};
}

std::filesystem::path sweep_record_path(const Paths& paths, const std::string& lab,
                                        const std::string& sweep) {
  return paths.source / "docs" / "bench" / lab / (sweep + ".json");
}

std::string sweep_record_command(const std::string& lab, const std::string& sweep) {
  return "build/gpulab bench " + lab + " --sweep " + sweep + " --json docs/bench/" + lab + "/" +
         sweep + ".json";
}

}  // namespace gpulab
