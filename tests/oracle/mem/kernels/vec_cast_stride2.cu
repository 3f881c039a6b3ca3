// 16-byte vector loads through a cast of an element's address, 32 bytes apart
// (`*reinterpret_cast<const float4*>(&in[8 * i])`); stores as wide as their stride
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

__global__ void vec_cast_stride2(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) *reinterpret_cast<float4*>(&out[4 * i]) = *reinterpret_cast<const float4*>(&in[8 * i]);
}

void launch_vec_cast_stride2(const Buffers& B) { vec_cast_stride2<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
