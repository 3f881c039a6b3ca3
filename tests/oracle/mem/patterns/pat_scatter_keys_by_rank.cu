// radix/counting-sort scatter: each key and its value stored at the destination given by a precomputed rank (permutation)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_scatter_keys_by_rank(const float* keys, const float* vals, const int* dest, float* keys_out,
                                         float* vals_out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int d = dest[i];
  keys_out[d] = keys[i];
  vals_out[d] = vals[i];
}

void launch_pat_scatter_keys_by_rank(const Buffers& B) {
  pat_scatter_keys_by_rank<<<grid_for(kN), kBlock>>>(B.f_in, B.f_in + kN, B.idx_random, B.f_out, B.f_out + kN, kN);
}
