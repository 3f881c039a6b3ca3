// checks: inline PTX tcgen05.fence::before_thread_sync/after_thread_sync (arch-specific)
// feature: tcgen05.fence
__global__ void k(unsigned* out) {
  __shared__ unsigned taddr;
  unsigned a = (unsigned)__cvta_generic_to_shared(&taddr);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  out[threadIdx.x] = a;
}
