// checks: inline PTX tcgen05.alloc/relinquish_alloc_permit/dealloc (tensor memory, arch-specific)
// feature: tcgen05.alloc
// feature: tcgen05.dealloc
// feature: tcgen05.relinquish_alloc_permit
__global__ void k(unsigned* out) {
  __shared__ unsigned taddr;
  unsigned a = (unsigned)__cvta_generic_to_shared(&taddr);
  if (threadIdx.x < 32) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" :: "r"(a) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  out[threadIdx.x] = taddr;
  if (threadIdx.x < 32) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" :: "r"(taddr));
}
