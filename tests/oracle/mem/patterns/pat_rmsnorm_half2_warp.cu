// RMSNorm over fp16 rows read as half2 pairs, one warp per row, weight vector half2 (LLM inference kernels)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_rmsnorm_half2_warp(const __half2* x, const __half2* w, __half2* y, int rows, int dim2, float eps) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  const __half2* xr = x + (long long)row * dim2;
  float ss = 0.0f;
  for (int c = lane; c < dim2; c += 32) {
    float2 v = __half22float2(xr[c]);
    ss += v.x * v.x + v.y * v.y;
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  float r = rsqrtf(ss / (2 * dim2) + eps);
  __half2 r2 = __float2half2_rn(r);
  for (int c = lane; c < dim2; c += 32) y[(long long)row * dim2 + c] = __hmul2(__hmul2(xr[c], r2), w[c]);
}

void launch_pat_rmsnorm_half2_warp(const Buffers& B) {
  const int rows = 4096, dim2 = 512;  // 1024 halves per row
  pat_rmsnorm_half2_warp<<<rows / (kBlock / 32), kBlock>>>(B.h2_in, B.h2_in + 4 * kN, B.h2_out, rows, dim2, 1e-6f);
}
