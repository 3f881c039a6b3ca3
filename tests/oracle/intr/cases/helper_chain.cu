// checks: a kernel -> helper -> helper chain ending in __reduce_xor_sync
// feature: __reduce_xor_sync
__device__ unsigned inner(unsigned v) { return __reduce_xor_sync(0xffffffffu, v); }
__device__ unsigned outer(unsigned v) { return inner(v) + 1; }
__global__ void k(unsigned* p) { p[threadIdx.x] = outer(p[threadIdx.x]); }
