// checks: a macro that would expand to __reduce_add_sync is defined but never used
// expect: ok
#define WARP_SUM(x) __reduce_add_sync(0xffffffffu, (x))
__global__ void k(int* p) { p[threadIdx.x] += 1; }
