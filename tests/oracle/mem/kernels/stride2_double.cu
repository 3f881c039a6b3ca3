// double load at stride 2
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

__global__ void stride2_double(const double* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[2 * i];
}

void launch_stride2_double(const Buffers& B) { stride2_double<<<grid_for(kN), kBlock>>>(B.d_in, B.d_out); }
