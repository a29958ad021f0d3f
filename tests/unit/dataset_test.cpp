// grader/data/dataset_store.h, datasets/registry.h and the scatter-gather generator: the
// inputs are deterministic and contain the promised edge cases, the oracle is right, and the
// cache keeps one entry per dataset identity (secret included), never rewritten.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "data/dataset_store.h"
#include "files/secret.h"
#include "npy.h"
#include "registry.h"
#include "test_util.h"

namespace {

using gpulab::DatasetGenerator;
using gpulab::NpyArray;
using nlohmann::json;
using test::contains;
namespace fs = std::filesystem;

const DatasetGenerator& generator() {
  const DatasetGenerator* g = gpulab::find_generator("scatter-gather");
  REQUIRE(g != nullptr);
  return *g;
}

json params(int nx, int ny, int nz, int n_atoms, double h, const std::string& dominant = "") {
  json p = {{"nx", nx}, {"ny", ny}, {"nz", nz}, {"n_atoms", n_atoms}, {"h", h}};
  if (!dominant.empty()) p["dominant"] = dominant;
  return p;
}

// Generates into dir, with the meta.json that materialize() would write (the oracle reads its
// params from there).
fs::path generate(const json& p, uint64_t seed, const fs::path& dir) {
  fs::create_directories(dir);
  test::write_file(dir / "meta.json", json({{"params", p}}).dump());
  generator().generate(p, seed, dir);
  return dir;
}

struct Atom {
  float x, y, z, q;
};

std::vector<Atom> read_atoms(const fs::path& dir, size_t n_atoms) {
  const NpyArray a = gpulab::read_npy(dir / "atoms.npy", gpulab::DType::f32);
  REQUIRE(a.shape == std::vector<size_t>{n_atoms, 4});
  std::vector<Atom> atoms(n_atoms);
  std::memcpy(atoms.data(), a.bytes.data(), a.bytes.size());
  return atoms;
}

// The message of the std::invalid_argument generating with these params throws.
std::string invalid_params_error(const json& p) {
  test::TempDir tmp;
  try {
    generator().generate(p, 1, tmp.path());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("generating with " << p.dump() << " did not throw std::invalid_argument");
  return {};
}

gpulab::LabConfig real_lab() {
  return gpulab::LabConfig::load(test::source_dir() / "labs" / "scatter-gather" / "lab.json");
}

}  // namespace

TEST_CASE("the scatter-gather generator is registered") {
  CHECK(gpulab::find_generator("scatter-gather") != nullptr);
  CHECK(gpulab::find_generator("no-such-lab") == nullptr);
  CHECK(generator().version() >= 1);
}

TEST_CASE("generation is deterministic in (params, seed)") {
  test::TempDir tmp;
  const json p = params(9, 7, 5, 64, 0.5);
  const auto a = test::read_file(generate(p, 42, tmp / "a") / "atoms.npy");
  const auto b = test::read_file(generate(p, 42, tmp / "b") / "atoms.npy");
  const auto c = test::read_file(generate(p, 43, tmp / "c") / "atoms.npy");
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("atoms keep 0.1 h from the lattice, straddle the box and carry both signs") {
  test::TempDir tmp;
  // Enough atoms that some land within a few percent of the 0.1 h limit, so a generator that
  // kept a smaller distance would be caught.
  const int nx = 9, ny = 7, nz = 5, n_atoms = 20000;
  const float h = 0.35f;  // not a binary fraction, so float lattice coordinates are rounded
  const auto atoms = read_atoms(generate(params(nx, ny, nz, n_atoms, h), 7, tmp.path()), n_atoms);

  double closest = INFINITY;
  float max_charge = 0;
  bool outside_box = false, in_widened_box = true, positive = false, negative = false;
  for (const Atom& a : atoms) {
    // Brute force over every lattice point, at the float32 coordinates students compute.
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const double dx = double(float(i) * h) - a.x, dy = double(float(j) * h) - a.y,
                       dz = double(float(k) * h) - a.z;
          closest = std::min(closest, std::sqrt(dx * dx + dy * dy + dz * dz));
        }
    const float box[3] = {(nx - 1) * h, (ny - 1) * h, (nz - 1) * h};
    const float c[3] = {a.x, a.y, a.z};
    for (int ax = 0; ax < 3; ++ax) {
      outside_box |= c[ax] < 0 || c[ax] > box[ax];
      // The generator draws from the box widened by 2h on every side.
      in_widened_box &= c[ax] >= -2 * h * 1.0001f && c[ax] <= box[ax] + 2 * h * 1.0001f;
    }
    positive |= a.q > 0;
    negative |= a.q < 0;
    max_charge = std::max(max_charge, std::fabs(a.q));
  }
  // The generator tests the distance in float32; allow for its rounding and no more.
  CHECK(closest >= 0.1 * h * (1 - 1e-5));
  CHECK(outside_box);
  CHECK(in_widened_box);
  CHECK(max_charge <= 1.0f);  // no dominant atom was asked for
  CHECK(positive);
  CHECK(negative);
}

TEST_CASE("one dominant atom sits first, last or at a power-of-two boundary") {
  test::TempDir tmp;
  struct Case {
    std::string where;
    int n_atoms, index;
  };
  for (const Case& c : {Case{"first", 300, 0}, Case{"last", 300, 299},
                        Case{"block-boundary", 300, 256}, Case{"block-boundary", 257, 256},
                        Case{"block-boundary", 256, 128}, Case{"block-boundary", 2, 1}}) {
    CAPTURE(c.where);
    CAPTURE(c.n_atoms);
    const fs::path dir = tmp / (c.where + std::to_string(c.n_atoms));
    const auto atoms = read_atoms(generate(params(6, 5, 2, c.n_atoms, 0.5, c.where), 3, dir),
                                  static_cast<size_t>(c.n_atoms));
    for (int a = 0; a < c.n_atoms; ++a) {
      if (a == c.index)
        CHECK(std::fabs(atoms[a].q) == 40.0f);
      else if (std::fabs(atoms[a].q) > 1.0f)
        FAIL_CHECK("atom " << a << " has charge " << atoms[a].q);
    }
  }
}

TEST_CASE("the oracle matches a brute-force fp64 sum") {
  test::TempDir tmp;
  // h*i rounds in float32 for several i, so an oracle that used the fp64 product would differ.
  const int nx = 9, ny = 4, nz = 3, n_atoms = 23;
  const float h = 0.3f;
  const fs::path input = generate(params(nx, ny, nz, n_atoms, h, "last"), 11, tmp / "input");
  fs::create_directories(tmp / "expected");
  generator().oracle(input, tmp / "expected");

  const auto atoms = read_atoms(input, n_atoms);
  const NpyArray v = gpulab::read_npy(tmp / "expected" / "potential.npy", gpulab::DType::f64);
  const NpyArray m =
      gpulab::read_npy(tmp / "expected" / "potential_magnitude.npy", gpulab::DType::f64);
  const std::vector<size_t> shape = {size_t(nz), size_t(ny), size_t(nx)};
  REQUIRE(v.shape == shape);
  REQUIRE(m.shape == shape);

  size_t at = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i, ++at) {
        double sum = 0, magnitude = 0;
        for (const Atom& a : atoms) {
          const double dx = double(float(i) * h) - a.x, dy = double(float(j) * h) - a.y,
                       dz = double(float(k) * h) - a.z;
          const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
          sum += a.q / r;
          magnitude += std::fabs(a.q) / r;
        }
        CAPTURE(at);
        // The potential may cancel to near zero, so its error is measured against the
        // magnitude, the scale its rounding follows.
        CHECK(std::fabs(v.as<double>()[at] - sum) <= 1e-12 * magnitude);
        CHECK(std::fabs(m.as<double>()[at] - magnitude) <= 1e-12 * magnitude);
        CHECK(m.as<double>()[at] >= std::fabs(v.as<double>()[at]));
      }
}

