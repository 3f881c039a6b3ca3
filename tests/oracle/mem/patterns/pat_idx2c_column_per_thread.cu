// cuBLAS-sample style IDX2C(i,j,ld) column-major macro; one thread per column summing down it (the thread walks its own column)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

__global__ void pat_idx2c_column_per_thread(const float* A, float* col_sums, int m, int n, int lda) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float s = 0.0f;
  for (int i = 0; i < m; ++i) s += A[IDX2C(i, j, lda)];
  col_sums[j] = s;
}

void launch_pat_idx2c_column_per_thread(const Buffers& B) {
  const int m = 64, n = kN / 2;
  pat_idx2c_column_per_thread<<<grid_for(n), kBlock>>>(B.f_in, B.f_out, m, n, m);
}
