// unit stride float2 (8-byte vector)
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

__global__ void unit_float2(const float2* in, float2* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i];
}

void launch_unit_float2(const Buffers& B) { unit_float2<<<grid_for(kN), kBlock>>>(B.f2_in, B.f2_out); }
