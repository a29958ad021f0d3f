
// The attack: the int scans built from CUB's block-level scan, which is inlined into the
// kernel and leaves no name in the object: a check of the object's names never sees it. Each
// block scans a tile of 1024 with cub::BlockScan and writes its total; the totals are scanned
// the same way, one level up, and added back.
#include <cub/block/block_scan.cuh>

namespace {

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kTile = kBlock * kItems;

__global__ void block_scan_tiles(const int* in, int* out, int n, int* totals, bool inclusive) {
  using Scan = cub::BlockScan<int, kBlock>;
  __shared__ typename Scan::TempStorage temp;
  int items[kItems];
  const int base = blockIdx.x * kTile + threadIdx.x * kItems;
  for (int i = 0; i < kItems; ++i) items[i] = base + i < n ? in[base + i] : 0;
  int total = 0;
  if (inclusive)
    Scan(temp).InclusiveSum(items, items, total);
  else
    Scan(temp).ExclusiveSum(items, items, total);
  for (int i = 0; i < kItems; ++i)
    if (base + i < n) out[base + i] = items[i];
  if (threadIdx.x == 0 && totals) totals[blockIdx.x] = total;
}

__global__ void add_carries(int* out, int n, const int* carries) {
  const int i = blockIdx.x * kTile + threadIdx.x;
  for (int k = 0; k < kItems; ++k)
    if (i + k * kBlock < n) out[i + k * kBlock] += carries[blockIdx.x];
}

void scan_levels(const int* in, int* out, int n, bool inclusive) {
  const int tiles = (n + kTile - 1) / kTile;
  if (tiles <= 1) {
    if (n > 0) block_scan_tiles<<<1, kBlock>>>(in, out, n, nullptr, inclusive);
    return;
  }
  int* totals = nullptr;
  cudaMalloc(&totals, 2 * tiles * sizeof(int));
  block_scan_tiles<<<tiles, kBlock>>>(in, out, n, totals, inclusive);
  scan_levels(totals, totals + tiles, tiles, false);
  add_carries<<<tiles, kBlock>>>(out, n, totals + tiles);
  cudaFree(totals);
}

}  // namespace

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  scan_levels(in, out, n, kind == ScanKind::inclusive);
}
