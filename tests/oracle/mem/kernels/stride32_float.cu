// float load at stride 32
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void stride32_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[32 * i];
}

void launch_stride32_float(const Buffers& B) { stride32_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
