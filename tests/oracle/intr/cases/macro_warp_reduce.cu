// checks: a function-like macro expanding to __reduce_add_sync
// feature: __reduce_add_sync
#define WARP_SUM(x) __reduce_add_sync(0xffffffffu, (x))
__global__ void k(int* p) { p[threadIdx.x] = WARP_SUM(p[threadIdx.x]); }
