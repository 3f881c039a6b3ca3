// float, stride -2
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void float_stride_minus2(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[2 * (kN - i)];
}

void launch_float_stride_minus2(const Buffers& B) { float_stride_minus2<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
