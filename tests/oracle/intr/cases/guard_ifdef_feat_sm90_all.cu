// checks: wgmma inside #ifdef __CUDA_ARCH_FEAT_SM90_ALL (only sm_90a defines it)
// expect: ok
__global__ void k() {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
}
