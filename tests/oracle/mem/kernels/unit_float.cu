// unit stride float load and store
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void unit_float(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[i];
}

void launch_unit_float(const Buffers& B) { unit_float<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
