// char, unit stride, offset 3
// access bytes per thread: ld 1, st 1
#include "../harness.cuh"

__global__ void char_unit_offset3(const char* in, char* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i + 3];
}

void launch_char_unit_offset3(const Buffers& B) { char_unit_offset3<<<grid_for(kN), kBlock>>>(B.c_in, B.c_out); }
