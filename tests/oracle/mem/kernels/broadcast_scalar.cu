// every thread reads the same element
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void broadcast_scalar(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[0];
}

void launch_broadcast_scalar(const Buffers& B) { broadcast_scalar<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
