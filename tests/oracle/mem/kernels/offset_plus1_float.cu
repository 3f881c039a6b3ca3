// unit stride, misaligned by one element
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void offset_plus1_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i + 1];
}

void launch_offset_plus1_float(const Buffers& B) { offset_plus1_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
