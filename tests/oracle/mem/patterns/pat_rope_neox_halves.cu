// rotary position embedding, GPT-NeoX/LLaMA "rotate half" form: x[i] pairs with x[i + dim/2], cos/sin cache per position
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_rope_neox_halves(float* x, const float* cos_cache, const float* sin_cache, int tokens, int seq_len,
                                     int dim) {
  int t = blockIdx.x * blockDim.y + threadIdx.y;
  int half = dim / 2;
  int i = threadIdx.x;
  if (t >= tokens || i >= half) return;
  int pos = t % seq_len;
  float* row = x + (long long)t * dim;
  float c = cos_cache[pos * half + i], s = sin_cache[pos * half + i];
  float a = row[i], b = row[i + half];
  row[i] = a * c - b * s;
  row[i + half] = b * c + a * s;
}

void launch_pat_rope_neox_halves(const Buffers& B) {
  const int tokens = 65536, seq_len = 2048, dim = 128;
  pat_rope_neox_halves<<<tokens / 4, dim3(64, 4)>>>(B.f_out, B.f_in, B.f_in + kN, tokens, seq_len, dim);
}
