// gather of each sequence's last hidden state before the LM head: one block per sequence, threads along hidden
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_last_token_gather(const float* hidden, float* last, int seq_len, int hidden_dim) {
  int b = blockIdx.x;
  const float* src = hidden + ((long long)b * seq_len + seq_len - 1) * hidden_dim;
  for (int d = threadIdx.x; d < hidden_dim; d += blockDim.x) last[(long long)b * hidden_dim + d] = src[d];
}

void launch_pat_last_token_gather(const Buffers& B) {
  const int batch = 2048, seq_len = 16, hidden_dim = 1024;
  pat_last_token_gather<<<batch, kBlock>>>(B.f_in, B.f_out, seq_len, hidden_dim);
}
