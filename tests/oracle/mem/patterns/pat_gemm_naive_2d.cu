// naive GEMM C = A B with row from the y dimension and col from x (32x8 blocks): A row broadcast per warp, B and C along a row
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_gemm_naive_2d(const float* A, const float* Bm, float* C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * Bm[k * N + col];
  C[row * N + col] = acc;
}

void launch_pat_gemm_naive_2d(const Buffers& B) {
  const int M = 512, N = 512, K = 256;
  pat_gemm_naive_2d<<<dim3(N / 32, M / 8), dim3(32, 8)>>>(B.f_in, B.f_in + kN, B.f_out, M, N, K);
}
