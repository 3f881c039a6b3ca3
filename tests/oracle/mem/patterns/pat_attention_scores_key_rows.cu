// naive attention scores S = Q K^T * scale, one thread per key walking that key's head_dim row: K[j*D + d]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_attention_scores_key_rows(const float* Q, const float* K, float* S, int seq_k, int head_dim,
                                              float scale) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;  // key index
  int q = blockIdx.y;                              // query index
  if (j >= seq_k) return;
  float acc = 0.0f;
  for (int d = 0; d < head_dim; ++d) acc += Q[q * head_dim + d] * K[j * head_dim + d];
  S[q * seq_k + j] = acc * scale;
}

void launch_pat_attention_scores_key_rows(const Buffers& B) {
  const int seq_q = 64, seq_k = 4096, head_dim = 64;
  pat_attention_scores_key_rows<<<dim3(seq_k / kBlock, seq_q), kBlock>>>(B.f_in, B.f_in + kN, B.f_out, seq_k, head_dim,
                                                                         0.125f);
}
