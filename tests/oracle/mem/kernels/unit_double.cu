// unit stride double
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

__global__ void unit_double(const double* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i];
}

void launch_unit_double(const Buffers& B) { unit_double<<<grid_for(kN), kBlock>>>(B.d_in, B.d_out); }