TEST_CASE("invalid parameters throw std::invalid_argument naming the parameter") {
  std::string msg = invalid_params_error(params(0, 4, 4, 10, 0.5));
  CHECK(contains(msg, "\"nx\""));
  msg = invalid_params_error(params(4, 4, 4, 10, -1));
  CHECK(contains(msg, "\"h\""));
  msg = invalid_params_error(params(4, 4, 4, 10, 0.5, "middle"));
  CHECK(contains(msg, "\"dominant\""));
  json p = params(4, 4, 4, 10, 0.5);
  p.erase("n_atoms");
  msg = invalid_params_error(p);
  CHECK(contains(msg, "\"n_atoms\""));
}

TEST_CASE("materialize reuses an entry and makes a changed dataset an entry of its own") {
  test::TempDir root;
  const gpulab::LabConfig lab = real_lab();
  const gpulab::GroupSpec& group = lab.groups.at(0);
  REQUIRE(group.name == "public");
  const gpulab::DatasetSpec& tiny = group.datasets.at(0);
  REQUIRE(tiny.name == "tiny");

  const gpulab::DatasetDirs d = gpulab::materialize(lab, group, tiny, "secret", root.path());
  CHECK(d.group == "public");
  CHECK(d.name == "tiny");
  CHECK_FALSE(d.hidden);
  // root/<group>/<name>/<the SHA-256 of its identity>/input
  const fs::path entry = d.input.parent_path();
  CHECK(entry.parent_path() == root / "public" / "tiny");
  CHECK(entry.filename().string().size() == 64);
  CHECK(d.input == entry / "input");
  CHECK(d.expected == entry / "expected");
  CHECK(fs::exists(d.input / "atoms.npy"));
  CHECK(fs::exists(d.input / "meta.json"));
  CHECK(fs::exists(d.expected / "potential.npy"));
  CHECK(fs::exists(d.expected / "potential_magnitude.npy"));
  CHECK_FALSE(fs::exists(d.input / "potential.npy"));  // a runner never sees the answers

  // A marker next to the cached files survives only if the dataset is not rebuilt.
  const fs::path marker = d.input.parent_path() / "marker";
  test::write_file(marker, "kept");
  const auto mtime = fs::last_write_time(d.input / "atoms.npy");
  const gpulab::DatasetDirs again = gpulab::materialize(lab, group, tiny, "secret", root.path());
  CHECK(again.input == d.input);
  CHECK(fs::last_write_time(again.input / "atoms.npy") == mtime);
  CHECK(fs::exists(marker));
  // A public dataset's identity holds no secret: every grader shares its entry.
  CHECK(gpulab::materialize(lab, group, tiny, "another secret", root.path()).input == d.input);

  // Changed parameters are another dataset, in an entry of its own; the old one stays as it was
  // for whoever reads it.
  gpulab::DatasetSpec changed = tiny;
  changed.params["nx"] = 3;
  const gpulab::DatasetDirs rebuilt =
      gpulab::materialize(lab, group, changed, "secret", root.path());
  CHECK(rebuilt.input != d.input);
  CHECK(fs::exists(marker));
  CHECK(fs::last_write_time(d.input / "atoms.npy") == mtime);
  const json meta = json::parse(test::read_file(rebuilt.input / "meta.json"));
  CHECK(meta["params"]["nx"] == 3);
  CHECK(gpulab::read_npy(rebuilt.expected / "potential.npy").shape == std::vector<size_t>{1, 1, 3});

  // Only the two entries are left: no half-built temporary directories.
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(root / "public" / "tiny")) entries += e.exists();
  CHECK(entries == 2);
}

