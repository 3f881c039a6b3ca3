// checks: the guard is a project macro: #define HAS_REDUX (__CUDA_ARCH__ >= 800)
// expect: ok
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
#define HAS_REDUX 1
#else
#define HAS_REDUX 0
#endif
__global__ void k(int* p) {
  int v = p[threadIdx.x];
#if HAS_REDUX
  v = __reduce_max_sync(0xffffffffu, v);
#endif
  p[threadIdx.x] = v;
}
