// loop over a row indexed by blockIdx only (broadcast loads)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void warp_uniform_loop(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 64; ++k) s += in[blockIdx.x * 64 + k];
  if (i < kN) out[i] = s;
}

void launch_warp_uniform_loop(const Buffers& B) { warp_uniform_loop<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
