// paged KV-cache write (LLM serving): key cache laid out [block][head][dim/x][slot][x] with x = 8 halves, one block per token
// access bytes per thread: ld 2, st 2
#include "../harness.cuh"

__global__ void pat_paged_key_cache_store(const __half* key, __half* key_cache, const int* slot_of_token, int heads,
                                          int head_dim, int block_size, int x) {
  int t = blockIdx.x;
  int slot = slot_of_token[t];
  int blk = slot / block_size, off = slot % block_size;
  int per_token = heads * head_dim;
  for (int e = threadIdx.x; e < per_token; e += blockDim.x) {
    int h = e / head_dim, d = e % head_dim;
    long long dst = ((((long long)blk * heads + h) * (head_dim / x) + d / x) * block_size + off) * x + d % x;
    key_cache[dst] = key[(long long)t * per_token + e];
  }
}

void launch_pat_paged_key_cache_store(const Buffers& B) {
  const int tokens = 4096, heads = 8, head_dim = 128, block_size = 16, x = 8;
  pat_paged_key_cache_store<<<tokens, kBlock>>>(B.h_in, B.h_out, B.idx_sorted, heads, head_dim, block_size, x);
}
