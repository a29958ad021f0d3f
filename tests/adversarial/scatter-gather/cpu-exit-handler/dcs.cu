// Hostile, appended to the slowed reference (its twin is slow-cpu): each call keeps a copy of
// its inputs and where its output goes, spins a moment (a time above the roofline floor) and
// returns. The work is done after the last call, by an exit handler (atexit, at_quick_exit) and
// a static object's destructor: every call's result, into its output and into the run's folder under the names a
// runner once wrote its outputs with (potential.npy, sample<k>_potential.npy).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Kept {
  std::vector<float> atoms;
  Lattice lat;
  float* out;
};

std::vector<Kept>& kept() {
  static auto* k = new std::vector<Kept>;
  return *k;
}

void write_npy(const std::string& path, const std::vector<float>& v, const Lattice& lat) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                     std::to_string(lat.nz) + ", " + std::to_string(lat.ny) + ", " +
                     std::to_string(lat.nx) + "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return;
  const unsigned char len[2] = {static_cast<unsigned char>(dict.size() & 0xff),
                                static_cast<unsigned char>(dict.size() >> 8)};
  std::fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  std::fwrite(len, 1, 2, f);
  std::fwrite(dict.data(), 1, dict.size(), f);
  std::fwrite(v.data(), sizeof(float), v.size(), f);
  std::fclose(f);
}

void work_after_the_clock() {
  static bool done = false;
  if (done) return;
  done = true;
  int k = 0;
  for (Kept& c : kept()) {
    std::vector<float> v(static_cast<size_t>(c.lat.nx) * c.lat.ny * c.lat.nz);
    slow_cpu_fast(c.atoms.data(), static_cast<int>(c.atoms.size() / 4), c.lat, v.data());
    std::copy(v.begin(), v.end(), c.out);
    write_npy(k == 0 ? "potential.npy" : "sample" + std::to_string(k) + "_potential.npy", v, c.lat);
    ++k;
  }
}

struct AtTheEnd {
  ~AtTheEnd() { work_after_the_clock(); }
} at_the_end;
const bool registered =
    std::atexit(work_after_the_clock) == 0 && std::at_quick_exit(work_after_the_clock) == 0;

}  // namespace

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  (void)registered;
  kept().push_back({std::vector<float>(atoms, atoms + 4 * static_cast<size_t>(n_atoms)), lat,
                    potential});
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::microseconds(500)) {
  }
}
