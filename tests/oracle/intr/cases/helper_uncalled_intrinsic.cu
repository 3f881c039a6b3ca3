// checks: an uncalled __forceinline__ __device__ helper calling __reduce_and_sync
// feature: __reduce_and_sync
__forceinline__ __device__ unsigned all_bits(unsigned v) { return __reduce_and_sync(0xffffffffu, v); }
__global__ void k(unsigned* p) { p[threadIdx.x] = 1; }
