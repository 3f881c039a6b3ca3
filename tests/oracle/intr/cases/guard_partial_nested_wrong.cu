// checks: outer guard >= 800 is right for redux but the inner elect.sync is unguarded
// feature: elect.sync if __CUDA_ARCH__ >= 800
__global__ void k(unsigned* p) {
  unsigned r = p[threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  r = __reduce_or_sync(0xffffffffu, r);
  asm volatile("{\n .reg .pred P;\n elect.sync %0|P, 0xffffffff;\n}" : "=r"(r));
#endif
  p[threadIdx.x] = r;
}
