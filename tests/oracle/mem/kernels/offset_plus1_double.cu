// unit stride double, misaligned by one element
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

__global__ void offset_plus1_double(const double* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i + 1];
}

void launch_offset_plus1_double(const Buffers& B) { offset_plus1_double<<<grid_for(kN), kBlock>>>(B.d_in, B.d_out); }
