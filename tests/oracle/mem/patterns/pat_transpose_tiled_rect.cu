// tiled transpose of a rectangular rows x cols matrix through a padded 32x33 shared tile, 32x8 threads (both sides coalesced)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

constexpr int kTrTile = 32, kTrRows = 8;

__global__ void pat_transpose_tiled_rect(const float* a, float* at, int rows, int cols) {
  __shared__ float buf[kTrTile][kTrTile + 1];
  int c = blockIdx.x * kTrTile + threadIdx.x;
  int r0 = blockIdx.y * kTrTile + threadIdx.y;
  for (int k = 0; k < kTrTile; k += kTrRows)
    if (c < cols && r0 + k < rows) buf[threadIdx.y + k][threadIdx.x] = a[(long long)(r0 + k) * cols + c];
  __syncthreads();
  int oc = blockIdx.y * kTrTile + threadIdx.x;  // column of the transposed matrix (= row of a)
  int or0 = blockIdx.x * kTrTile + threadIdx.y;
  for (int k = 0; k < kTrTile; k += kTrRows)
    if (oc < rows && or0 + k < cols) at[(long long)(or0 + k) * rows + oc] = buf[threadIdx.x][threadIdx.y + k];
}

void launch_pat_transpose_tiled_rect(const Buffers& B) {
  const int rows = 1024, cols = 4096;
  pat_transpose_tiled_rect<<<dim3(cols / kTrTile, rows / kTrTile), dim3(kTrTile, kTrRows)>>>(B.f_in, B.f_out, rows, cols);
}
