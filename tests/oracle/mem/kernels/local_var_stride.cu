// stride through a local constant
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void local_var_stride(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int s = 8;
  int j = i * s;
  if (i < kN) out[i] = in[j];
}

void launch_local_var_stride(const Buffers& B) { local_var_stride<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
