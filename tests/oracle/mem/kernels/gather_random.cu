// data-dependent gather through a random permutation
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void gather_random(const float* in, float* out, const int* idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[idx[i]];
}

void launch_gather_random(const Buffers& B) { gather_random<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, B.idx_random); }
