// array of 16-byte structs of two doubles, one field read
// access bytes per thread: ld 8, st 8
#include "../harness.cuh"

struct D2 { double re, im; };
__global__ void aos_2double_field(const D2* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i].im;
}

void launch_aos_2double_field(const Buffers& B) { aos_2double_field<<<grid_for(kN), kBlock>>>(reinterpret_cast<const D2*>(B.d_in), B.d_out); }
