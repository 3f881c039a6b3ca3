// char at stride 2: 64 bytes per warp, 2 sectors (threshold 2)
// access bytes per thread: ld 1, st 1
#include "../harness.cuh"

__global__ void char_stride2(const char* in, char* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[2 * i];
}

void launch_char_stride2(const Buffers& B) { char_stride2<<<grid_for(kN), kBlock>>>(B.c_in, B.c_out); }
