// float4 load at stride 2 (32 bytes apart)
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

__global__ void stride2_float4(const float4* in, float4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[2 * i];
}

void launch_stride2_float4(const Buffers& B) { stride2_float4<<<grid_for(kN), kBlock>>>(B.f4_in, B.f4_out); }
