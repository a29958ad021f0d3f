#include "lab/bench_sweep_spec.h"

#include <algorithm>

#include "lab/lab_config.h"
#include "lab/lab_json_reader.h"

namespace gpulab {

namespace {

// One sweep, which the schema checked key by key; here what only the lab can tell: its parts,
// its dataset's parameters, the order of its values.
BenchSweep parse_one(const nlohmann::json& j, const std::string& where, const LabConfig& lab,
                     const LabJsonReader& r) {
  BenchSweep s;
  s.name = j.at("name").get<std::string>();
  s.title = j.at("title").get<std::string>();
  s.axis = j.at("axis").get<std::string>();
  s.dataset = j.at("dataset").get<std::string>();
  s.parts = j.at("parts").get<std::vector<std::string>>();
  const DatasetSpec* ds = nullptr;
  for (const auto& p : s.parts) {
    if (!lab.part(p)) r.fail(where + ".parts", "no part named \"" + p + "\"");
    ds = lab.timing_dataset(s.dataset, p);
    if (!ds)
      r.fail(where + ".dataset",
             "\"" + s.dataset + "\" is not a timing dataset of part \"" + p + "\"");
  }
  s.params = j.value("params", s.params);
  for (const auto& [key, value] : s.params.items())
    if (!ds->params.contains(key))
      r.fail(where + ".params",
             "\"" + key + "\" is not a parameter of dataset \"" + s.dataset + "\"");
  s.param = j.value("param", s.param);
  s.define = j.value("define", s.define);
  if (!s.param.empty()) {
    if (!ds->params.contains(s.param))
      r.fail(where + ".param",
             "\"" + s.param + "\" is not a parameter of dataset \"" + s.dataset + "\"");
    if (s.params.contains(s.param))
      r.fail(where + ".params", "sets \"" + s.param + "\", the parameter the sweep varies");
  }
  for (const auto& v : j.at("values")) {
    if (!s.values.empty() && v.get<long long>() <= s.values.back())
      r.fail(where + ".values", "must increase");
    s.values.push_back(v.get<long long>());
  }
  return s;
}

}  // namespace

nlohmann::json BenchSweep::params_at(const nlohmann::json& dataset_params, long long value) const {
  nlohmann::json p = dataset_params;
  for (const auto& [key, v] : params.items()) p[key] = v;
  if (!param.empty()) p[param] = value;
  return p;
}

std::vector<BenchSweep> parse_bench_sweeps(const nlohmann::json& sweeps, const LabConfig& lab,
                                           const LabJsonReader& r) {
  std::vector<BenchSweep> out;
  for (size_t i = 0; i < sweeps.size(); ++i) {
    const std::string where = "bench_sweeps[" + std::to_string(i) + "]";
    BenchSweep s = parse_one(sweeps[i], where, lab, r);
    for (const auto& o : out)
      if (o.name == s.name) r.fail(where + ".name", "\"" + s.name + "\" appears twice");
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpulab
