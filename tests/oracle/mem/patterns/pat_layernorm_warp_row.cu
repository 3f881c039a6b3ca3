// LayerNorm forward, one warp per row: lanes step through the row by 32, warp-shuffle mean/variance (transformer kernels)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__device__ __forceinline__ float ln_warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void pat_layernorm_warp_row(const float* x, const float* gamma, const float* beta, float* y, int rows, int dim) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (row >= rows) return;
  const float* xr = x + (long long)row * dim;
  float s = 0.0f, ss = 0.0f;
  for (int c = lane; c < dim; c += 32) { float v = xr[c]; s += v; ss += v * v; }
  s = ln_warp_sum(s); ss = ln_warp_sum(ss);
  float mean = s / dim, rstd = rsqrtf(ss / dim - mean * mean + 1e-5f);
  float* yr = y + (long long)row * dim;
  for (int c = lane; c < dim; c += 32) yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
}

void launch_pat_layernorm_warp_row(const Buffers& B) {
  const int rows = 4096, dim = 1024;
  pat_layernorm_warp_row<<<rows * 32 / kBlock, kBlock>>>(B.f_in, B.f_in + 8 * kN, B.f_in + 9 * kN, B.f_out, rows, dim);
}
