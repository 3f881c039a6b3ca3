// block (32, 32): threadIdx.x selects the row of a 32-wide tile
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void y_major_block(const float* in, float* out) {
  int base = blockIdx.x * 1024;
  int j = base + threadIdx.x * 32 + threadIdx.y;
  out[j] = in[j];
}

void launch_y_major_block(const Buffers& B) { y_major_block<<<kN / 1024, dim3(32, 32)>>>(B.f_in, B.f_out); }
