// index built through several local variables
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void local_var_chain(const float* in, float* out) {
  int base = blockIdx.x * blockDim.x;
  int lane = threadIdx.x;
  int j = base + lane;
  int k = j;
  if (k < kN) out[k] = in[k];
}

void launch_local_var_chain(const Buffers& B) { local_var_chain<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out); }
