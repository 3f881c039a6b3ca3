// checks: tcgen05.alloc under #ifdef __CUDA_ARCH_FEAT_SM100_ALL
// expect: ok
__global__ void k(unsigned* out) {
#ifdef __CUDA_ARCH_FEAT_SM100_ALL
  __shared__ unsigned taddr;
  unsigned a = (unsigned)__cvta_generic_to_shared(&taddr);
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" :: "r"(a) : "memory");
  out[0] = taddr;
#endif
}
