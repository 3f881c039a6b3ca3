// unit stride float4 (16-byte vector)
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

__global__ void unit_float4(const float4* in, float4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i];
}

void launch_unit_float4(const Buffers& B) { unit_float4<<<grid_for(kN), kBlock>>>(B.f4_in, B.f4_out); }
