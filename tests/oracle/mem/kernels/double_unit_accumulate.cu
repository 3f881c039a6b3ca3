// double, unit stride, read-modify-write
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

__global__ void double_unit_accumulate(const double* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] += in[i];
}

void launch_double_unit_accumulate(const Buffers& B) { double_unit_accumulate<<<grid_for(kN), kBlock>>>(B.d_in, B.d_out); }
