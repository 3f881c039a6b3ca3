// naive matmul row walk: A[row * K + k] with row = thread index
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void matmul_row_per_thread(const float* A, float* out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 32; ++k) s += A[row * 64 + k];
  out[row] = s;
}

void launch_matmul_row_per_thread(const Buffers& B) { matmul_row_per_thread<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
