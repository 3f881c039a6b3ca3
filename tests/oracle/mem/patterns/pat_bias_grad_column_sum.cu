// bias gradient of a linear layer, db[c] = sum over rows of dY[r*C + c]: one thread per column looping over rows
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_bias_grad_column_sum(const float* dY, float* db, int rows, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= C) return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) s += dY[(long long)r * C + c];
  db[c] = s;
}

void launch_pat_bias_grad_column_sum(const Buffers& B) {
  const int rows = 2048, C = 4096;
  pat_bias_grad_column_sum<<<grid_for(C), kBlock>>>(B.f_in, B.f_out, rows, C);
}
