// checks: #if/#elif/#else chain on __CUDA_ARCH__ picking elect.sync, redux.sync or shuffles
// expect: ok
__global__ void k(unsigned* p) {
  unsigned v = p[threadIdx.x], r = 0;
#if __CUDA_ARCH__ >= 900
  asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
#elif __CUDA_ARCH__ >= 800
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
#else
  r = __shfl_sync(0xffffffffu, v, 0);
#endif
  p[threadIdx.x] = r;
}
