// checks: an object-like macro naming the intrinsic (#define FAST_MIN __reduce_min_sync)
// feature: __reduce_min_sync
#define FAST_MIN __reduce_min_sync
__global__ void k(int* p) { p[threadIdx.x] = FAST_MIN(0xffffffffu, p[threadIdx.x]); }
