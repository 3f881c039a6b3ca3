// checks: tcgen05 under #if __CUDA_ARCH_SPECIFIC__ >= 1000 (sm_100a/103a/110a/120a/121a define it)
// feature: tcgen05.fence if defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ >= 1000
__global__ void k() {
#if defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ >= 1000
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}
