// greedy decoding argmax over vocabulary rows, one warp per row, shuffle reduction, only lane 0 stores the token id
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_argmax_lane0_store(const float* logits, int* next_token, int rows, int vocab) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  const float* r = logits + (long long)row * vocab;
  float best = -3.4e38f;
  int arg = 0;
  for (int v = threadIdx.x & 31; v < vocab; v += 32) {
    float val = r[v];
    if (val > best) { best = val; arg = v; }
  }
  for (int o = 16; o > 0; o >>= 1) {
    float ob = __shfl_down_sync(0xffffffffu, best, o);
    int oa = __shfl_down_sync(0xffffffffu, arg, o);
    if (ob > best || (ob == best && oa < arg)) { best = ob; arg = oa; }
  }
  if ((threadIdx.x & 31) == 0) next_token[row] = arg;
}

void launch_pat_argmax_lane0_store(const Buffers& B) {
  const int rows = 2048, vocab = 4096;
  pat_argmax_lane0_store<<<rows / (kBlock / 32), kBlock>>>(B.f_in, reinterpret_cast<int*>(B.f_out), rows, vocab);
}
