// attention output O = P V, one block per query and one thread per head_dim channel: P broadcast, V[j*D + d] along the lanes
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_attention_pv_block_query(const float* P, const float* V, float* O, int seq_k, int head_dim) {
  int q = blockIdx.x, d = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < seq_k; ++j) acc += P[q * seq_k + j] * V[j * head_dim + d];
  O[q * head_dim + d] = acc;
}

void launch_pat_attention_pv_block_query(const Buffers& B) {
  const int seq_q = 2048, seq_k = 1024, head_dim = 128;
  pat_attention_pv_block_query<<<seq_q, head_dim>>>(B.f_in, B.f_in + kN, B.f_out, seq_k, head_dim);
}
