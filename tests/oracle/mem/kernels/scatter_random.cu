// data-dependent scatter through a random permutation
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void scatter_random(const float* in, float* out, const int* idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[idx[i]] = in[i];
}

void launch_scatter_random(const Buffers& B) { scatter_random<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, B.idx_random); }
