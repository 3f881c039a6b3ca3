// float load at stride 33
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void stride33_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[33 * i];
}

void launch_stride33_float(const Buffers& B) { stride33_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
