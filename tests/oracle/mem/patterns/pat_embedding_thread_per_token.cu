// embedding gather with one thread per token copying its whole row: table[id*dim + d], out[t*dim + d] (row per thread)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_embedding_thread_per_token(const int* ids, const float* table, float* out, int num_tokens, int dim) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= num_tokens) return;
  const float* src = table + (long long)ids[t] * dim;
  float* dst = out + (long long)t * dim;
  for (int d = 0; d < dim; ++d) dst[d] = src[d];
}

void launch_pat_embedding_thread_per_token(const Buffers& B) {
  pat_embedding_thread_per_token<<<grid_for(kN), kBlock>>>(B.idx_random, B.f_in, B.f_out, kN, 16);
}