TEST_CASE("the meta.json a run reads holds no seed") {
  test::TempDir root;
  const gpulab::LabConfig lab = real_lab();
  const gpulab::GroupSpec& hidden = lab.groups.at(1);
  REQUIRE(hidden.hidden);
  const gpulab::DatasetSpec& ds = hidden.datasets.at(0);
  const gpulab::DatasetDirs d = gpulab::materialize(lab, hidden, ds, "secret", root.path());
  const json meta = json::parse(test::read_file(d.input / "meta.json"));
  CHECK_FALSE(meta.contains("seed"));
  CHECK(meta.at("name") == ds.name);
  CHECK(meta.at("params") == ds.params);
  // Nor does any other file beside the inputs: the entry holds input/ and expected/ alone.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(d.input.parent_path()))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"expected", "input"});
  for (const auto& e : fs::directory_iterator(d.input))
    CHECK_FALSE(
        contains(test::read_file(e.path()), std::to_string(gpulab::dataset_seed(ds, "secret"))));
}

TEST_CASE("hidden datasets of different secrets never share a cache entry") {
  test::TempDir root;
  const gpulab::LabConfig lab = real_lab();
  const gpulab::GroupSpec& hidden = lab.groups.at(1);
  const gpulab::DatasetSpec& ds = hidden.datasets.at(0);
  const gpulab::DatasetDirs a = gpulab::materialize(lab, hidden, ds, "secret A", root.path());
  const std::string atoms_a = test::read_file(a.input / "atoms.npy");
  const std::string expected_a = test::read_file(a.expected / "potential.npy");
  const auto mtime = fs::last_write_time(a.input / "atoms.npy");

  // A second grader with another secret makes an entry of its own and leaves the first as it
  // was, so a grade reading it meanwhile reads the datasets it started with.
  const gpulab::DatasetDirs b = gpulab::materialize(lab, hidden, ds, "secret B", root.path());
  CHECK(b.input != a.input);
  CHECK(test::read_file(b.input / "atoms.npy") != atoms_a);
  CHECK(test::read_file(a.input / "atoms.npy") == atoms_a);
  CHECK(test::read_file(a.expected / "potential.npy") == expected_a);
  CHECK(fs::last_write_time(a.input / "atoms.npy") == mtime);

  // The first secret finds its own entry again, untouched.
  const gpulab::DatasetDirs again = gpulab::materialize(lab, hidden, ds, "secret A", root.path());
  CHECK(again.input == a.input);
  CHECK(fs::last_write_time(again.input / "atoms.npy") == mtime);
}

