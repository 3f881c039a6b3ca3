// warp-uniform element per block
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void broadcast_block(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[blockIdx.x];
}

void launch_broadcast_block(const Buffers& B) { broadcast_block<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
