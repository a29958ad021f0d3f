#include "data/check.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "compare.h"
#include "lab/output_order.h"
#include "npy.h"
#include "os/side_by_side.h"
#include "runner_flags.h"
#include "sample_protocol.h"

namespace gpulab {

namespace {

// What a sum_magnitude tolerance reads beside the expected output: the magnitudes, the
// tolerance, and the per-element arrays its bound takes (mapped, kept here).
struct SumMagnitudeInputs {
  NpyArray magnitude, terms, position, heads;
  SumMagnitudeTolerance tol;
  bool prefix = false;

  PerElementBound per_element() const {
    PerElementBound p;
    p.prefix = prefix;
    if (terms.mapped()) p.terms = terms.as<double>();
    if (position.mapped()) p.position = position.as<double>();
    if (heads.mapped()) p.heads = heads.as<uint8_t>();
    return p;
  }
};

// The inputs of the bound of `spec`'s output on `ds`, whose expected output is `expected`;
// throws std::runtime_error where the dataset lacks one, or one has another shape.
SumMagnitudeInputs sum_magnitude_inputs(const OutputSpec& spec, const nlohmann::json& params,
                                        const DatasetDirs& ds, const NpyArray& expected) {
  SumMagnitudeInputs in;
  in.magnitude = map_npy(ds.expected / (spec.name + "_magnitude.npy"), DType::f64);
  in.tol.K = spec.tolerance.K;
  in.tol.unit_roundoff = spec.tolerance.unit_roundoff;
  // A per-element array the oracle wrote beside the expected output, of the same shape.
  auto beside = [&](const std::string& name) {
    const auto file = ds.expected / (name + ".npy");
    NpyArray a = map_npy(file, DType::f64);
    if (a.shape != expected.shape)
      throw std::runtime_error(file.string() + " has shape " + a.shape_string() + ", not " +
                               expected.shape_string() + " like the expected output");
    return a;
  };
  if (spec.tolerance.position) in.position = beside(spec.name + "_position");
  if (spec.tolerance.terms_constant > 0) {
    in.tol.n_terms = spec.tolerance.terms_constant;
  } else if (spec.tolerance.prefix_terms()) {
    in.prefix = true;
    if (!spec.tolerance.heads.empty()) {  // an input array: the flags a segmented scan reads
      const auto file = ds.input / (spec.tolerance.heads + ".npy");
      in.heads = map_npy(file, DType::u8);
      if (in.heads.shape != expected.shape)
        throw std::runtime_error(file.string() + " has shape " + in.heads.shape_string() +
                                 ", not " + expected.shape_string() + " like the expected output");
    }
  } else if (spec.tolerance.per_element_terms()) {
    in.terms = beside(spec.tolerance.terms_file());
  } else if (!params.contains(spec.tolerance.terms) ||
             !params.at(spec.tolerance.terms).is_number()) {
    throw std::runtime_error("the tolerance of " + spec.name +
                             " counts its terms with the "
                             "dataset parameter \"" +
                             spec.tolerance.terms +
                             "\", which this dataset does not have as a number");
  } else {
    in.tol.n_terms = params.at(spec.tolerance.terms).get<double>();
  }
  return in;
}

// Compares the run's output `file`; `shape` receives the expected shape, for the message's
// indices.
CompareResult check_one(const OutputSpec& spec, const nlohmann::json& params,
                        const SealedOutputs& outputs, const std::string& file,
                        const DatasetDirs& ds, std::vector<size_t>& shape) {
  CompareResult r;
  const bool ints = spec.dtype == "int32";  // compared exactly, or as sets
  // The grader's own files (its dataset cache), trusted and large: mapped, not copied (npy.h).
  const NpyArray expected =
      map_npy(ds.expected / (spec.name + ".npy"), ints ? DType::i32 : DType::f64);
  shape = expected.shape;
  NpyArray got;
  try {
    got = outputs.read_npy(file, ints ? DType::i32 : DType::f32);
  } catch (const NpyError& e) {
    r.problem = std::string("the runner's output is unusable: ") + e.what();
    return r;
  }
  if (got.shape != expected.shape) {
    r.problem =
        "has shape " + got.shape_string() + " but " + expected.shape_string() + " was expected";
    return r;
  }
  if (spec.tolerance.segment_sets()) {
    const NpyArray starts = map_npy(ds.expected / (spec.tolerance.starts + ".npy"), DType::i32);
    const NpyArray counts = map_npy(ds.expected / (spec.tolerance.counts + ".npy"), DType::i32);
    if (starts.count() != counts.count())
      throw std::runtime_error("the expected " + spec.tolerance.starts + " and " +
                               spec.tolerance.counts + " of " + spec.name + " differ in length: " +
                               starts.shape_string() + " and " + counts.shape_string());
    SegmentNames names;
    names.noun = spec.tolerance.segment_noun;
    for (const auto& key : spec.tolerance.segment_shape) {
      if (!params.contains(key) || !params.at(key).is_number_integer() ||
          params.at(key).get<long long>() < 1)
        throw std::runtime_error("the tolerance of " + spec.name + " names its segments by " +
                                 "the dataset parameter \"" + key +
                                 "\", which this dataset does not have as an integer >= 1");
      names.shape.push_back(params.at(key).get<size_t>());
    }
    return compare_segment_sets(got.as<int32_t>(), expected.as<int32_t>(), got.count(),
                                starts.as<int32_t>(), counts.as<int32_t>(), starts.count(), names);
  }
  if (ints) return compare_exact(got.as<int32_t>(), expected.as<int32_t>(), got.count());
  const SumMagnitudeInputs in = sum_magnitude_inputs(spec, params, ds, expected);
  return compare_sum_magnitude(got.as<float>(), expected.as<double>(), in.magnitude.as<double>(),
                               got.count(), in.tol, in.per_element());
}

// The dataset's parameters, from its meta.json (tolerances count their terms with them).
nlohmann::json dataset_params(const DatasetDirs& ds) {
  std::ifstream meta_in(ds.input / "meta.json");
  return nlohmann::json::parse(meta_in).at("params");
}

}  // namespace

std::vector<double> element_bounds(const OutputSpec& spec, const DatasetDirs& ds) {
  if (spec.dtype != "float32" || spec.tolerance.model != "sum_magnitude")
    throw std::invalid_argument(spec.name + " has no per-element bound (not a float32 output " +
                                "under the sum_magnitude tolerance)");
  const NpyArray expected = map_npy(ds.expected / (spec.name + ".npy"), DType::f64);
  const SumMagnitudeInputs in = sum_magnitude_inputs(spec, dataset_params(ds), ds, expected);
  return sum_magnitude_bounds(in.magnitude.as<double>(), expected.count(), in.tol,
                              in.per_element());
}

CheckResult check_outputs(const LabConfig& lab, const PartSpec& part, const DatasetDirs& ds,
                          const SealedOutputs& got, bool timed, bool repeated) {
  CheckResult c;
  c.pass = true;
  // The second call's outputs: all right, all readable; the first call's (and timed ones).
  bool second_ok = true, second_readable = true, others_ok = true;
  const nlohmann::json params = dataset_params(ds);
  struct Checked {
    std::string name, file;
    CompareResult r;
    std::vector<size_t> shape;
  };
  std::vector<Checked> checks;
  for (const auto& name : data_flow_order(lab, part)) {
    checks.push_back({name, name, {}, {}});
    if (timed) checks.push_back({name, "timed_" + name, {}, {}});
    if (repeated) checks.push_back({name, kRepeatPrefix + name, {}, {}});
  }
  // Side by side: each reads and compares arrays of up to hundreds of MB.
  side_by_side(checks.size(), [&](size_t i) {
    Checked& k = checks[i];
    k.r = check_one(lab.outputs.at(k.name), params, got, k.file, ds, k.shape);
  });
  // The wrong outputs told first, in data-flow order (output_order.h), then the right ones.
  std::stable_partition(checks.begin(), checks.end(),
                        [](const Checked& k) { return !(k.r.pass && k.r.problem.empty()); });
  for (const auto& [name, file, r, shape] : checks) {
    const bool second_call = repeated && file == kRepeatPrefix + name;
    const std::string label = file == name  ? name
                              : second_call ? name + " (from a second call)"
                                            : name + " (from a timed run)";
    if (!c.message.empty()) c.message += "\n";
    c.message += r.message(label, shape);
    const bool ok = r.pass && r.problem.empty();
    c.pass = c.pass && ok;
    if (second_call) {
      second_ok = second_ok && ok;
      second_readable = second_readable && r.problem.empty();
    } else {
      others_ok = others_ok && ok;
    }
    if (!r.problem.empty()) c.max_err_over_bound = INFINITY;
    c.max_err_over_bound = std::max(c.max_err_over_bound, r.max_err_over_bound);
  }
  c.state_leak = others_ok && !second_ok && second_readable;
  if (c.state_leak)
    c.message +=
        "\nThe first call gave the right outputs but a second call in the same process gave "
        "wrong ones: does your code keep state (a static or global variable, a buffer not "
        "cleared) from one call to the next? Every call must give the right outputs.";
  return c;
}

std::string outputs_left_by_failure(const LabConfig& lab, const PartSpec& part,
                                    const DatasetDirs& ds, const SealedOutputs& got) {
  const nlohmann::json params = dataset_params(ds);
  std::string m;
  for (const auto& name : data_flow_order(lab, part)) {
    if (!got.has(name)) continue;
    std::vector<size_t> shape;
    const CompareResult r = check_one(lab.outputs.at(name), params, got, name, ds, shape);
    // Right, unreadable, or never written at all (a kernel the failure kept from running).
    if (r.pass || !r.problem.empty() || r.n_unwritten == r.count) continue;
    m += "\n" + r.message(name, shape);
  }
  return m.empty() ? m : "Where your code's kernels had left its outputs when it failed:" + m;
}

CheckResult check_sample_outputs(const LabConfig& lab, const PartSpec& part,
                                 const std::vector<DatasetDirs>& samples,
                                 const SealedOutputs& got) {
  CheckResult c;
  c.pass = true;
  // Each sample's first wrong output (or none), checked side by side, then told in order.
  struct Checked {
    std::string name;
    CompareResult r;
    std::vector<size_t> shape;
    bool wrong = false;
    double max_err_over_bound = 0;  // over the outputs checked
  };
  std::vector<Checked> checks(samples.size());
  side_by_side(samples.size(), [&](size_t i) {
    const int k = static_cast<int>(i) + 1;
    const nlohmann::json params = dataset_params(samples[i]);
    for (const auto& name : data_flow_order(lab, part)) {
      Checked& s = checks[i];
      s.name = name;
      s.r = check_one(lab.outputs.at(name), params, got, sample_output_prefix(k) + name, samples[i],
                      s.shape);
      s.max_err_over_bound =
          std::max(s.max_err_over_bound, s.r.problem.empty() ? s.r.max_err_over_bound : INFINITY);
      s.wrong = !(s.r.pass && s.r.problem.empty());
      if (s.wrong) return;
    }
  });
  int failed = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    const Checked& s = checks[i];
    c.max_err_over_bound = std::max(c.max_err_over_bound, s.max_err_over_bound);
    if (!s.wrong) continue;
    c.pass = false;
    if (++failed <= 3)  // the first few are enough to see the pattern
      c.message += (c.message.empty() ? "" : "\n") + std::string("timed sample ") +
                   std::to_string(i + 1) + " of " + std::to_string(samples.size()) + ": " +
                   s.r.message(s.name, s.shape);
  }
  if (failed > 3) c.message += "\n... and " + std::to_string(failed - 3) + " more samples";
  return c;
}

}  // namespace gpulab
