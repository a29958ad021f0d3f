#include "lab/bench_sweep_spec.h"

#include <algorithm>
#include <cctype>

#include "lab/lab_config.h"
#include "lab/lab_json_reader.h"
#include "lab/lab_schema.h"

namespace gpulab {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  });
}

BenchSweep parse_one(const nlohmann::json& j, const std::string& where, const LabConfig& lab,
                     const LabJsonReader& r) {
  r.only_keys(j, where, schema_keys("/properties/bench_sweeps/items"));
  BenchSweep s;
  s.name = r.str(j, "name", where);
  const bool plain = !s.name.empty() && std::all_of(s.name.begin(), s.name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-';
  });
  if (!plain)
    r.fail(where + ".name", "\"" + s.name + "\" must be a plain name: letters, digits, -");
  s.title = r.str(j, "title", where);
  s.axis = r.str(j, "axis", where);
  s.dataset = r.str(j, "dataset", where);
  s.parts = r.strings(r.field(j, "parts", where), where + ".parts");
  if (s.parts.empty()) r.fail(where + ".parts", "must name at least one part");
  const DatasetSpec* ds = nullptr;
  for (const auto& p : s.parts) {
    if (!lab.part(p)) r.fail(where + ".parts", "no part named \"" + p + "\"");
    ds = lab.timing_dataset(s.dataset, p);
    if (!ds)
      r.fail(where + ".dataset",
             "\"" + s.dataset + "\" is not a timing dataset of part \"" + p + "\"");
  }
  if (j.contains("param") == j.contains("define"))
    r.fail(where, "needs exactly one of \"param\" (a dataset parameter) and \"define\" (a macro)");
  if (j.contains("params")) {
    s.params = j["params"];
    if (!s.params.is_object()) r.fail(where + ".params", "must be an object");
    for (const auto& [key, value] : s.params.items())
      if (!ds->params.contains(key))
        r.fail(where + ".params",
               "\"" + key + "\" is not a parameter of dataset \"" + s.dataset + "\"");
  }
  if (j.contains("param")) {
    s.param = r.str(j, "param", where);
    if (!ds->params.contains(s.param))
      r.fail(where + ".param",
             "\"" + s.param + "\" is not a parameter of dataset \"" + s.dataset + "\"");
    if (s.params.contains(s.param))
      r.fail(where + ".params", "sets \"" + s.param + "\", the parameter the sweep varies");
  } else {
    s.define = r.str(j, "define", where);
    if (!is_identifier(s.define))
      r.fail(where + ".define", "\"" + s.define + "\" is not a C identifier");
  }
  const auto& values = r.field(j, "values", where);
  if (!values.is_array() || values.size() < 2)
    r.fail(where + ".values", "must be an array of at least two integers");
  for (const auto& v : values) {
    if (!v.is_number_integer() || v.get<long long>() < 1)
      r.fail(where + ".values", "must be integers >= 1");
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
  if (!sweeps.is_array() || sweeps.empty()) r.fail("bench_sweeps", "must be a non-empty array");
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
