// token + position embedding lookup, one 64-thread row of the block per token: table[id*dim + d] with a random id but d along the lanes
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_embedding_block_per_token(const int* ids, const float* tok_table, const float* pos_table, float* out,
                                              int num_tokens, int seq_len, int dim) {
  int t = blockIdx.x * blockDim.y + threadIdx.y;
  if (t >= num_tokens) return;
  int id = ids[t];
  int pos = t % seq_len;
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    out[(long long)t * dim + d] = tok_table[(long long)id * dim + d] + pos_table[pos * dim + d];
}

void launch_pat_embedding_block_per_token(const Buffers& B) {
  const int tokens = 65536, seq_len = 512, dim = 64;  // ids < kN, so id * dim + d < kAlloc
  pat_embedding_block_per_token<<<tokens / 4, dim3(64, 4)>>>(B.idx_random, B.f_in, B.f_in + 16 * kN, B.f_out, tokens,
                                                             seq_len, dim);
}
