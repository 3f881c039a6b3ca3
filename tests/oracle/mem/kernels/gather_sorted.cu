// data-dependent gather through an identity index (measures coalesced)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void gather_sorted(const float* in, float* out, const int* idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = in[idx[i]];
}

void launch_gather_sorted(const Buffers& B) { gather_sorted<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, B.idx_sorted); }
