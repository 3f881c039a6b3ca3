// paged KV-cache write (LLM serving): value cache laid out [block][head][dim][slot], so consecutive dims are block_size apart
// access bytes per thread: ld 2, st 2
#include "../harness.cuh"

__global__ void pat_paged_value_cache_store(const __half* value, __half* value_cache, const int* slot_of_token, int heads,
                                            int head_dim, int block_size) {
  int t = blockIdx.x;
  int slot = slot_of_token[t];
  int blk = slot / block_size, off = slot % block_size;
  int per_token = heads * head_dim;
  for (int e = threadIdx.x; e < per_token; e += blockDim.x) {
    int h = e / head_dim, d = e % head_dim;
    long long dst = (((long long)blk * heads + h) * head_dim + d) * block_size + off;
    value_cache[dst] = value[(long long)t * per_token + e];
  }
}

void launch_pat_paged_value_cache_store(const Buffers& B) {
  const int tokens = 4096, heads = 8, head_dim = 128, block_size = 16;
  pat_paged_value_cache_store<<<tokens, kBlock>>>(B.h_in, B.h_out, B.idx_sorted, heads, head_dim, block_size);
}
