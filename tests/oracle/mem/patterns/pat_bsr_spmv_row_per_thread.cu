// block-sparse (BSR) SpMV, one thread per scalar row walking the dense bs x bs blocks of its block row: val[(blk*bs + r)*bs + c]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_bsr_spmv_row_per_thread(const int* block_row_ptr, const int* block_col, const float* vals,
                                            const float* x, float* y, int rows, int bs) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  int br = row / bs, r = row % bs;
  float acc = 0.0f;
  for (int blk = block_row_ptr[br]; blk < block_row_ptr[br + 1]; ++blk) {
    const float* a = vals + ((long long)blk * bs + r) * bs;
    const float* xb = x + (long long)block_col[blk] * bs;
    for (int c = 0; c < bs; ++c) acc += a[c] * xb[c];
  }
  y[row] = acc;
}

void launch_pat_bsr_spmv_row_per_thread(const Buffers& B) {
  // identity index arrays: a block-diagonal matrix with one 8x8 block per block row
  const int rows = kN, bs = 8;
  pat_bsr_spmv_row_per_thread<<<grid_for(rows), kBlock>>>(B.idx_sorted, B.idx_sorted, B.f_in, B.f_in + 16 * kN, B.f_out,
                                                          rows, bs);
}
