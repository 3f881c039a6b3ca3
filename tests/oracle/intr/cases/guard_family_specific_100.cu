// checks: tcgen05 under __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 (sm_100a and sm_100f)
// expect: ok
__global__ void k() {
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}
