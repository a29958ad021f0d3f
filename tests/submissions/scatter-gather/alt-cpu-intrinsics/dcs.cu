// A correct cpu_fast written with x86 intrinsics (<xmmintrin.h>, <immintrin.h>): four lattice
// points per SSE operation, a prefetch of the next row and a store fence, as a student might.
// It must build and pass on the CPU backend as under nvcc (tests/e2e/grade_e2e.cpp grades
// cpu_fast alone; the GPU parts are the stub's).
#include <immintrin.h>
#include <xmmintrin.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dcs.h"

void dcs_scatter(const float*, int, Lattice, float*) {}

void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const size_t n = static_cast<size_t>(n_atoms);
  std::vector<float> dz2(n), dyz2(n);
  const int whole = lat.nx - lat.nx % 4;  // points swept four at a time
  const __m128 h = _mm_set1_ps(lat.h);
  for (int k = 0; k < lat.nz; ++k) {
    const float z = k * lat.h;
    for (size_t a = 0; a < n; ++a) dz2[a] = (z - atoms[4 * a + 2]) * (z - atoms[4 * a + 2]);
    for (int j = 0; j < lat.ny; ++j) {
      const float y = j * lat.h;
      for (size_t a = 0; a < n; ++a)
        dyz2[a] = (y - atoms[4 * a + 1]) * (y - atoms[4 * a + 1]) + dz2[a];
      float* row = potential + (static_cast<size_t>(k) * lat.ny + j) * lat.nx;
      if (j + 1 < lat.ny) _mm_prefetch(reinterpret_cast<const char*>(row + lat.nx), _MM_HINT_T0);
      std::memset(row, 0, static_cast<size_t>(lat.nx) * sizeof(float));
      for (size_t a = 0; a < n; ++a) {
        const float xa = atoms[4 * a], d = dyz2[a], qa = atoms[4 * a + 3];
        const __m128 vxa = _mm_set1_ps(xa), vd = _mm_set1_ps(d), vq = _mm_set1_ps(qa);
        int i = 0;
        for (; i < whole; i += 4) {
          // The coordinates as the float products i * h, as the oracle computes them.
          const __m128 x = _mm_mul_ps(_mm_cvtepi32_ps(_mm_setr_epi32(i, i + 1, i + 2, i + 3)), h);
          const __m128 dx = _mm_sub_ps(x, vxa);
          const __m128 r = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), vd));
          _mm_storeu_ps(row + i, _mm_add_ps(_mm_loadu_ps(row + i), _mm_div_ps(vq, r)));
        }
        for (; i < lat.nx; ++i) {
          const float dx = i * lat.h - xa;
          row[i] += qa / std::sqrt(dx * dx + d);
        }
      }
    }
  }
  _mm_sfence();
}
