// char load at stride 4
// access bytes per thread: ld 1, st 1
#include "../harness.cuh"

__global__ void stride4_char(const char* in, char* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[4 * i];
}

void launch_stride4_char(const Buffers& B) { stride4_char<<<grid_for(kN), kBlock>>>(B.c_in, B.c_out); }
