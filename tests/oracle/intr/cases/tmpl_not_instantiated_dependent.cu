// checks: a function template calling __reduce_add_sync on a dependent argument, never instantiated
// expect: ok
template <typename T>
__device__ T warp_sum(T v) { return __reduce_add_sync(0xffffffffu, v); }
__global__ void k(int* p) { p[threadIdx.x] += 1; }
