// checks: wgmma under #if __CUDA_ARCH__ >= 900: not enough, plain sm_90 and later arches lack wgmma
// feature: wgmma.fence if __CUDA_ARCH__ >= 900
__global__ void k() {
#if __CUDA_ARCH__ >= 900
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
