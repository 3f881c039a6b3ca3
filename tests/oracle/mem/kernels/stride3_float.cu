// float load at stride 3 (12 bytes)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void stride3_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[3 * i];
}

void launch_stride3_float(const Buffers& B) { stride3_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
