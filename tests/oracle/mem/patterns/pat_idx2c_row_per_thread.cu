// cuBLAS-sample style IDX2C(i,j,ld) column-major macro; one thread per row summing across columns (consecutive i per lane)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

__global__ void pat_idx2c_row_per_thread(const float* A, float* row_sums, int m, int n, int lda) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j) s += A[IDX2C(i, j, lda)];
  row_sums[i] = s;
}

void launch_pat_idx2c_row_per_thread(const Buffers& B) {
  const int m = kN / 4, n = 64;
  pat_idx2c_row_per_thread<<<grid_for(m), kBlock>>>(B.f_in, B.f_out, m, n, m);
}
