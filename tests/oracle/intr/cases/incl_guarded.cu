// checks: a local header whose helper guards __reduce_add_sync on __CUDA_ARCH__
// expect: ok
#include "include/warp_reduce_guarded.cuh"
__global__ void k(int* p) { p[threadIdx.x] = warp_reduce_add_guarded(p[threadIdx.x]); }
