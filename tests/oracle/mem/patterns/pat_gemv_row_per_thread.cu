// naive GEMV y = A x, one thread per row of a row-major A walking its row: A[row*K + k]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_gemv_row_per_thread(const float* A, const float* x, float* y, int M, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * x[k];
  y[row] = acc;
}

void launch_pat_gemv_row_per_thread(const Buffers& B) {
  const int M = kN / 8, K = 256;
  pat_gemv_row_per_thread<<<grid_for(M), kBlock>>>(B.f_in, B.f_in + 40 * kN, B.f_out, M, K);
}
