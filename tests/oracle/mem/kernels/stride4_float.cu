// float load at stride 4
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void stride4_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[4 * i];
}

void launch_stride4_float(const Buffers& B) { stride4_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
