// checks: an uninstantiated template whose __reduce_add_sync call has only non-dependent arguments
// expect: ok
template <typename T>
__device__ T warp_count(T v) { return v + (T)__reduce_add_sync(0xffffffffu, 1u); }
__global__ void k(int* p) { p[threadIdx.x] += 1; }
