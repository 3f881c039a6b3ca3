// group-wise dequantisation where each warp owns one 32-element group: the scale is read at blockIdx.x*warps + threadIdx.x/32
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_groupwise_dequant_warp_scale(const int* q, const float* scales, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = scales[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  out[i] = (float)(q[i] - 8) * s;
}

void launch_pat_groupwise_dequant_warp_scale(const Buffers& B) {
  pat_groupwise_dequant_warp_scale<<<grid_for(kN), kBlock>>>(reinterpret_cast<const int*>(B.f_in), B.f_in + 2 * kN,
                                                             B.f_out, kN);
}
