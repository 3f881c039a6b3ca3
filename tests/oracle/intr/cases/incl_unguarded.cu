// checks: a local header's unguarded __reduce_add_sync helper, called from a kernel
// feature: __reduce_add_sync
#include "include/warp_reduce.cuh"
__global__ void k(int* p) { p[threadIdx.x] = warp_reduce_add(p[threadIdx.x]); }
