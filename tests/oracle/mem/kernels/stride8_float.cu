// float load at stride 8
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void stride8_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[8 * i];
}

void launch_stride8_float(const Buffers& B) { stride8_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
