// double load at stride 3
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

__global__ void stride3_double(const double* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[3 * i];
}

void launch_stride3_double(const Buffers& B) { stride3_double<<<grid_for(kN), kBlock>>>(B.d_in, B.d_out); }
