// negative unit stride
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void reversed_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[kN - 1 - i];
}

void launch_reversed_float(const Buffers& B) { reversed_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
