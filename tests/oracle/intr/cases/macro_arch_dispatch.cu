// checks: a dispatch macro whose body depends on __CUDA_ARCH__ at expansion
// expect: ok
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define WARP_MAX(v) __reduce_max_sync(0xffffffffu, (v))
#else
#define WARP_MAX(v) (v)
#endif
__global__ void k(int* p) { p[threadIdx.x] = WARP_MAX(p[threadIdx.x]); }
