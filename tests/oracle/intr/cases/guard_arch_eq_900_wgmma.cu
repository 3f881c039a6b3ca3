// checks: wgmma under #if __CUDA_ARCH__ == 900: still fails on plain sm_90
// feature: wgmma.fence if __CUDA_ARCH__ == 900
__global__ void k() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
