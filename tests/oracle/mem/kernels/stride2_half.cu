// half load at stride 2 (4 bytes apart)
// access bytes per thread: ld 2, st 2
#include "../harness.cuh"

__global__ void stride2_half(const __half* in, __half* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[2 * i];
}

void launch_stride2_half(const Buffers& B) { stride2_half<<<grid_for(kN), kBlock>>>(B.h_in, B.h_out); }
