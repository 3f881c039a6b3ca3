// scalar CSR SpMV (one thread per row over row_ptr[row]..row_ptr[row+1]); the row pointers here give one entry per row (data-dependent)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_csr_scalar_identity_rows(const int* row_ptr, const int* col_idx, const float* vals, const float* x,
                                             float* y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float acc = 0.0f;
  for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j) acc += vals[j] * x[col_idx[j]];
  y[row] = acc;
}

void launch_pat_csr_scalar_identity_rows(const Buffers& B) {
  // row_ptr[i] == i and col_idx[j] == j: a diagonal matrix
  pat_csr_scalar_identity_rows<<<grid_for(kN - 1), kBlock>>>(B.idx_sorted, B.idx_sorted, B.f_in, B.f_in + kN, B.f_out,
                                                             kN - 1);
}
