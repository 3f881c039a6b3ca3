__device__ unsigned warp_sum(unsigned v) {
  /* 🚀 Σ */ return __reduce_add_sync(0xffffffffu, v);
}

__global__ void sum(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
  out[blockIdx.x] = warp_sum(v);
}
