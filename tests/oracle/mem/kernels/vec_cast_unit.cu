// 16-byte vector loads and stores through a cast of an element's address (`*(float4*)&in[4 * i]`):
// adjacent threads 16 bytes apart, as wide as their accesses
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

__global__ void vec_cast_unit(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) *(float4*)&out[4 * i] = *(const float4*)&in[4 * i];
}

void launch_vec_cast_unit(const Buffers& B) { vec_cast_unit<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
