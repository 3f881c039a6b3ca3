// char load at stride 16
// access bytes per thread: ld 1, st 1
#include "../harness.cuh"

__global__ void stride16_char(const char* in, char* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[16 * i];
}

void launch_stride16_char(const Buffers& B) { stride16_char<<<grid_for(kN), kBlock>>>(B.c_in, B.c_out); }
