// naive LayerNorm, one thread per row looping over the hidden dimension: x[row*dim + k] (row-per-thread loop)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_layernorm_row_per_thread(const float* x, const float* gamma, float* y, int rows, int dim) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float s = 0.0f, ss = 0.0f;
  for (int k = 0; k < dim; ++k) { float v = x[row * dim + k]; s += v; ss += v * v; }
  float mean = s / dim, rstd = rsqrtf(ss / dim - mean * mean + 1e-5f);
  for (int k = 0; k < dim; ++k) y[row * dim + k] = (x[row * dim + k] - mean) * rstd * gamma[k];
}

void launch_pat_layernorm_row_per_thread(const Buffers& B) {
  const int rows = kN / 4, dim = 64;
  pat_layernorm_row_per_thread<<<grid_for(rows), kBlock>>>(B.f_in, B.f_in + 32 * kN, B.f_out, rows, dim);
}
