// naive GEMM with the common mix-up row = threadIdx.x-based, col = y-based: A rows and C rows walked per thread
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_gemm_naive_row_from_x(const float* A, const float* Bm, float* C, int M, int N, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * Bm[k * N + col];
  C[row * N + col] = acc;
}

void launch_pat_gemm_naive_row_from_x(const Buffers& B) {
  const int M = 512, N = 512, K = 256;
  pat_gemm_naive_row_from_x<<<dim3(M / 32, N / 8), dim3(32, 8)>>>(B.f_in, B.f_in + kN, B.f_out, M, N, K);
}
