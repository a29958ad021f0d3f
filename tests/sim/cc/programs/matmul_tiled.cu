// A textbook tiled matrix multiply: 2D grid and blocks (dim3), a 2D __shared__ tile per input,
// __syncthreads between phases, bounds checks for sizes that are not multiples of the tile,
// and error checking after the launch.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TILE_WIDTH 16
#define CHECK(call)                                                          \
  {                                                                          \
    const cudaError_t error = call;                                          \
    if (error != cudaSuccess) {                                              \
      printf("Error: %s:%d, code:%d, reason: %s\n", __FILE__, __LINE__, error, \
             cudaGetErrorString(error));                                     \
      exit(1);                                                               \
    }                                                                        \
  }

__global__ void matrixMulTiled(const float* M, const float* N, float* P, int width, int height,
                               int inner) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int row = by * TILE_WIDTH + ty;
  int col = bx * TILE_WIDTH + tx;
  float value = 0;
  for (int ph = 0; ph < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = (row < height && ph * TILE_WIDTH + tx < inner) ? M[row * inner + ph * TILE_WIDTH + tx] : 0.0f;
    Nds[ty][tx] = (col < width && ph * TILE_WIDTH + ty < inner) ? N[(ph * TILE_WIDTH + ty) * width + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) value += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  if (row < height && col < width) P[row * width + col] = value;
}

int main() {
  const int height = 37, inner = 50, width = 29;
  std::vector<float> a(height * inner), b(inner * width), c(height * width);
  for (size_t i = 0; i < a.size(); ++i) a[i] = (i % 13) * 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = (i % 7) - 3.0f;
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, b.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, c.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  dim3 grid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
  matrixMulTiled<<<grid, block>>>(dA, dB, dC, width, height, inner);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < height; ++r) {
    for (int col = 0; col < width; ++col) {
      float want = 0;
      for (int k = 0; k < inner; ++k) want += a[r * inner + k] * b[k * width + col];
      if (std::fabs(want - c[r * width + col]) > 1e-3f * (1 + std::fabs(want))) {
        printf("mismatch at (%d,%d): %f vs %f\n", r, col, c[r * width + col], want);
        return 1;
      }
    }
  }
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  printf("matrix multiply PASSED\n");
  return 0;
}
