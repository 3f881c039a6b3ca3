// float load at stride 2
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void stride2_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[2 * i];
}

void launch_stride2_float(const Buffers& B) { stride2_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
