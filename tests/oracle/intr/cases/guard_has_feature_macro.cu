// checks: wgmma under __CUDA_ARCH_HAS_FEATURE__(SM90_ALL)
// expect: ok
__global__ void k() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH_HAS_FEATURE__(SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
