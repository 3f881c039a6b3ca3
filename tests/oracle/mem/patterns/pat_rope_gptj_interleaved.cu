// rotary position embedding, GPT-J interleaved form: thread i rotates the pair x[2i], x[2i+1], angles computed in-kernel
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_rope_gptj_interleaved(float* x, int tokens, int seq_len, int dim, float log_base) {
  int t = blockIdx.x * blockDim.y + threadIdx.y;
  int i = threadIdx.x;
  if (t >= tokens || 2 * i >= dim) return;
  int pos = t % seq_len;
  float inv_freq = __expf(-log_base * (2.0f * i) / dim);
  float s, c;
  __sincosf(pos * inv_freq, &s, &c);
  float* row = x + (long long)t * dim;
  float a = row[2 * i], b = row[2 * i + 1];
  row[2 * i] = a * c - b * s;
  row[2 * i + 1] = b * c + a * s;
}

void launch_pat_rope_gptj_interleaved(const Buffers& B) {
  const int tokens = 65536, seq_len = 2048, dim = 128;
  pat_rope_gptj_interleaved<<<tokens / 4, dim3(64, 4)>>>(B.f_out, tokens, seq_len, dim, 9.2103404f);
}
