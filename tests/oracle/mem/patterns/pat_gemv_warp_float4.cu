// GEMV with one warp per row reading the row and x as float4, lane 0 writes the dot product
// access bytes per thread: ld 16, st 4
#include "../harness.cuh"

__global__ void pat_gemv_warp_float4(const float4* A, const float4* x, float* y, int M, int K4) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= M) return;
  const float4* a = A + (long long)row * K4;
  float acc = 0.0f;
  for (int k = lane; k < K4; k += 32) {
    float4 u = a[k], v = x[k];
    acc += u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = acc;
}

void launch_pat_gemv_warp_float4(const Buffers& B) {
  const int M = 16384, K4 = 1024;  // 4096 floats per row
  pat_gemv_warp_float4<<<M * 32 / kBlock, kBlock>>>(B.f4_in, B.f4_in + 8 * kN, B.f_out, M, K4);
}
