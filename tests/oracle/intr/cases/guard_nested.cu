// checks: nested guards: #if __CUDA_ARCH__ >= 800 / #if __CUDA_ARCH__ >= 900 inner
// expect: ok
__global__ void k(unsigned* p) {
  unsigned r = p[threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  r = __reduce_or_sync(0xffffffffu, r);
#  if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#  endif
#endif
  p[threadIdx.x] = r;
}