TEST_CASE("an entry changed by hand is refused, not replaced under its readers") {
  test::TempDir root;
  const gpulab::LabConfig lab = real_lab();
  const gpulab::GroupSpec& group = lab.groups.at(0);
  const gpulab::DatasetSpec& tiny = group.datasets.at(0);
  const gpulab::DatasetDirs d = gpulab::materialize(lab, group, tiny, "", root.path());
  test::write_file(d.input / "meta.json", "{}");
  try {
    gpulab::materialize(lab, group, tiny, "", root.path());
    FAIL("materialize used an entry whose meta.json was changed");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), d.input.parent_path().string()));
    CHECK(contains(e.what(), "remove that folder"));
  }
  CHECK(test::read_file(d.input / "meta.json") == "{}");
}

TEST_CASE("materialize names the lab and dataset when generation fails") {
  test::TempDir root;
  const gpulab::LabConfig lab = real_lab();
  gpulab::DatasetSpec broken = lab.groups.at(0).datasets.at(0);
  broken.params["nx"] = 0;
  try {
    gpulab::materialize(lab, lab.groups.at(0), broken, "", root.path());
    FAIL("materialize accepted nx = 0");
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(contains(msg, "scatter-gather/tiny"));
    CHECK(contains(msg, "\"nx\""));
  }
  CHECK(fs::is_empty(root / "public" / "tiny"));  // no half dataset left
}

TEST_CASE("dataset_seed: fixed for public datasets, distinct for hidden ones") {
  const gpulab::LabConfig lab = real_lab();
  const gpulab::DatasetSpec& tiny = lab.groups.at(0).datasets.at(0);
  REQUIRE(tiny.seed.has_value());
  CHECK(gpulab::dataset_seed(tiny, "1") == *tiny.seed);
  CHECK(gpulab::dataset_seed(tiny, "999") == *tiny.seed);

  const gpulab::GroupSpec& hidden = lab.groups.at(1);
  REQUIRE(hidden.hidden);
  REQUIRE(hidden.datasets.size() >= 2);
  const auto& a = hidden.datasets[0];
  const auto& b = hidden.datasets[1];
  REQUIRE_FALSE(a.seed.has_value());
  CHECK(gpulab::dataset_seed(a, "12345") != gpulab::dataset_seed(b, "12345"));
  CHECK(gpulab::dataset_seed(a, "12345") == gpulab::dataset_seed(a, "12345"));
  CHECK(gpulab::dataset_seed(a, "12345") != gpulab::dataset_seed(a, "12346"));
  // Drawn with HMAC-SHA256 (secret.h), not from anything a student can invert.
  CHECK(gpulab::dataset_seed(a, "12345") ==
        gpulab::secret_seed("12345", "gpulab hidden dataset", a.name));
}
