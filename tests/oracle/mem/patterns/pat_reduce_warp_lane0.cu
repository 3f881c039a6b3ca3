// grid-stride sum with warp-shuffle reduction; only lane 0 of each warp writes its partial sum
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_reduce_warp_lane0(const float* in, float* partials, int n) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) partials[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = v;
}

void launch_pat_reduce_warp_lane0(const Buffers& B) {
  pat_reduce_warp_lane0<<<2048, kBlock>>>(B.f_in, B.f_out, 4 * kN);
}
