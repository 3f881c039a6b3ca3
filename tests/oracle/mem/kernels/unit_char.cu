// unit stride char
// access bytes per thread: ld 1, st 1
#include "../harness.cuh"

__global__ void unit_char(const char* in, char* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i];
}

void launch_unit_char(const Buffers& B) { unit_char<<<grid_for(kN), kBlock>>>(B.c_in, B.c_out); }
